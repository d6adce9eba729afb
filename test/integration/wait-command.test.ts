import {describe, expect, it} from 'vitest';
import {serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {fixture, runNudge, shown} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTmuxCallLog} from '../helpers/tmux-call-log.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const node = process.execPath;
const CLOCK_MASK = 'clock \\d\\d:\\d\\d:\\d\\d';

/** `nudge wait` on the test server with quick checks. */
function waitArgs(socket: string, pane: string, extra: string[]): string[] {
  return ['wait', '-S', socket, pane, '--interval', '200ms', '--stable-checks', '3', ...extra];
}

/** Type a command line into a shell pane, press Enter, and wait until `command` is in the
 * pane's foreground (the command is running). */
async function startCommand(
  server: TmuxTestServer,
  pane: string,
  line: string,
  command: string,
): Promise<void> {
  await server.tmux('send-keys', '-t', pane, '-l', line);
  await server.tmux('send-keys', '-t', pane, 'Enter');
  let current = '';
  await waitFor(
    `${command} in the foreground of ${pane}`,
    async () => {
      current = (
        await server.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')
      ).trim();
      return current === command || undefined;
    },
    {timeoutMs: 10_000, describe: () => current},
  );
}

describe('nudge wait', () => {
  it('an idle pane: exit 0 with "idle after Ns"', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const r = await runNudge(waitArgs(server.socket, '%0', ['--timeout', '20s']), {
      NUDGE_HOME: useNudgeHome(),
    });
    expect(r.exitCode, shown(r)).toBe(0);
    expect(r.stdout.trim(), shown(r)).toMatch(/^idle after \d+(\.\d)?s$/);
    expect(r.stderr).toBe('');
  });

  it('an idle pane and a timeout shorter than the window: exit 124, and not "changing"', async () => {
    const {server, home} = await shellAtPrompt();
    // --interval 1s: the window is 3 s, longer than the timeout.
    const r = await runNudge(
      waitArgs(server.socket, '%0', ['--interval', '1s', '--timeout', '2s']),
      {
        NUDGE_HOME: home,
      },
    );
    expect(r.exitCode, shown(r)).toBe(124);
    expect(r.stdout.trim(), shown(r)).toMatch(
      /^Timeout: %0 did not change, but has not been still for a whole stability window \(longer than the \d+(\.\d)?s waited\)$/,
    );
  });

  it('a spinner: exit 124 with "Timeout: %N still active after Ns"', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane([node, fixture('spinner.mjs')]);
    await server.waitForScreen(pane, /SPINNER START/);
    const r = await runNudge(waitArgs(server.socket, pane, ['--timeout', '1s']), {
      NUDGE_HOME: useNudgeHome(),
    });
    expect(r.exitCode, shown(r)).toBe(124);
    expect(r.stdout.trim(), shown(r)).toMatch(
      new RegExp(
        `^Timeout: ${pane} still active after \\d+(\\.\\d)?s \\(the screen is still changing\\)$`,
      ),
    );
  });

  it('--json: {status, pane, until, duration_ms} for idle and for timeout', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const spinner = await server.newPane([node, fixture('spinner.mjs')]);
    await server.waitForScreen(spinner, /SPINNER START/);
    const home = useNudgeHome();
    const [idle, busy] = await Promise.all([
      runNudge(waitArgs(server.socket, '%0', ['--timeout', '20s', '--json']), {NUDGE_HOME: home}),
      runNudge(waitArgs(server.socket, spinner, ['--timeout', '1s', '--json']), {
        NUDGE_HOME: home,
      }),
    ]);
    expect(idle.exitCode, shown(idle)).toBe(0);
    const idleAnswer = JSON.parse(idle.stdout);
    expect(idleAnswer).toMatchObject({status: 'idle', pane: '%0', until: 'stable'});
    expect(idleAnswer.duration_ms).toBeTypeOf('number');

    expect(busy.exitCode, shown(busy)).toBe(124);
    const busyAnswer = JSON.parse(busy.stdout);
    expect(busyAnswer).toMatchObject({status: 'timeout', pane: spinner, until: 'stable'});
    expect(busyAnswer.duration_ms).toBeGreaterThanOrEqual(1000);
  });

  it('--until exit is refused (exit 2): nothing was typed, so there is no exit status', async () => {
    const {server, home} = await serverWorld();
    const r = await runNudge(waitArgs(server.socket, '%0', ['--until', 'exit']), {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, shown(r)).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/--until exit/);

    const missing = await runNudge(waitArgs(server.socket, '%99', ['--timeout', '5s']), {
      NUDGE_HOME: home,
    });
    expect(missing.exitCode, shown(missing)).toBe(2);
    expect(missing.stderr).toContain('%99');
  });

  it('a clock that changes while idle: timeout without --ignore, idle with it', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane([node, fixture('clock.mjs'), '100']);
    await server.waitForScreen(pane, /^> ?$/m);
    const home = useNudgeHome();
    const [plain, masked] = await Promise.all([
      runNudge(waitArgs(server.socket, pane, ['--timeout', '2s']), {NUDGE_HOME: home}),
      runNudge(waitArgs(server.socket, pane, ['--timeout', '20s', '--ignore', CLOCK_MASK]), {
        NUDGE_HOME: home,
      }),
    ]);
    expect(plain.exitCode, shown(plain)).toBe(124);
    expect(plain.stdout).toMatch(/^Timeout: /);
    expect(masked.exitCode, shown(masked)).toBe(0);
    expect(masked.stdout).toMatch(/^idle after /);
  });

  // Process liveness: a shell pane whose foreground command still runs is not idle, even
  // when its screen is still or shows something that looks like a prompt.
  for (const [until, line, done] of [
    ['stable', 'sleep 2; echo finished', /^finished$/m],
    ['prompt:shell', "printf 'Continue? $ '; sleep 2; echo; echo slept", /^slept$/m],
    ['prompt', "printf 'Continue? $ '; sleep 2; echo; echo napped", /^napped$/m],
  ] as const) {
    it(`--until ${until}: a shell pane running a quiet command is not idle until it has finished`, async () => {
      const server = await startTmuxServer();
      await server.waitForScreen('%0', /^\$/m);
      await startCommand(server, '%0', line, 'sleep');
      const home = useNudgeHome();
      const args = waitArgs(server.socket, '%0', ['--timeout', '20s', '--until', until]);
      const r = await runNudge(args, {NUDGE_HOME: home});
      // By the time the wait returned, the command had finished.
      const screen = await server.capture('%0');
      expect(r.exitCode, `${shown(r)}\n${screen}`).toBe(0);
      expect(screen, `${shown(r)}\nidle while the command was still running:\n${screen}`).toMatch(
        done,
      );
    });
  }

  it('--until regex: is idle once the pattern shows in new output; --json reports match and line', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const log = await useTmuxCallLog(server.dir);
    const running = runNudge(
      waitArgs(server.socket, '%0', [
        '--until',
        'regex:listening on port \\d+',
        '--timeout',
        '20s',
        '--json',
      ]),
      {...log.env, NUDGE_HOME: useNudgeHome()},
    );
    // The pane check, the look at entry, the first check: it is waiting now.
    await log.waitForCaptures(3);
    await server.tmux('send-keys', '-t', '%0', '-l', `${node} ${fixture('server.mjs')} 500`);
    await server.tmux('send-keys', '-t', '%0', 'Enter');

    const r = await running;
    expect(r.exitCode, shown(r)).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'idle',
      pane: '%0',
      until: 'regex:listening on port \\d+',
      match: 'listening on port 8080',
      line: 'Server listening on port 8080',
    });
  });
});

describe('nudge wait over several panes', () => {
  /** Three panes: two spinners (never idle) and a pane that becomes idle when its command
   * ends (`sleep 2`), so the answer is that pane. */
  async function threePanes() {
    const {server, home} = await shellAtPrompt();
    const spinners = [
      await server.newPane([node, fixture('spinner.mjs')]),
      await server.newPane([node, fixture('spinner.mjs')]),
    ];
    for (const s of spinners) await server.waitForScreen(s, /SPINNER START/);
    await startCommand(server, '%0', 'sleep 2', 'sleep');
    return {server, home, spinners};
  }

  it('--any: the first pane to be idle is the answer, named, exit 0; the others are stopped', async () => {
    const {server, home, spinners} = await threePanes();
    const r = await runNudge(
      [
        'wait',
        '-S',
        server.socket,
        spinners[0] ?? '',
        '%0',
        spinners[1] ?? '',
        '--any',
        '--interval',
        '200ms',
        '--timeout',
        '30s',
      ],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, shown(r)).toBe(0);
    const [head, ...each] = r.stdout.trim().split('\n');
    expect(head).toMatch(/^%0 idle after \d+(\.\d)?s$/);
    expect(each).toEqual([
      `  ${spinners[0]}  not waited for further`,
      expect.stringMatching(/^ {2}%0 {2}idle after/),
      `  ${spinners[1]}  not waited for further`,
    ]);
  });

  it('--all (the default) and --count: JSON with each pane; a pane never idle ends them at the timeout (124)', async () => {
    const {server, home, spinners} = await threePanes();
    const panes = ['%0', ...spinners];
    const r = await runNudge(
      ['wait', '-S', server.socket, ...panes, '--json', '--interval', '200ms', '--timeout', '4s'],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, shown(r)).toBe(124);
    const all = JSON.parse(r.stdout) as {
      status: string;
      mode: string;
      needed: number;
      idle: string[];
      panes: {pane: string; status: string}[];
    };
    expect(all).toMatchObject({status: 'timeout', mode: 'all', needed: 3, idle: ['%0']});
    // Once one spinner timed out, all cannot be idle: the other is stopped (or timed out too).
    expect(all.panes.map((p) => p.pane)).toEqual(panes);
    expect(all.panes[0]?.status).toBe('idle');
    const spun = all.panes.slice(1).map((p) => p.status);
    expect(spun).toContain('timeout');
    for (const status of spun) expect(['timeout', 'stopped']).toContain(status);
    const five = await runNudge(['wait', '-S', server.socket, ...panes, '--count', '5'], {
      NUDGE_HOME: home,
    });
    expect(five.exitCode, shown(five)).toBe(2);
    expect(five.stderr.trim()).toBe(
      'nudge: --count 5 needs at least 5 panes, got 3; name more panes or ask for fewer.',
    );
    const both = await runNudge(['wait', '-S', server.socket, ...panes, '--any', '--all'], {
      NUDGE_HOME: home,
    });
    expect(both.exitCode, shown(both)).toBe(2);
    expect(both.stderr.trim()).toBe(
      'nudge: Give one of --any, --all and --count, not --any and --all.',
    );
  });
});
