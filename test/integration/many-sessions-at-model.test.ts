/**
 * Many sessions of one agent in one tmux server, one HOME (as one person runs them), each
 * calling nudge from its own tools with `self` and with the hooks `nudge install` wrote: every
 * notice and every turn-end mark lands in the session's own pane, proven at the scripted model
 * server — the notice arrives as a prompt of that session's conversation, byte for byte — or,
 * where nudge cannot prove the pane (Codex's shared app-server), it is refused in one sentence,
 * nothing typed anywhere and no mark recorded for another pane.
 */
import {existsSync, readdirSync, readFileSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {type HookMark, type RefusedMark, readHookMark} from '../../src/agents/hook-marks.js';
import {allowedAgent, escapeRegex, sayInto, setup} from '../helpers/at-model-scenarios.js';
import {expectJobEnd, jobEvent, readJobState} from '../helpers/job-files.js';
import {type ModelServer, startModelServer} from '../helpers/model-server.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {
  type AgentName,
  agentAvailable,
  agentWindowArgs,
  createAgentHome,
  killProcessesOfHome,
  waitForIdleComposer,
} from '../helpers/real-agents.js';
import {flagWords, nudgeBinDir, runNudge, shown} from '../helpers/run-nudge.js';
import {waitFor} from '../helpers/wait-for.js';

/** One person's sessions of `name`: one HOME with `nudge install NAME` in it (its hook, nudge
 * mcp; tool calls approved by the agent's "approve everything" mode), `count`
 * panes running the agent, each with a shell pane beside it for its commands. */
async function sessions(name: AgentName, count: number) {
  const model = await startModelServer();
  const {server, home} = await serverWorld();
  const bin = nudgeBinDir(server.dir);
  const opts = {...allowedAgent(model, bin, home), codexDaemon: name === 'codex'};
  const where = createAgentHome(name, opts);
  onTestFinished(async () => {
    await killProcessesOfHome(where.home);
    rmSync(where.root, {recursive: true, force: true, maxRetries: 3});
  });
  const installed = await runNudge(['install', name], {
    HOME: where.home,
    NUDGE_HOME: home,
  });
  expect(installed.exitCode, shown(installed)).toBe(0);
  const panes: string[] = [];
  const shells: string[] = [];
  for (let i = 0; i < count; i++) {
    // One after the other, as a person opens them (the first Codex starts the shared server).
    const pane = (await server.tmux(...agentWindowArgs(name, where, opts))).trim();
    await waitForIdleComposer(server, pane, name, 120_000);
    panes.push(pane);
    shells.push(await server.newPane(['bash', '--norc', '--noprofile']));
  }
  const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
  return {model, server, home, where, panes, shells, nudge: join(bin, 'nudge'), serverPid};
}

/** The turn requests of the conversation that began with `first`. */
function conversation(model: ModelServer, first: string) {
  return model.journal().filter((e) => !e.side && e.prompts[0] === first);
}

/** The turn-end marks recorded in the state dir, by pane (`.json` files other than needs and
 * refusals). */
function marksIn(home: string): Array<HookMark> {
  const dir = join(home, 'marks');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter(
      (f) => f.endsWith('.json') && !f.endsWith('.needs.json') && !f.endsWith('.refused.json'),
    )
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as HookMark);
}

function refusalsIn(home: string): RefusedMark[] {
  const dir = join(home, 'marks');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.refused.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RefusedMark);
}

/** Agents whose tools and hooks run in their own pane's process tree, and Codex in its default
 * mode, whose sessions share one app-server that runs their calls outside their panes: the
 * thread id `nudge install codex` has each TUI show in its title proves the pane (issue 63). */
const inTree = (
  [
    ['claude', 3],
    ['gemini', 2],
    ['codex', 2],
  ] as const
).filter(([name]) => agentAvailable(name));

describe.each(inTree)('%s: many sessions', (name, count) => {
  test(`${count} sessions at once, each submitting with --notify-pane self: each notice reaches its own conversation once, byte for byte; each turn-end mark is its own pane's`, async () => {
    const w = await sessions(name, count);
    const tasks = w.panes.map((_, i) => `session ${i + 1}: run the build`);
    const notices = w.panes.map((_, i) => `build ${i + 1} finished: exit {exit}. Resume.`);
    w.panes.forEach((_, i) => {
      const command = `sleep 2; echo built-${i + 1}`;
      // nudge by its absolute path: Codex's shell tool runs a login shell, which does not
      // keep a PATH set in the pane.
      w.model.scriptFor(
        new RegExp(`^${escapeRegex(tasks[i] ?? '')}$`),
        {
          shell: `${w.nudge} submit --pane ${w.shells[i]} --notify-pane self --until exit --notice '${notices[i]}' -- '${command}'`,
        },
        {text: `Build ${i + 1} started.`},
        {text: `Build ${i + 1} seen.`},
      );
    });
    // Every session typed to before any notice comes: the jobs run side by side.
    for (const [i, pane] of w.panes.entries())
      await sayInto(w.server, w.model, pane, tasks[i] ?? '');
    for (const [i] of w.panes.entries()) {
      const notice = (notices[i] ?? '').replace('{exit}', '0');
      const got = await w.model
        .waitForPrompt(new RegExp(`^${escapeRegex(notice)}$`), {timeoutMs: 180_000})
        .catch(async (error: Error) => {
          // What the session's tool call answered, and its screen: why no notice came.
          const turns = w.model
            .journal()
            .map(
              (e) =>
                `${e.path} side=${e.side} prompts=${JSON.stringify(e.prompts)} reply=${JSON.stringify(e.reply)?.slice(0, 300)} tail=${JSON.stringify(e.body).match(/functionResponse.{0,800}/)?.[0]}`,
            );
          throw new Error(
            `${error.message}\n${turns.join('\n')}\n${await w.server.capture(w.panes[i] ?? '')}`,
          );
        });
      expect(got.text).toBe(notice);
      // In its own session's conversation, and in no other (typed, or through Claude Code's
      // inbox: either way in the requests of that conversation).
      const carries = (e: {body: unknown}) => JSON.stringify(e.body).includes(notice);
      expect(conversation(w.model, tasks[i] ?? '').some(carries)).toBe(true);
      for (const [j] of w.panes.entries())
        if (j !== i) expect(conversation(w.model, tasks[j] ?? '').some(carries)).toBe(false);
      expect(w.model.prompts().filter((p) => p.text === notice)).toHaveLength(1);
    }
    // Each job typed into its own shell pane and told its own session's pane.
    const jobs = readdirSync(join(w.home, 'jobs'));
    expect(jobs).toHaveLength(count);
    for (const job of jobs) {
      const state = await readJobState(w.home, job);
      const i = w.shells.indexOf(String(state.pane));
      expect(i, JSON.stringify(state)).toBeGreaterThanOrEqual(0);
      // The notice's pane, as the worker took it (`locked`), is the session's own.
      const locked = await jobEvent(w.home, job, 'locked');
      expect(locked?.notifyPane, JSON.stringify(locked)).toBe(w.panes[i]);
    }
    // The turn-end hook (nudge install's) marked each pane for its own session's turn.
    const source = {claude: 'claude-stop', gemini: 'gemini-after-agent', codex: 'codex-notify'}[
      name
    ];
    await waitFor(
      'a turn-end mark for each pane',
      async () => (marksIn(w.home).length === count ? true : undefined),
      {describe: () => JSON.stringify(marksIn(w.home))},
    );
    for (const pane of w.panes) {
      const mark = await readHookMark(w.home, {
        socketPath: w.server.socket,
        serverPid: w.serverPid,
        pane,
      });
      expect(mark, pane).toMatchObject({source, pane});
    }
    expect(refusalsIn(w.home)).toEqual([]);
  }, 420_000);
});

describe.skipIf(!agentAvailable('codex'))('codex: many sessions', () => {
  test("two sessions of one HOME share the app-server: a job waiting on A for its prompt is not ended by B's turn (marked for B, by its thread in B's title), and ends at A's own", async () => {
    const w = await sessions('codex', 2);
    const [a = '', b = ''] = w.panes;
    const key = (pane: string) => ({socketPath: w.server.socket, serverPid: w.serverPid, pane});
    // A job waiting on A for its prompt, its turn held open at the model.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const long = 'from A: the long task';
    w.model.scriptFor(new RegExp(`^${escapeRegex(long)}$`), {
      holdMs: 240_000,
      until: held,
      reply: {text: 'A: the long task is done.'},
    });
    const submitted = await runNudge(
      [
        'submit',
        ...flagWords({
          socketPath: w.server.socket,
          pane: a,
          until: 'prompt',
          notice: false,
          timeout: '4m',
        }),
        '--',
        long,
      ],
      {NUDGE_HOME: w.home},
    );
    expect(submitted.exitCode, shown(submitted)).toBe(0);
    const job = submitted.stdout.trim();
    await w.model.waitForPrompt(new RegExp(`^${escapeRegex(long)}$`), {timeoutMs: 90_000});
    // B's turn ends meanwhile: its notify (run by the shared server with A's $TMUX_PANE) marks
    // B, the pane whose title shows its thread, and never A.
    const quick = 'from B: a quick question';
    w.model.scriptFor(new RegExp(`^${escapeRegex(quick)}$`), {text: 'B: quick answer.'});
    await sayInto(w.server, w.model, b, quick);
    const forB = await waitFor('the mark for B', async () => readHookMark(w.home, key(b)), {
      timeoutMs: 60_000,
    });
    expect(forB).toMatchObject({source: 'codex-notify', pane: b});
    expect(await readHookMark(w.home, key(a))).toBeUndefined();
    expect((await readJobState(w.home, job)).state).toBe('waiting');
    // A's turn ends: marked for A, and the job is done by it.
    release();
    await expectJobEnd(w.home, job, 'done', 120_000);
    const forA = await waitFor('the mark for A', async () => readHookMark(w.home, key(a)));
    expect(forA).toMatchObject({source: 'codex-notify', pane: a});
    expect(refusalsIn(w.home)).toEqual([]);
  }, 420_000);
});

describe.skipIf(!agentAvailable('claude'))('claude started without $TMUX_PANE', () => {
  test('its Stop hook proves its own pane from the process tree and records the mark there (issue 63)', async () => {
    const w = await setup('claude', 'all', {hooks: true, unset: ['TMUX_PANE']});
    const panePid = Number(await w.server.tmux('display', '-p', '-t', w.agent.pane, '#{pane_pid}'));
    // As a launcher that strips it leaves it: no $TMUX_PANE in Claude Code's environment.
    expect(readFileSync(`/proc/${panePid}/environ`, 'latin1')).not.toMatch(/(^|\0)TMUX_PANE=/);
    w.model.script({text: 'Hello.'});
    await sayInto(w.server, w.model, w.agent.pane, 'say hello');
    const serverPid = Number((await w.server.tmux('display-message', '-p', '#{pid}')).trim());
    const where = {socketPath: w.server.socket, serverPid, pane: w.agent.pane};
    const mark = await waitFor('the mark for its pane', async () => readHookMark(w.home, where), {
      timeoutMs: 60_000,
    });
    expect(mark).toMatchObject({source: 'claude-stop', pane: w.agent.pane});
  }, 300_000);
});
