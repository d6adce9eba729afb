/**
 * `nudge schedule` through the built CLI: what it prints, the bad input it refuses (exit 2,
 * one sentence), and `--install` / `--uninstall` against stand-ins for `crontab`, `systemctl`
 * and `launchctl` that keep what they are given (a real cron daemon firing a schedule is in
 * test/slow/schedule-cron.test.ts). systemd units are checked with the real
 * `systemd-analyze verify` where it is installed.
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa, execaSync} from 'execa';
import {parse as parsePlist} from 'plist';
import {describe, expect, test} from 'vitest';
import {CLI, runNudge, scheduleArgv} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const HAS_SYSTEMD_ANALYZE = (() => {
  try {
    return execaSync('systemd-analyze', ['--version'], {reject: false}).exitCode === 0;
  } catch {
    return false;
  }
})();

/** A home with stand-ins for the scheduler programs on PATH; each records its argv (one
 * line per call) in calls.log; crontab keeps the table in a file, as the real one does. The
 * environment is that of pane %0 of a private tmux server (a schedule marks its pane there). */
async function world() {
  const server = await startTmuxServer();
  const home = useTempDir('nudge-schedule-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  const calls = join(home, 'calls.log');
  const table = join(home, 'crontab.txt');
  const record = `printf '%s\\n' "$(basename "$0") $*" >> '${calls}'\n`;
  writeFileSync(
    join(bin, 'crontab'),
    `#!/bin/sh\n${record}case "$1" in\n  -l) [ -f '${table}' ] && cat '${table}' && exit 0; echo "no crontab for $USER" >&2; exit 1;;\n  -) cat > '${table}';;\nesac\n`,
    {mode: 0o755},
  );
  for (const name of ['systemctl', 'launchctl'])
    writeFileSync(join(bin, name), `#!/bin/sh\n${record}`, {mode: 0o755});
  const env = {
    HOME: home,
    NUDGE_HOME: join(home, 'state'),
    PATH: `${bin}:${process.env.PATH}`,
    TMUX: `${server.socket},0,0`,
    TMUX_PANE: '%0',
  };
  const callsMade = () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : []);
  /** The schedule's private file. */
  const job = (name = 'default') =>
    JSON.parse(readFileSync(join(env.NUDGE_HOME, 'schedule', `${name}.json`), 'utf8')) as {
      socket: string;
      mark: string;
      submit: {text: string};
    };
  /** The value of pane option `option` on `pane` ('' when unset). */
  const mark = async (pane: string, option: string) =>
    (await server.tmux('show-options', '-p', '-t', pane, '-v', option).catch(() => '')).trim();
  // nudge schedule typed in pane %0's shell (a child of it: the pane is proven, not claimed).
  await server.waitForScreen('%0', /^\$/m);
  const inside = await runFromPane(server, '%0');
  const nudge = (args: string[], e: Record<string, string> = env) => inside.nudge(args, e);
  return {home, env, table, callsMade, server, job, mark, nudge};
}

/** The scheduled command of a printed crontab block: what cron hands /bin/sh. */
const cronCommand = (stdout: string) =>
  stdout
    .split('\n')[1]!
    .replace(/^(\S+ ){5}/, '')
    .replace(/\\%/g, '%');

describe('nudge schedule', () => {
  test('cron, printed: only `nudge schedule run NAME` with absolute paths and the log; a preview writes and marks nothing; --write: the text in a 0600 file, the pane marked', async () => {
    const {env, home, job, mark, server, nudge} = await world();
    const args = ['schedule', 'cron', '--every', '30m', '--', '--until', 'exit', '--', 'echo 100%'];
    const preview = await nudge(args, env);
    expect(preview.exitCode, preview.stderr).toBe(0);
    expect(preview.stderr.trim()).toBe(
      'nudge: a preview: nothing is written and no pane is marked; run this again with --write to keep the text and mark the pane for lines you put in place yourself, or with --install to put them in place too.',
    );
    expect(existsSync(join(home, 'state', 'schedule'))).toBe(false);
    expect(await mark('%0', '@nudge-schedule-default')).toBe('');
    const r = await nudge([...args.slice(0, 4), '--write', ...args.slice(4)], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(preview.stdout);
    expect(r.stdout).toBe(
      [
        '# tmux-nudge schedule default',
        `*/30 * * * * NUDGE_HOME=${home}/state PATH=${r.stdout.match(/PATH=(\S+)/)?.[1]} ${process.execPath} ${CLI} schedule run default >> ${home}/state/schedule/default.log 2>&1`,
      ].join('\n'),
    );
    expect(r.stdout.match(/PATH=(\S+)/)?.[1]).toMatch(/(^|:)\/usr\/bin(:|$)/);
    const file = join(home, 'state', 'schedule', 'default.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(job()).toMatchObject({
      socket: server.socket,
      submit: {text: 'echo 100%', until: 'exit'},
    });
    expect(await mark('%0', '@nudge-schedule-default')).toBe(job().mark);
  });

  test.each([
    [
      ['cron', '--every', '45m', '--', '--pane', '%1', '--', 'x'],
      /^nudge: --every 45m cannot be written for cron/,
    ],
    [
      ['cron', '--every', '5m', '--cron', '* * * * *', '--', 'x'],
      /^nudge: Give one of --every DURATION or --cron EXPRESSION\.$/,
    ],
    [
      ['systemd', '--cron', '0 9 * *', '--', 'x'],
      /^nudge: --cron "0 9 \* \*" is not a cron expression: it has 4 fields/,
    ],
    [
      ['cron', '--every', '5m', '--', '--wait', '--', 'x'],
      /^nudge: Leave --wait out: nudge schedule adds it\.$/,
    ],
    [
      ['cron', '--every', '5m', '--', '--bogus', '--', 'x'],
      /^nudge: The submit options after -- are not valid/,
    ],
    [['cron', '--every', '5m', '--', '--timeout', 'soon', '--', 'x'], /^nudge: .*--timeout/],
    [
      ['cron', '--every', '5m', '--name', 'a/b', '--', 'x'],
      /^nudge: --name "a\/b" must be letters/,
    ],
    [['anacron', '--every', '5m', '--', 'x'], /^nudge: .*anacron/],
    [
      ['cron', '--every', '5m', '--', '--notify', 'cmd:/bin/touch /tmp/x', '--', 'x'],
      /^nudge: --notify "cmd:\/bin\/touch \/tmp\/x" is refused: a cmd: sink runs a program/,
    ],
  ])('refuses %j: exit 2, one line', async (args, message) => {
    const {env, nudge} = await world();
    const r = await nudge(['schedule', ...args], env);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
  });

  test('outside tmux a schedule needs --pane (and a socket it can name)', async () => {
    const {env, server, mark, job} = await world();
    const {TMUX: _t, TMUX_PANE: _p, ...outside} = env;
    const r = await runNudge(['schedule', 'cron', '--every', '1h', '--', 'continue'], outside);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      'nudge: A schedule runs outside tmux: give --pane (%N), or run nudge schedule from the pane it is for.',
    );
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    const ok = await runNudge(
      scheduleArgv(
        'cron',
        {every: '1h', write: true, socketPath: server.socket, json: true},
        {pane},
        'continue',
      ),
      outside,
    );
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).argv).toEqual([
      process.execPath,
      CLI,
      'schedule',
      'run',
      'default',
    ]);
    expect(await mark(pane, '@nudge-schedule-default')).toBe(job().mark);
  });

  test('a newline in the text: the crontab gets one line, the unit one ExecStart=, the plist one argument list; ps never shows the text', async () => {
    const {env, table, home, nudge} = await world();
    const text = 'first line\n* * * * * touch /tmp/pwned\nExecStart=/bin/sh -c pwned';
    for (const scheduler of ['cron', 'systemd', 'launchd']) {
      const r = await nudge(
        ['schedule', scheduler, '--every', '1h', '--install', '--', '--', text],
        env,
      );
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const crontab = readFileSync(table, 'utf8').split('\n').filter(Boolean);
    expect(crontab).toHaveLength(2); // the marker and the one line
    expect(crontab.join('\n')).not.toContain('pwned');
    const service = readFileSync(
      join(home, '.config/systemd/user/tmux-nudge-default.service'),
      'utf8',
    );
    expect(service.split('\n').filter((l) => l.startsWith('ExecStart='))).toEqual([
      `ExecStart=${process.execPath} ${CLI} schedule run default`,
    ]);
    expect(service).not.toContain('pwned');
    const plist = parsePlist(
      readFileSync(join(home, 'Library/LaunchAgents/dev.tmux-nudge.default.plist'), 'utf8'),
    ) as Record<string, unknown>;
    expect(plist.ProgramArguments).toEqual([process.execPath, CLI, 'schedule', 'run', 'default']);
  });

  test('the printed crontab line, run as cron runs it (no LANG, a bare environment, /bin/sh), types the text exactly, into the marked pane only', async () => {
    const {env, server, nudge} = await world();
    const pane = (await server.tmux('display-message', '-p', '#{pane_id}')).trim();
    const text = 'printf \'%s done\\n\' "ünï ✓ 100%"';
    const r = await nudge(
      scheduleArgv(
        'cron',
        {every: '1m', write: true, socketPath: server.socket},
        {pane, until: 'exit', notice: false},
        text,
      ),
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const command = cronCommand(r.stdout);
    // The scheduled process's argv: no text in it, whatever ps shows while the job runs.
    expect(command).not.toContain('ünï');
    const cron = () =>
      execa('/bin/sh', ['-c', command], {
        env: {HOME: env.HOME, SHELL: '/bin/sh'},
        extendEnv: false,
        reject: false,
      });
    const log = () => readFileSync(join(env.NUDGE_HOME, 'schedule', 'default.log'), 'utf8');
    expect((await cron()).exitCode, log()).toBe(0);
    const screen = await server.capture(pane);
    expect(screen.split('\n').filter((l) => l.endsWith(text))).toHaveLength(1);
    expect(screen).toContain('\nünï ✓ 100% done\n');

    // The pane loses its mark (tmux restarted, a new pane with the old %N): nothing is typed.
    await server.tmux('set-option', '-p', '-u', '-t', pane, '@nudge-schedule-default');
    const again = await cron();
    expect(again.exitCode).not.toBe(0);
    expect(log()).toContain(
      'Schedule default: no pane carries its mark @nudge-schedule-default (the pane was closed, or tmux restarted); nothing was typed.',
    );
    expect((await server.capture(pane)).split('\n').filter((l) => l.endsWith(text))).toHaveLength(
      1,
    );
  });

  test('cron --install adds one block (again: replaces it), keeps the rest; --uninstall leaves the crontab as it was', async () => {
    const {env, table, callsMade, nudge} = await world();
    const theirs = 'MAILTO=""\n0 3 * * * /usr/local/bin/backup\n';
    writeFileSync(table, theirs);
    const args = [
      'schedule',
      'cron',
      '--every',
      '15m',
      '--name',
      'poke',
      '--install',
      '--',
      'continue',
    ];
    for (let i = 0; i < 2; i += 1) {
      const r = await nudge(args, env);
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toContain('installed schedule poke (cron) in your crontab');
    }
    const now = readFileSync(table, 'utf8');
    expect(now.startsWith(theirs)).toBe(true);
    expect(now.split('# tmux-nudge schedule poke')).toHaveLength(2);
    expect(now).toMatch(/\n\*\/15 \* \* \* \* .* schedule run poke >> /);
    const u = await nudge(['schedule', 'cron', '--name', 'poke', '--uninstall'], env);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(existsSync(join(env.NUDGE_HOME, 'schedule', 'poke.json'))).toBe(false);
    expect(readFileSync(table, 'utf8')).toBe(theirs);
    expect(callsMade()).toEqual([
      'crontab -l',
      'crontab -',
      'crontab -l',
      'crontab -',
      'crontab -l',
      'crontab -',
    ]);
  });

  test('systemd --install writes units that systemd-analyze accepts, reloads and enables the timer; --uninstall undoes it', async () => {
    const {env, home, callsMade, job, mark, nudge} = await world();
    const r = await nudge(
      scheduleArgv(
        'systemd',
        {cron: '*/10 8-18 * * mon-fri', name: 'work', install: true},
        {notifyPane: 'self'},
        'status?',
      ),
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const dir = join(home, '.config', 'systemd', 'user');
    const service = readFileSync(join(dir, 'tmux-nudge-work.service'), 'utf8');
    expect(service).toContain(`\nExecStart=${process.execPath} ${CLI} schedule run work\n`);
    expect(await mark('%0', '@nudge-schedule-work')).toBe(job('work').mark);
    expect(await mark('%0', '@nudge-schedule-work-notice')).toBe(job('work').mark);
    expect(readFileSync(join(dir, 'tmux-nudge-work.timer'), 'utf8')).toContain(
      'OnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 08,09,10,11,12,13,14,15,16,17,18:0/10:00\n',
    );
    if (HAS_SYSTEMD_ANALYZE) {
      const v = await execa(
        'systemd-analyze',
        ['verify', join(dir, 'tmux-nudge-work.timer'), join(dir, 'tmux-nudge-work.service')],
        {reject: false},
      );
      expect(v.exitCode, v.stderr).toBe(0);
      expect(v.stderr).toBe('');
    }
    expect(callsMade()).toEqual([
      'systemctl --user daemon-reload',
      'systemctl --user enable --now tmux-nudge-work.timer',
    ]);
    const u = await nudge(['schedule', 'systemd', '--name', 'work', '--uninstall'], env);
    expect(u.exitCode, u.stderr).toBe(0);
    expect(existsSync(join(dir, 'tmux-nudge-work.service'))).toBe(false);
    expect(existsSync(join(dir, 'tmux-nudge-work.timer'))).toBe(false);
    expect(await mark('%0', '@nudge-schedule-work')).toBe('');
    expect(callsMade().slice(2)).toEqual([
      'systemctl --user disable --now tmux-nudge-work.timer',
      'systemctl --user daemon-reload',
    ]);
  });

  test('systemd --install when the user manager does not answer: the units stay, exit 1 with what to run', async () => {
    const {env, home, nudge} = await world();
    writeFileSync(
      join(home, 'bin', 'systemctl'),
      '#!/bin/sh\necho "Failed to connect to bus: No medium found" >&2\nexit 1\n',
      {mode: 0o755},
    );
    const r = await nudge(['schedule', 'systemd', '--every', '1h', '--install', '--', 'x'], env);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe(
      'nudge: systemctl --user daemon-reload failed (Failed to connect to bus: No medium found); the units are written, run it yourself once your user manager runs (loginctl enable-linger).',
    );
  });

  test('launchd --install writes the plist where launchd reads it and bootstraps it in gui/UID', async () => {
    const {env, home, callsMade, nudge} = await world();
    const r = await nudge(
      ['schedule', 'launchd', '--every', '2h', '--name', 'mac', '--install', '--', 'continue'],
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const file = join(home, 'Library', 'LaunchAgents', 'dev.tmux-nudge.mac.plist');
    const plist = parsePlist(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(plist.ProgramArguments).toEqual([process.execPath, CLI, 'schedule', 'run', 'mac']);
    expect(plist.StartInterval).toBe(7200);
    expect(existsSync(join(home, 'state', 'schedule'))).toBe(true); // launchd does not make the log's folder
    const uid = process.getuid?.();
    expect(callsMade()).toEqual([
      `launchctl bootout gui/${uid}/dev.tmux-nudge.mac`,
      `launchctl bootstrap gui/${uid} ${file}`,
    ]);
    await nudge(['schedule', 'launchd', '--name', 'mac', '--uninstall'], env);
    expect(existsSync(file)).toBe(false);
  });

  // plutil is Apple's: this runs in the macOS workflow (.github/workflows/macos.yml) only.
  test.skipIf(process.platform !== 'darwin')(
    'launchd: plutil -lint accepts the plist nudge writes (macOS only)',
    async () => {
      const {env, home, nudge} = await world();
      const r = await nudge(
        [
          'schedule',
          'launchd',
          '--cron',
          '30 9 * * 1-5',
          '--name',
          'lint',
          '--install',
          '--',
          'go',
        ],
        env,
      );
      expect(r.exitCode, r.stderr).toBe(0);
      const file = join(home, 'Library', 'LaunchAgents', 'dev.tmux-nudge.lint.plist');
      const lint = spawnSync('plutil', ['-lint', file], {encoding: 'utf8'});
      expect(lint.status, `${lint.stdout}${lint.stderr}`).toBe(0);
    },
  );
});
