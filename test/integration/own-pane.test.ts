/**
 * "The pane nudge runs in" is proven by the process tree, never taken from `$TMUX_PANE` alone:
 * through the built CLI, `nudge mcp` and `nudge hook`, with real processes in a private tmux
 * server, through both process readers. The shared server here stands in for Codex's
 * app-server daemon as measured (a child of the first pane's process, handing that pane's
 * environment to every session's calls): a process whose command line is `codex app-server`,
 * started from pane A, that runs nudge for another session (test/integration/
 * many-sessions-at-model.test.ts drives the real one).
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {jobEvent, readJobEvents} from '../helpers/job-files.js';
import {callTool, spawnedMcpIn} from '../helpers/mcp-client.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {
  flagWords,
  PROCESS_VIEWS,
  runNudge,
  runNudgeIn,
  shown,
  usageErrorLine,
} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

async function world(view: 'proc' | 'ps') {
  const {server, home} = await serverWorld();
  const reader = processViewEnv(view, server.dir);
  const a = '%0';
  await server.waitForScreen(a, /^\$/m);
  const b = await server.newPane(['bash', '--norc', '--noprofile']);
  const shell = await server.newPane(['bash', '--norc', '--noprofile']);
  await server.waitForScreen(shell, /^\$/m);
  return {server, home, reader, a, b, shell, env: {NUDGE_HOME: home, ...reader.env}};
}

const SHARED =
  /but \$TMUX_PANE says %0 and nudge cannot prove that is its pane: it runs under the codex server that all codex sessions share \(pid \d+: codex app-server [^)]*\), which hands every session's calls the environment of the pane that started it/;

describe.each(PROCESS_VIEWS)('which pane a call comes from (%s reader)', (view) => {
  test('a call made in pane B with $TMUX_PANE naming A: the tree proves B, and the notice goes there', async () => {
    const w = await world(view);
    await w.server.waitForScreen(w.b, /^\$/m);
    const inB = await runFromPane(w.server, w.b);
    const r = await inB.nudge(
      ['submit', ...flagWords({pane: w.shell, notifyPane: 'self', delay: 0}), '--', 'true'],
      {...w.env, TMUX_PANE: w.a},
    );
    expect(r.exitCode, shown(r)).toBe(0);
    const job = r.stdout.trim();
    const locked = await waitFor(
      'the job locked',
      async () => await jobEvent(w.home, job, 'locked'),
    );
    expect(locked.notifyPane).toBe(w.b);
    if (view === 'ps') expect(w.reader.calls()).toContain('ps -ww -A -o pid=,ppid=,tty=,command=');
  });

  test("under a server its sessions share (Codex's app-server): self, the default pane, nudge mcp and the turn-end hook are refused; nothing typed, no job, no mark", async () => {
    const w = await world(view);
    const server = await runFromPane(w.server, w.a, 'codex app-server');
    const env = {...w.env, CODEX_THREAD_ID: '01a21faf-041e'};
    // submit --notify-pane self, and submit without --pane.
    const self = await server.nudge(
      ['submit', '--pane', w.shell, '--notify-pane', 'self', '--', 'echo never-typed'],
      env,
    );
    expect(usageErrorLine(self, 'self')).toMatch(SHARED);
    expect(self.stderr).toContain('(this call is from codex thread 01a21faf-041e)');
    expect(self.stderr).toMatch(/nothing was typed: pass --notify-pane %N\.$/m);
    const plain = await server.nudge(['submit', '--', 'echo never-typed'], env);
    expect(usageErrorLine(plain, 'no --pane')).toMatch(
      /^nudge: Without --pane, the pane is the one nudge runs in, but/,
    );
    const waited = await server.nudge(['wait', '--timeout', '1s'], env);
    expect(usageErrorLine(waited, 'wait')).toMatch(SHARED);
    // nudge mcp started by that server: "your own pane" is refused as a tool error.
    const mcp = await spawnedMcpIn(server, env);
    const tool = await callTool(mcp, 'submit', {
      pane: w.shell,
      notify_pane: 'self',
      text: 'echo never-typed',
    });
    expect(tool.isError).toBe(true);
    expect(tool.content[0]?.text).toMatch(SHARED);
    // The turn-end hook: no mark for A; a refusal, which doctor shows.
    const hook = await server.nudge(
      ['hook', 'codex-notify', JSON.stringify({type: 'agent-turn-complete', 'thread-id': 'x'})],
      env,
    );
    expect(hook.exitCode, shown(hook)).toBe(0);
    expect(hook.stderr).toMatch(
      /^nudge hook: no mark recorded for %0: it runs under the codex server/,
    );
    const marks = readdirSync(join(w.home, 'marks'));
    expect(marks.filter((f) => !f.endsWith('.refused.json'))).toEqual([]);
    const refused = JSON.parse(
      readFileSync(join(w.home, 'marks', marks[0] ?? ''), 'utf8'),
    ) as Record<string, unknown>;
    expect(refused).toMatchObject({source: 'codex-notify', claimed: w.a});
    const doctor = await server.nudge(['doctor', '--json'], env);
    const pane = (
      JSON.parse(doctor.stdout) as {checks: Array<{name: string; status: string; detail: string}>}
    ).checks.find((c) => c.name === 'pane');
    expect(pane?.status).toBe('fail');
    expect(pane?.detail).toMatch(
      /^Calls from here are not identified: \$TMUX_PANE says %0, not proven: it runs under the codex server/,
    );
    // And from anywhere (a person's shell), doctor says a hook recorded nothing, and why.
    const outside = await runNudge(['doctor', '--json'], w.env);
    const hooks = (
      JSON.parse(outside.stdout) as {checks: Array<{name: string; status: string; detail: string}>}
    ).checks.find((c) => c.name === 'hooks');
    expect(hooks?.status).toBe('warn');
    expect(hooks?.detail).toMatch(
      /^codex-notify: last call \S+ in %0; in the last day 1 call: 0 proved their pane, 1 refused and recorded no mark \(the newest: it runs under the codex server/,
    );
    // A turn whose input a job typed (delivered, read back) into a pane proves that pane:
    // the hook under the shared server marks it there, saying how.
    const typed = await server.nudge(
      [
        'submit',
        ...flagWords({pane: w.shell, until: 'regex:^never$', timeout: '2m', notice: false}),
        '--',
        'echo typed-by-nudge',
      ],
      env,
    );
    expect(typed.exitCode, shown(typed)).toBe(0);
    const job = typed.stdout.trim();
    await waitFor(
      'the job typed and waiting',
      async () =>
        (await readJobEvents(w.home, job)).some((e) => e.event === 'waiting') || undefined,
    );
    const turn = JSON.stringify({
      type: 'agent-turn-complete',
      'thread-id': 't-2',
      'input-messages': ['echo typed-by-nudge'],
    });
    const marked = await server.nudge(['hook', 'codex-notify', turn], env);
    expect(marked.stderr, shown(marked)).toBe('');
    const mark = JSON.parse(
      readFileSync(
        join(
          w.home,
          'marks',
          readdirSync(join(w.home, 'marks')).find((f) => !f.includes('.refused.')) ?? '',
        ),
        'utf8',
      ),
    ) as Record<string, unknown>;
    expect(mark).toMatchObject({
      source: 'codex-notify',
      pane: w.shell,
      session: 't-2',
      provenBy: `job ${job} typed this turn's input there`,
    });
    await server.nudge(['cancel', job], env);
    // Nothing else anywhere: no other job, nothing typed into the shell pane but the job's.
    expect(readdirSync(join(w.home, 'jobs'))).toEqual([job]);
    expect(await w.server.capture(w.shell)).not.toContain('never-typed');
  });

  test("in its pane (codex --no-daemon), a turn end of another thread than the pane's title shows is a side thread's: no mark, counted apart (issue 63)", async () => {
    const w = await world(view);
    await w.server.waitForScreen(w.b, /^\$/m);
    const main = '01a24b21-d1b5-7572-85b0-d522fb2891d3';
    // As Codex's TUI titles its pane once `nudge install codex` asked it to.
    await w.server.tmux('select-pane', '-t', w.b, '-T', `work | ${main.slice(0, 29)}...`);
    const inB = await runFromPane(w.server, w.b);
    const turnOf = (thread: string) =>
      runNudgeIn(
        inB.socket,
        [
          'hook',
          'codex-notify',
          JSON.stringify({type: 'agent-turn-complete', 'thread-id': thread}),
        ],
        {...w.env, ...inB.env},
      );
    const side = await turnOf('01a24b21-ffff-7572-85b0-d522fb2891d3');
    expect(side.exitCode, shown(side)).toBe(0);
    expect(side.stderr.trim()).toBe(
      `nudge hook: no mark recorded: thread 01a24b21-ffff-7572-85b0-d522fb2891d3 is not the one pane ${w.b}'s title shows: a side thread of its codex session`,
    );
    const marks = () =>
      existsSync(join(w.home, 'marks'))
        ? readdirSync(join(w.home, 'marks')).filter((f) => f.endsWith('.json'))
        : [];
    expect(marks()).toEqual([]);
    // The pane's own thread: its mark.
    const own = await turnOf(main);
    expect(own.stderr, shown(own)).toBe('');
    expect(marks()).toHaveLength(1);
    const doctor = await runNudge(['doctor', '--json'], w.env);
    const hooks = (
      JSON.parse(doctor.stdout) as {checks: Array<{name: string; detail: string}>}
    ).checks.find((c) => c.name === 'hooks');
    expect(hooks?.detail).toMatch(/1 proved their pane.*1 .*side thread/);
  });

  test('a hook with $TMUX_PANE stripped proves its pane from the tree and marks it; with $TMUX gone too, each call is refused where doctor counts it (issue 63)', async () => {
    const w = await world(view);
    await w.server.waitForScreen(w.b, /^\$/m);
    const inB = await runFromPane(w.server, w.b);
    const turn = JSON.stringify({type: 'agent-turn-complete', 'thread-id': 't-1'});
    const hook = (env: Record<string, string>) =>
      runNudgeIn(inB.socket, ['hook', 'codex-notify', turn], {...w.env, ...env});
    // $TMUX kept, $TMUX_PANE stripped (a launcher's doing): B's own mark.
    const stripped = await hook({TMUX: inB.env.TMUX});
    expect(stripped.stderr, shown(stripped)).toBe('');
    const marks = readdirSync(join(w.home, 'marks')).filter((f) => f.endsWith('.json'));
    expect(marks).toHaveLength(1);
    const mark = JSON.parse(readFileSync(join(w.home, 'marks', marks[0] ?? ''), 'utf8'));
    expect(mark).toMatchObject({source: 'codex-notify', pane: w.b});
    // Both gone: the server cannot be named; not dropped unseen — each call counted.
    for (let i = 0; i < 3; i++) {
      const gone = await hook({});
      expect(gone.exitCode, shown(gone)).toBe(0);
      expect(gone.stderr.trim()).toBe(
        'nudge hook: no mark recorded: it runs in a pane, but $TMUX is unset, so nudge cannot tell which tmux server',
      );
    }
    const doctor = await runNudge(['doctor', '--json'], w.env);
    const hooks = (
      JSON.parse(doctor.stdout) as {
        checks: Array<{name: string; status: string; detail: string; fix?: string}>;
      }
    ).checks.filter((c) => c.name === 'hooks');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(
        /^codex-notify: last call \S+; in the last day 4 calls: 1 proved their pane, 3 refused and recorded no mark \(the newest: it runs in a pane, but \$TMUX is unset/,
      ),
      fix: expect.stringMatching(/^Start the agent from a tmux pane with \$TMUX kept/),
    });
  });
});
