/**
 * Delivery proven at the model: the real agent CLIs in a private tmux server, talking to a
 * scripted model server on 127.0.0.1. What each test
 * asserts is what the model *received* — the prompts, in order, each once — and the screen
 * only for what the model cannot see. Every scenario runs in each agent's default approval
 * mode (the `nudge` command allowed as `nudge install` allows it); the two where what the
 * approval decides is all there is to it — the model's own `nudge submit` runs, in its pane or
 * another's — also in its "approve everything" mode (Claude Code with Bash allowed, Gemini
 * `--yolo`, Codex `approval_policy = "never"`; opencode `permission = "allow"`, Qwen Code
 * `--yolo`) and Claude Code's manual mode, as the matrix does for the newest releases. They
 * wait for the agent's prompt before the notice too, so each mode's screen is read there. Wake-up latencies are printed at the end of the file (the closing note's
 * table); `npm run bench` measures them against a baseline.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {afterAll, describe, expect, onTestFinished, test} from 'vitest';
import {jobEvent, readJobEvents, waitForJobEnd} from './job-files.js';
import {
  describePrompts,
  type ModelServer,
  type ReceivedPrompt,
  type Reply,
  startModelServer,
} from './model-server.js';
import {stopWorkers} from './nudge-home.js';
import {
  type AgentName,
  agentAvailable,
  agentVersion,
  claudeHasAutoMode,
  claudeHasInbox,
  DATA_AGENT_NAMES,
  type RealAgent,
  startAgent,
} from './real-agents.js';
import {nudgeBinDir, runNudge} from './run-nudge.js';
import {useTempDir} from './temp-dir.js';
import {startTmuxServer, type TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

export const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
/** An agent's approval mode: its default (`nudge` allowed as `nudge install` allows it; for
 * Claude Code 2.1.283 and newer that is auto mode), "approve everything", and for a Claude
 * Code with auto mode its manual mode too (the mode that asks, `defaultMode: "default"`). */
export type Mode = 'default' | 'all' | 'manual';

export interface World {
  model: ModelServer;
  server: TmuxTestServer;
  agent: RealAgent;
  /** NUDGE_HOME of this test (the agent's shell calls use it too). */
  home: string;
  /** Run the built CLI as the test (a person or script outside the agent). */
  nudge(args: string[]): ReturnType<typeof runNudge>;
}

/** A model server, a tmux server and the agent talking to the one in a pane of the other;
 * with `hooks`, its turn-end hook configured as a user would (Claude Code's Stop hook, Codex's
 * `notify`), calling `nudge hook …`. */
export async function setup(
  name: AgentName,
  mode: Mode,
  o: {
    hooks?: boolean;
    wait?: boolean;
    args?: string[];
    env?: Record<string, string>;
    unset?: string[];
    path?: string[];
  } = {},
): Promise<World> {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const home = useTempDir('nudge-home-');
  // Its workers are done (or stopped) before the folder is removed.
  onTestFinished(() => stopWorkers(home));
  const bin = nudgeBinDir(server.dir);
  // The agents of data alone get their hook as a user does: from `nudge install`.
  const installed = o.hooks && DATA_AGENT_NAMES.includes(name);
  const agent = await startAgent(
    server,
    name,
    {
      modelUrl: model.url,
      approvals: mode === 'manual' ? 'default' : mode,
      ...(mode === 'manual' ? {permissionMode: 'default' as const} : {}),
      path: [...(o.path ?? []), bin],
      env: {NUDGE_HOME: home, ...o.env},
      ...(o.args ? {args: o.args} : {}),
      ...(o.unset ? {unset: o.unset} : {}),
      ...(o.hooks && !installed ? {hookCommand: [join(bin, 'nudge')]} : {}),
      ...(o.wait === false ? {wait: false} : {}),
    },
    installed
      ? async (where) => {
          // --allow, as a person who lets the model run nudge; opencode's test home sets its
          // permission as one word ("allow" or "ask"), which nudge leaves alone.
          const args = name === 'opencode' ? ['install', name] : ['install', name, '--allow'];
          const r = await runNudge(args, {HOME: where.home, NUDGE_HOME: home});
          expect(r.exitCode, r.stderr + r.stdout).toBe(0);
        }
      : undefined,
  );
  return {
    model,
    server,
    agent,
    home,
    nudge: (args) => runNudge(args, {NUDGE_HOME: home}, 180_000),
  };
}

/** The options of agents that run nudge themselves at `model`, in approve-everything mode:
 * `nudge` on their PATH (`bin`), and the test's state dir. */
export function allowedAgent(model: ModelServer, bin: string, home: string) {
  return {modelUrl: model.url, approvals: 'all' as const, path: [bin], env: {NUDGE_HOME: home}};
}

/** `nudge submit` into the agent's pane from outside it (a person, a script), with `flags`. */
export function submitInto(w: World, flags: readonly string[], text: string) {
  return w.nudge(['submit', '-S', w.server.socket, '--pane', w.agent.pane, ...flags, '--', text]);
}

/** Type a prompt into the agent as a person would, and wait until the model has it. */
export async function say(w: World, text: string): Promise<void> {
  await sayInto(w.server, w.model, w.agent.pane, text);
}

/** Type `text` into an agent's `pane` as a person does, and wait until the model has it. */
export async function sayInto(
  server: TmuxTestServer,
  model: ModelServer,
  pane: string,
  text: string,
): Promise<void> {
  await server.tmux('send-keys', '-t', pane, '-l', text);
  // A person presses Enter once the words show (CI 2026-12-06: copilot on a loaded machine
  // had not drawn them 400 ms later, and its first prompt never reached the model), and
  // pauses before it (the CLIs take a fast Enter as a newline). (Its last word: a CLI wraps a
  // long line inside its own box.)
  const last = text.trim().split(/\s+/).at(-1) ?? text;
  await server.waitForScreen(pane, new RegExp(escapeRegex(last)), 60_000);
  await new Promise((r) => setTimeout(r, 400));
  await server.tmux('send-keys', '-t', pane, 'Enter');
  try {
    await model.waitForPrompt(new RegExp(`^${escapeRegex(text)}$`), {timeoutMs: 90_000});
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\nthe agent's screen:\n${await server.capture(pane)}`,
    );
  }
}

/** The only job in the test's state dir (the one the model's shell call queued); on timeout
 * the agent's screen says why (the tool call failed, was refused, waits for approval). */
export async function theJob(w: World, timeoutMs = 60_000): Promise<string> {
  const {home} = w;
  return waitFor(
    'the job the model queued',
    async () => {
      const ids = (() => {
        try {
          return readdirSync(join(home, 'jobs'));
        } catch {
          return [];
        }
      })();
      return ids.length === 1 ? ids[0] : undefined;
    },
    {timeoutMs, describe: () => w.agent.capture()},
  );
}

/** Resolves once the only job in the test's state dir has recorded one of `events`: what a
 * held or streamed turn waits for, so the job reaches that step while the turn is open however
 * slow the machine is, and the turn ends soon after. */
export function jobReached(w: World, events: readonly string[]): Promise<unknown> {
  const ended = new AbortController();
  onTestFinished(() => ended.abort());
  return waitFor(
    `the job to record ${events.join(' or ')}`,
    async () => {
      const ids = (() => {
        try {
          return readdirSync(join(w.home, 'jobs'));
        } catch {
          return [];
        }
      })();
      if (ids.length !== 1) return undefined;
      const recorded = await readJobEvents(w.home, ids[0] ?? '');
      return recorded.find((e) => events.includes(String(e.event)));
    },
    {timeoutMs: 240_000, intervalMs: 200, signal: ended.signal},
  );
}

/** Resolves once the only job has typed its notice (its `notified` event). */
function noticeTyped(w: World): Promise<unknown> {
  return jobReached(w, ['notified']);
}

/** How many prompts the model received that are exactly `text`. */
export function received(model: ModelServer, text: string): number {
  return model.prompts().filter((p) => p.text === text).length;
}

/** The door a notice to `name`'s pane goes through (a job submitted from the agent's own
 * tool, so its worker finds the session): Claude Code's inbox where it has one, else typed. */
function viaOf(name: AgentName): 'claude-inbox' | 'keys' {
  return name === 'claude' && claudeHasInbox(agentVersion('claude')) ? 'claude-inbox' : 'keys';
}

/** The notice reached the model as it should for the door it went through: through the inbox
 * as nudge's first line and then the notice byte for byte; typed, as the prompt itself. And
 * the job says so. */
function expectThrough(
  name: AgentName,
  got: ReceivedPrompt,
  end: Record<string, unknown>,
  id: string,
): void {
  const via = viaOf(name);
  expect(end.noticeVia, JSON.stringify(end)).toBe(via);
  expect(got.via).toBe(via === 'keys' ? 'typed' : 'inbox');
  if (via === 'claude-inbox')
    expect(got.preface).toBe(
      `From nudge (from ${String(end.pane)}; not another Claude session): job ${id}, which this session started, has ended.`,
    );
  // Where the agent has a door that was not used, the job says why.
  if (via === 'keys' && name === 'claude')
    expect(String(end.noticeDoors), JSON.stringify(end)).toMatch(/^claude-inbox: /);
}

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A single-quoted word for the POSIX shell the agent's tool runs. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Wait until the job ended, then check it ended `done` with the notice delivered. */
export async function expectDone(
  w: World,
  id: string,
  state: 'done' | 'failed' = 'done',
): Promise<Record<string, unknown>> {
  const end = await waitForJobEnd(w.home, id, 120_000);
  const events = await readJobEvents(w.home, id);
  // The reason first: a failure summary cut short still says why.
  const why = `${String(end.state)}: ${String(end.reason ?? '')}`;
  // The pane and the prompts that arrived, for a failure seen only in a CI log.
  const seen =
    end.state === state
      ? ''
      : `\n${await w.agent.capture()}\n${describePrompts(w.model.prompts())}`;
  expect(end.state, `${why}\n${JSON.stringify(events)}\n${JSON.stringify(end)}${seen}`).toBe(state);
  return end;
}

/**
 * How the model names its own pane: `"$TMUX_PANE"`, or in the default approval mode the
 * literal `self` (Codex's command rules match plain commands only, and a variable expansion
 * makes the call an unmatched one, which its sandbox then blocks).
 */
function caller(mode: Mode): string {
  return mode === 'all' ? '"$TMUX_PANE"' : 'self';
}

/** A prompt of one line, over 4,000 characters with non-ASCII among them: longer than each
 * agent profile's pasteOver, so it goes as one paste. */
const LONG_LINE = `write a haiku about tmux, after reading these notes: ${Array.from({length: 260}, (_, i) => `note${i} ünïcode ✓`).join(' ')} — the end`;

/** A long answer for the model to stream. */
const LONG_ANSWER = `Here is the plan, step by step. ${Array.from({length: 80}, (_, i) => `step${i}`).join(' ')}`;

/** Queue `text` for the agent's pane from outside (a person or a script) with `--until
 * prompt` and no notice; the job's id. */
async function submitUntilPrompt(
  w: World,
  text: string,
  extra: string[],
  until = 'prompt',
  env: Record<string, string> = {},
): Promise<string> {
  const r = await runNudge(
    [
      'submit',
      '-S',
      w.server.socket,
      '--pane',
      w.agent.pane,
      '--delay',
      '0',
      ...extra,
      '--until',
      until,
      '--no-notice',
      '--',
      text,
    ],
    {NUDGE_HOME: w.home, ...env},
    180_000,
  );
  expect(r.exitCode, r.stderr).toBe(0);
  // A long text goes to an agent as one paste: no word that it takes minutes to type.
  expect(r.stderr).not.toMatch(/characters to type/);
  return r.stdout.trim().split(/\s+/)[0] ?? '';
}

/**
 * Submit `text` to the agent from outside (a person or a script) with `--until prompt`, the
 * model holding the turn for 5 s; check the model got it once and the job ended `done`. The
 * latency (turn end at the model → the job's condition-met) is never negative; how small it
 * is, is a benchmark figure (npm run bench), bounded here only against a hang.
 */
async function untilPromptTurn(
  w: World,
  text: string,
  extra: string[],
  reply: Reply = {holdMs: 5_000, reply: {text: 'Here it is.'}},
  until = 'prompt',
  env: Record<string, string> = {},
) {
  w.model.script(reply);
  const id = await submitUntilPrompt(w, text, extra, until, env);
  const end = await expectDone(w, id);
  const events = await readJobEvents(w.home, id);
  expect(
    received(w.model, text),
    `${describePrompts(w.model.prompts())}\n${JSON.stringify(end)}\n${JSON.stringify(events)}\n${await w.agent.capture()}`,
  ).toBe(1);
  const met = Date.parse(String(events.find((e) => e.event === 'condition-met')?.t));
  // The turn that answered this text (a CLI may make more requests after it: Qwen Code
  // asks whether it should go on; those are not this turn).
  const turn = w.model.journal().find((e) => e.reply === reply);
  const latency = met - (turn?.turnEndedAt ?? w.model.lastTurnEndedAt() ?? 0);
  const after = w.model
    .journal()
    .filter((e) => e.at >= (turn?.at ?? 0))
    .map(
      (e) => `${e.side ? 'side' : 'turn'} ${e.path} at ${e.at} ended ${e.turnEndedAt ?? e.endedAt}`,
    );
  const why = `condition-met at ${met}; requests from this turn on:\n${after.join('\n')}`;
  expect(latency, why).toBeGreaterThanOrEqual(0);
  expect(latency, why).toBeLessThan(10_000);
  return {id, end, events, latency};
}

/**
 * The at-model scenarios for `names` (each installed one), in each of its approval modes: a
 * test file calls this for a group of agents (test/integration/agents-at-model.test.ts,
 * data-agents-at-model.test.ts), so the groups run side by side. Wake-up figures are printed
 * at the end of the file.
 */
export function atModelScenarios(names: readonly AgentName[]): void {
  /** Figures for the closing note: scenario × agent × mode → what was seen. */
  const results: string[] = [];
  afterAll(() => {
    if (results.length) process.stdout.write(`\nagents at the model:\n${results.join('\n')}\n`);
  });
  const agents = names.filter((n) => agentAvailable(n));
  // Pi asks no approvals: its default is "everything approved", run once.
  const modesOf = (name: AgentName): Mode[] =>
    name === 'claude' && claudeHasAutoMode(agentVersion('claude'))
      ? ['default', 'all', 'manual']
      : name === 'pi'
        ? ['default']
        : ['default', 'all'];
  const cases = agents.flatMap((name) => modesOf(name).map((mode) => [name, mode] as const));
  /** Whether a mid-turn notice must be recorded `queued` (the agent shows its queued marker). */
  const queuesMidTurn = (name: AgentName) =>
    name === 'codex' || (name === 'claude' && claudeHasAutoMode(agentVersion('claude')));

  describe.each(cases)('%s (%s approvals)', (name, mode) => {
    test("self-execution: the model runs `nudge submit -- '!cmd'`; the command runs once; the notice reaches the model once, as a prompt", async () => {
      const w = await setup(name, mode);
      const marker = join(w.agent.workdir, 'ran.log');
      w.model.script(
        {shell: `nudge submit -- ${sq(`!echo ran >> ${marker}; sleep 2; echo build-output-42`)}`},
        {text: 'Started it; I will wait for the notice.'},
      );
      await say(w, 'run the build in the background');
      const id = await theJob(w);
      // The tool returned at once: its result reached the model while the worker still ran (a
      // tool held by the worker's stdio would return only once the worker exits). Not "before
      // the worker typed": under load an agent may take longer than --delay to send it.
      const toolReturned = await waitFor(
        'the tool result at the model',
        async () => w.model.journal().filter((e) => !e.side && e.format !== 'unknown')[1]?.at,
        {timeoutMs: 60_000},
      );
      const end = await expectDone(w, id);
      const events = await readJobEvents(w.home, id);
      // (The record's finishedAt: the end's event is appended just after the record is written.)
      expect(toolReturned).toBeLessThan(Date.parse(String(end.finishedAt)));
      // The command ran exactly once.
      const ran = existsSync(marker) ? readFileSync(marker, 'utf8') : '(never ran)';
      const seen = `${JSON.stringify(events)}\n${JSON.stringify(end)}\n${await w.agent.capture()}\n${describePrompts(w.model.prompts())}`;
      expect(ran, seen).toBe('ran\n');
      // The notice reached the model exactly once, as a prompt.
      const notice = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
        timeoutMs: 60_000,
      });
      expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
      expect(notice.queued).toBe(false);
      expectThrough(name, notice, end, id);
      // Qwen Code asks the model for a follow-up suggestion as a turn ends, and queues what is
      // sent meanwhile (`⏳ 1 queued`) until that answer is in: then it goes as a prompt.
      expect(String(end.noticeDelivery)).toMatch(
        name === 'qwen' ? /^(submitted|queued)/ : /^submitted/,
      );
      const finished = events.find((e) => e.event === 'condition-met');
      results.push(
        `self !cmd      | ${name} ${mode} | pass | condition-met → notice at model ${notice.at - Date.parse(String(finished?.t))} ms | ${end.state}, notice ${end.noticeDelivery}`,
      );
    }, 300_000);

    test('a build in another pane: the model receives its exit status', async () => {
      const w = await setup(name, mode);
      const build = await w.server.newPane(['bash', '--norc', '--noprofile']);
      const notice = 'Build finished: exit {exit}. Resume.';
      w.model.script(
        {
          shell: `nudge submit --pane ${build} --notify-pane ${caller(mode)} --until exit --notice ${sq(notice)} -- "sh -c 'sleep 1; exit 3'"`,
        },
        {text: 'The build is running.'},
      );
      await say(w, 'build it in the other pane');
      const id = await theJob(w);
      // The build failed (exit 3): the job ends failed (issue 41), its notice sent all the same.
      const end = await expectDone(w, id, 'failed');
      // Its reason says why, if the notice did not reach the agent.
      expect(end, String(end.reason)).toMatchObject({exitCode: 3, notified: true});
      const got = await w.model.waitForPrompt(/^Build finished: exit 3\. Resume\.$/, {
        timeoutMs: 60_000,
      });
      expect(received(w.model, got.text), describePrompts(w.model.prompts())).toBe(1);
      expectThrough(name, got, end, id);
      const met = await jobEvent(w.home, id, 'condition-met');
      results.push(
        `build in %B    | ${name} ${mode} | pass | exit → notice at model ${got.at - Date.parse(String(met?.t))} ms | ${end.state}, notice ${end.noticeDelivery}`,
      );
    }, 300_000);

    // The rest in the default mode only: the approval mode changes nothing more of them.
    test.skipIf(mode !== 'default')(
      'the notice comes due while the agent is busy: it arrives once, and the turn is not cancelled',
      async () => {
        const w = await setup(name, mode);
        const build = await w.server.newPane(['bash', '--norc', '--noprofile']);
        w.model.script(
          {
            shell: `nudge submit --delay 0 --pane ${build} --notify-pane ${caller(mode)} --until exit -- ${sq('sleep 1')}`,
          },
          // The turn goes on (the model "thinks") past the build's end: until the notice has been
          // typed and 2 s more (at most a minute).
          {holdMs: 60_000, until: noticeTyped(w), reply: {text: 'Here is my long answer.'}},
        );
        await say(w, 'build it, and meanwhile explain the plan');
        const id = await theJob(w);
        const end = await expectDone(w, id);
        const held = w.model.journal().find((e) => e.reply && 'holdMs' in e.reply);
        // The notice was typed while the turn was still held open.
        const notifiedAt = Date.parse(String((await jobEvent(w.home, id, 'notified'))?.t));
        expect(held?.endedAt === undefined || notifiedAt < held.endedAt).toBe(true);
        const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
          timeoutMs: 90_000,
        });
        // Let the agent send anything else it might (a second copy must not come).
        await w.agent.waitForIdle(90_000);
        expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
        expectThrough(name, got, end, id);
        expect(w.model.cutShort(), 'a turn was cancelled').toEqual([]);
        expect(held?.endedAt, 'the held turn ended normally').toBeDefined();
        expect(String(end.noticeDelivery)).toMatch(
          queuesMidTurn(name) ? /^queued/ : /^(submitted|queued)/,
        );
        results.push(
          `mid-turn       | ${name} ${mode} | pass | turn end → notice at model ${got.at - (held?.endedAt ?? 0)} ms | ${end.state}, notice ${end.noticeDelivery}`,
        );
      },
      300_000,
    );

    test.skipIf(mode !== 'default')(
      "a person's unsent draft survives; the notice arrives after it is sent (typed) or beside it (through a door)",
      async () => {
        const w = await setup(name, mode);
        const build = await w.server.newPane(['bash', '--norc', '--noprofile']);
        // The build ends when the test says (the draft is in the input line by then), not after
        // a time a loaded machine may outlast (CI 2026-12-02: opencode's draft landed while the
        // notice was being typed).
        const buildMayEnd = join(w.server.dir, 'build-may-end');
        w.model.script(
          {
            shell: `nudge submit --delay 0 --pane ${build} --notify-pane ${caller(mode)} --until exit -- ${sq(`until [ -e ${buildMayEnd} ]; do sleep 0.2; done`)}`,
          },
          {text: 'Building.'},
        );
        await say(w, 'build it please');
        const id = await theJob(w);
        await w.agent.waitForIdle(60_000);
        // A person starts typing a message and has not sent it when the build ends.
        const draft = 'my half written thought about the parser';
        await w.server.tmux('send-keys', '-t', w.agent.pane, '-l', draft);
        await w.server.waitForScreen(w.agent.pane, new RegExp(escapeRegex(draft)), 30_000);
        writeFileSync(buildMayEnd, '');
        if (viaOf(name) !== 'keys') {
          // Through a door the notice needs no input line: it reaches the model while the
          // draft stays where the person left it, untouched and unsent.
          const end = await expectDone(w, id);
          const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
            timeoutMs: 90_000,
          });
          expectThrough(name, got, end, id);
          // The turn the notice started ends; the draft is still in the input line.
          await waitFor(
            'the turn to end with the draft still in the input line',
            async () => {
              const screen = await w.agent.capture();
              return new RegExp(`❯\\s${escapeRegex(draft)}\\s*$`, 'm').test(screen) &&
                !/esc to interrupt/.test(screen)
                ? screen
                : undefined;
            },
            {timeoutMs: 90_000, describe: () => w.agent.capture()},
          );
          expect(received(w.model, draft), 'the draft was sent by someone').toBe(0);
          await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
          const sent = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(draft)}$`), {
            timeoutMs: 60_000,
          });
          expect(sent.at).toBeGreaterThan(got.at);
          expect(received(w.model, draft), describePrompts(w.model.prompts())).toBe(1);
          expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
          results.push(
            `draft          | ${name} ${mode} | pass | notice through ${end.noticeVia}, draft kept | ${end.state}, notice ${end.noticeDelivery}`,
          );
          return;
        }
        await waitFor(
          'the job to wait for the draft',
          async () => (await jobEvent(w.home, id, 'waiting-for-draft')) ?? undefined,
          {
            timeoutMs: 60_000,
            describe: async () => JSON.stringify(await readJobEvents(w.home, id)),
          },
        );
        expect(await w.agent.capture()).toContain(draft);
        // The person sends it.
        await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
        const sent = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(draft)}$`), {
          timeoutMs: 60_000,
        });
        const end = await expectDone(w, id);
        const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
          timeoutMs: 90_000,
        });
        expect(got.at).toBeGreaterThanOrEqual(sent.at);
        expect(received(w.model, draft), describePrompts(w.model.prompts())).toBe(1);
        expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
        results.push(
          `draft          | ${name} ${mode} | pass | draft sent → notice at model ${got.at - sent.at} ms | ${end.state}, notice ${end.noticeDelivery}`,
        );
      },
      300_000,
    );

    test.skipIf(mode !== 'default')(
      '--until prompt on a real turn, its text a 4 KB line: pasted, at the model byte for byte; condition-met soon after the turn ends (screen)',
      async () => {
        const w = await setup(name, mode);
        const {end, events, latency} = await untilPromptTurn(w, LONG_LINE, ['--interval', '500ms']);
        // Longer than the profile's pasteOver: one paste, not 3000 keys (a minute's typing).
        expect(events.filter((e) => e.event === 'pasted').length, JSON.stringify(events)).toBe(1);
        expect(events.some((e) => e.event === 'typed-char' || e.event === 'retyping')).toBe(false);
        results.push(
          `until prompt   | ${name} ${mode} | pass | 4 KB line pasted; turn end → condition-met ${latency} ms (screen) | ${end.state}, ${end.delivery}`,
        );
      },
      300_000,
    );

    // Gemini CLI's AfterAgent hook is not wired for --until.
    test.skipIf(name === 'gemini' || mode !== 'default')(
      '--until prompt with the turn-end hook configured: the hook marks the turn, the job ends on it or on the screen',
      async () => {
        const w = await setup(name, mode, {hooks: true});
        const {end, events, latency} = await untilPromptTurn(w, 'write a haiku about hooks', []);
        const typed = Date.parse(String(events.find((e) => e.event === 'typed')?.t));
        // The agent's hook ran for this turn: its mark for the pane is newer than the Enter.
        // (It may come after the screen already showed the prompt: then the screen decided.)
        const fired: {atMs: number; source: string} | undefined = await waitFor(
          `${name}'s turn-end hook to mark the pane`,
          async () => {
            const dir = join(w.home, 'marks');
            if (!existsSync(dir)) return undefined;
            const marks = readdirSync(dir, {withFileTypes: true})
              .filter((f) => f.name.endsWith('.json') && !f.name.endsWith('.needs.json'))
              .map(
                (f) =>
                  JSON.parse(readFileSync(join(dir, f.name), 'utf8')) as {
                    atMs: number;
                    source: string;
                  },
              );
            return marks.find((m) => m.atMs >= typed);
          },
          {timeoutMs: 30_000},
        ).catch(() => undefined);
        expect(
          fired,
          `no hook mark after ${typed}; events ${JSON.stringify(events)}`,
        ).toBeDefined();
        const mark = events.find((e) => e.event === 'hook-mark');
        const met = events.find((e) => e.event === 'condition-met');
        if (mark)
          expect(Date.parse(String(met?.t))).toBeGreaterThanOrEqual(Date.parse(String(mark.t)));
        results.push(
          `until + hook   | ${name} ${mode} | pass | turn end → condition-met ${latency} ms (${mark ? `hook ${String(mark.source)}` : `screen; hook ${fired?.source} ${(fired?.atMs ?? 0) - Date.parse(String(met?.t))} ms later`}) | ${end.state}, ${end.delivery}`,
        );
      },
      300_000,
    );
    // The phases a real model has that a held reply does not: text streaming in, and an agent
    // still starting. Run in the default mode only (approvals do not change them).
    test.skipIf(mode !== 'default')(
      'a notice due while the answer streams: queued, it arrives after the turn, the answer whole',
      async () => {
        const w = await setup(name, mode);
        const build = await w.server.newPane(['bash', '--norc', '--noprofile']);
        w.model.script(
          {
            shell: `nudge submit --delay 0 --pane ${build} --notify-pane ${caller(mode)} --until exit -- ${sq('sleep 4')}`,
          },
          // Streamed over at most 60 s; the rest follows once the notice has been typed.
          {holdMs: 500, reply: {text: LONG_ANSWER, streamMs: 60_000, until: noticeTyped(w)}},
        );
        await say(w, 'build it, and meanwhile stream the plan');
        const id = await theJob(w);
        const end = await expectDone(w, id);
        const streamed = w.model.journal().find((e) => e.reply && 'holdMs' in e.reply);
        const events = await readJobEvents(w.home, id);
        const typedAt = Date.parse(String(events.find((e) => e.event === 'notifying')?.t));
        // The notice was typed while the answer streamed.
        expect(streamed?.streamStartedAt, 'the answer started streaming').toBeDefined();
        expect(typedAt).toBeGreaterThan(streamed?.streamStartedAt ?? Number.POSITIVE_INFINITY);
        const got = await w.model.waitForPrompt(new RegExp(`^${escapeRegex(NOTICE)}$`), {
          timeoutMs: 90_000,
        });
        await w.agent.waitForIdle(90_000);
        // The answer was not cut: the stream ended normally, before the notice reached the model.
        expect(w.model.cutShort(), 'a turn was cancelled').toEqual([]);
        expect(streamed?.endedAt, 'the streamed answer ended').toBeDefined();
        expect(got.at).toBeGreaterThanOrEqual(streamed?.endedAt ?? 0);
        expect(typedAt).toBeLessThan(streamed?.endedAt ?? 0);
        expect(received(w.model, NOTICE), describePrompts(w.model.prompts())).toBe(1);
        expectThrough(name, got, end, id);
        expect(String(end.noticeDelivery)).toMatch(
          queuesMidTurn(name) ? /^queued/ : /^(submitted|queued)/,
        );
        results.push(
          `mid-stream     | ${name} ${mode} | pass | stream end → notice at model ${got.at - (streamed?.endedAt ?? 0)} ms | ${end.state}, notice ${end.noticeDelivery}`,
        );
      },
      300_000,
    );

    // Finding a profile by its name, or a user's file by its own, is the same code for every
    // agent (the screens it reads are the other scenarios'): the group's first agent only.
    test.skipIf(mode !== 'default' || name !== agents[0])(
      "--until prompt:NAME: the agent's own profile, and a user's profile file by its name, read the turn's end",
      async () => {
        const w = await setup(name, mode);
        // By the agent's name (the registry's, not the regex NAME), then by the name of a
        // person's own profile file (a copy of the agent's data file under another name).
        const own = await untilPromptTurn(w, 'a haiku by name', [], undefined, `prompt:${name}`);
        // The job waited on that condition (its events name it), not on a regex.
        expect(JSON.stringify(own.events)).toContain(`"until":"prompt:${name}"`);
        const config = useTempDir('nudge-config-');
        const mine = `mine-${name}`;
        mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
        const data = readFileSync(
          new URL(`../../data/agents/${name}.toml`, import.meta.url),
          'utf8',
        );
        writeFileSync(
          join(config, 'nudge', 'agents', `${mine}.toml`),
          data.replace(/^name = .*$/m, `name = '${mine}'`),
        );
        const users = await untilPromptTurn(
          w,
          "a haiku by a person's profile",
          [],
          undefined,
          `prompt:${mine}`,
          {XDG_CONFIG_HOME: config},
        );
        expect(JSON.stringify(users.events)).toContain(`"until":"prompt:${mine}"`);
        results.push(
          `until by name  | ${name} ${mode} | pass | prompt:${name} ${own.latency} ms, prompt:${mine} ${users.latency} ms | ${users.end.state}`,
        );
      },
      300_000,
    );

    test.skipIf(mode !== 'default')(
      '--until prompt while the answer streams: condition-met only after the turn ends',
      async () => {
        const w = await setup(name, mode);
        const {end, latency} = await untilPromptTurn(
          w,
          'stream me a long plan',
          ['--interval', '500ms'],
          {holdMs: 1_000, reply: {text: LONG_ANSWER, streamMs: 12_000}},
        );
        results.push(
          `until streamed | ${name} ${mode} | pass | turn end → condition-met ${latency} ms | ${end.state}, ${end.delivery}`,
        );
      },
      300_000,
    );

    test.skipIf(mode !== 'default')(
      'a prompt submitted while the agent is still starting: it reaches the model once, on evidence',
      async () => {
        const w = await setup(name, mode, {wait: false});
        const text = 'hello from a job that did not wait';
        // The front end cannot tell yet which program it is (it may run as `node`).
        const id = await submitUntilPrompt(w, text, ['--profile', name]);
        const end = await expectDone(w, id);
        await w.model.waitForPrompt(new RegExp(`^${escapeRegex(text)}$`), {timeoutMs: 60_000});
        await w.agent.waitForIdle(90_000);
        expect(received(w.model, text), describePrompts(w.model.prompts())).toBe(1);
        // Submitted on evidence: its echo in the transcript (or the queued marker).
        expect(String(end.delivery)).toMatch(/^(submitted|queued)/);
        results.push(`while starting | ${name} ${mode} | pass | ${end.state}, ${end.delivery}`);
      },
      300_000,
    );
  });
}
