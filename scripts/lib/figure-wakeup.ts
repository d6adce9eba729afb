import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  AGENT_NAMES,
  AGENT_SCREENS,
  type AgentName,
  agentAvailable,
  agentWindowArgs,
  createAgentHome,
  killProcessesOfHome,
} from '../../test/harness/agents.js';
import {type ModelServer, startModelServer} from '../../test/harness/model-server.js';
import {CLI, onCleanup, sleep} from '../../test/harness/private-tmux.js';
import type {BaselineJob} from '../baseline-job.js';
import {
  type BenchContext,
  type Figure,
  type FigureResult,
  interleave,
  median,
  runBaseline,
  submitJob,
  waitForJobEnd,
} from './bench-kit.js';

const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
/** The stability window of the defaults: 3 stable checks 1 s apart = 3 s (as the seed
 * counts). */
const WINDOW_MS = 3_000;
/** The goals. */
const SCREEN_GOAL_MS = WINDOW_MS + 1_000;
const HOOK_GOAL_MS = 1_000;
/** How long the scripted model "thinks" in a turn nudge waits for. */
const TURN_MS = 2_000;

/**
 * Wake-up latency, measured at a scripted model server: from the end of the work to the
 * notice's request arriving at the model the agent talks to.
 *
 * - screen: a command in another pane (its end: the moment it wrote its last line), nudge
 *   with default options detecting the end on screen and typing the notice into the agent;
 * - hook: a real turn of the agent (its end: the model's `end_turn`), `--until prompt` with
 *   the agent's turn-end hook configured (Claude Code Stop, Codex notify).
 *
 * Baseline in the same run: the seed's algorithm (scripts/baseline-job.ts: 1 s polls, 3
 * stable captures, Escape + C-u, one send-keys process per character at 20 ms). Runs for each
 * installed agent with a hook (Claude Code, Codex); skipped when none is installed
 * (scripts/install-agents.sh).
 */
export const wakeup: Figure = {
  id: 'wakeup',
  title: 'wake-up latency at the model: end of work → notice request',
  async run(ctx) {
    const agents = AGENT_NAMES.filter((n) => n !== 'gemini' && agentAvailable(n));
    if (agents.length === 0) {
      ctx.log('wakeup: no agent CLI installed (bash scripts/install-agents.sh); skipped');
      return [];
    }
    const results: FigureResult[] = [];
    for (const name of agents) results.push(...(await measure(ctx, name)));
    return results;
  },
};

async function measure(ctx: BenchContext, name: AgentName): Promise<FigureResult[]> {
  const runs = ctx.runs(3);
  const model = await startModelServer();
  onCleanup(`model server (${name})`, () => void model.stop());
  const bin = join(ctx.dir, 'bin');
  mkdirSync(bin, {recursive: true});
  const nudge = join(bin, 'nudge');
  writeFileSync(nudge, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, {mode: 0o755});
  const where = createAgentHome(name, {
    modelUrl: model.url,
    approvals: 'all',
    hookCommand: [nudge],
  });
  onCleanup(`${name} processes`, () => {
    void killProcessesOfHome(where.home).then(() =>
      rmSync(where.root, {recursive: true, force: true}),
    );
  });
  const opts = {
    modelUrl: model.url,
    approvals: 'all' as const,
    path: [bin],
    env: {NUDGE_HOME: ctx.stateDir},
  };
  const agent = (await ctx.server.tmux(...agentWindowArgs(name, where, opts))).trim();
  const idle = () => ctx.server.waitForScreen(agent, AGENT_SCREENS[name].emptyComposer, 120_000);
  await idle();
  await sleep(2_000); // the CLIs keep drawing for a moment after the composer appears
  const work = await ctx.server.newPane(['bash', '--norc', '--noprofile']);
  await ctx.server.waitForScreen(work, /\$/);

  const noticeAfter = (since: number) =>
    waitForNotice(model, since).finally(async () => {
      await idle();
      await sleep(500);
    });

  // Screen: a command in another pane ends; when does the agent's model hear of it?
  const command = (i: number, endFile: string) =>
    `sleep 1; echo work-${i}-done; date +%s%3N > ${endFile}`;
  const workEnd = (endFile: string) => Number(readFileSync(endFile, 'utf8').trim());
  const screen = await interleave(
    runs,
    async (i) => {
      const endFile = join(ctx.dir, `end-n-${i}`);
      const since = Date.now();
      const id = await submitJob(ctx, [
        '-S',
        ctx.server.socket,
        '--pane',
        work,
        '--notify-pane',
        agent,
        '--',
        command(i, endFile),
      ]);
      const got = await noticeAfter(since);
      await waitForJobEnd(ctx, id, 60_000);
      return got - workEnd(endFile);
    },
    async (i) => {
      const endFile = join(ctx.dir, `end-b-${i}`);
      const since = Date.now();
      await runBaseline(seedJob(ctx.server.socket, work, command(i, endFile), agent), ctx.env);
      return (await noticeAfter(since)) - workEnd(endFile);
    },
  );

  // Hook: a real turn ends (the model's end_turn); when does the notice reach the model?
  const turnEnd = (since: number) => {
    const turn = model
      .journal()
      .find((e) => e.at >= since && e.reply !== undefined && 'holdMs' in e.reply);
    if (turn?.endedAt === undefined) throw new Error('the held turn never ended');
    return turn.endedAt;
  };
  const hook = await interleave(
    runs,
    async (i) => {
      model.script({holdMs: TURN_MS, reply: {text: 'Done.'}});
      const since = Date.now();
      const id = await submitJob(ctx, [
        '-S',
        ctx.server.socket,
        '--pane',
        agent,
        '--until',
        'prompt',
        '--',
        `task n${i}`,
      ]);
      const got = await noticeAfter(since);
      const end = await waitForJobEnd(ctx, id, 60_000);
      if (end.state !== 'done') throw new Error(`the job ended ${end.state}: ${end.reason}`);
      return got - turnEnd(since);
    },
    async (i) => {
      model.script({holdMs: TURN_MS, reply: {text: 'Done.'}});
      const since = Date.now();
      await runBaseline(seedJob(ctx.server.socket, agent, `task b${i}`), ctx.env);
      return (await noticeAfter(since)) - turnEnd(since);
    },
  );
  await killProcessesOfHome(where.home);
  rmSync(where.root, {recursive: true, force: true, maxRetries: 3});
  await model.stop();

  const row = (
    id: string,
    label: string,
    samples: {subject: number[]; baseline: number[]},
    goalMs: number,
    goalText: string,
  ): FigureResult => ({
    id,
    subject: {label: `nudge (${label})`, unit: 'ms', samples: samples.subject},
    baseline: {label: "seed's algorithm", unit: 'ms', samples: samples.baseline},
    ratio: 'subject/baseline',
    goal: {text: goalText, met: median(samples.subject) <= goalMs},
    notes: [`${name}: notice request at the scripted model server`],
  });
  return [
    row(
      `wakeup-screen-${name}`,
      `${name}, screen`,
      screen,
      SCREEN_GOAL_MS,
      `≤ window + 1 s (${SCREEN_GOAL_MS} ms)`,
    ),
    row(`wakeup-hook-${name}`, `${name}, hook`, hook, HOOK_GOAL_MS, `≤ ${HOOK_GOAL_MS} ms`),
  ];
}

/** The seed's algorithm on `pane` (scripts/baseline-job.ts): 1 s polls, 3 stable captures,
 * Escape + C-u, one send-keys process per character at 20 ms. */
function seedJob(socket: string, pane: string, text: string, notifyPane?: string): BaselineJob {
  return {
    socket,
    pane,
    ...(notifyPane ? {notifyPane} : {}),
    text,
    notice: NOTICE,
    enter: true,
    intervalMs: 1_000,
    stableChecks: 3,
    timeoutMs: 60_000,
    typeDelayMs: 20,
    clearKeys: ['Escape', 'C-u'],
  };
}

/** The arrival time of the next notice prompt at the model after `since`. */
async function waitForNotice(model: ModelServer, since: number): Promise<number> {
  const got = await model.waitForPrompt(/^\[SYSTEM COMMAND\] Command complete\. Resume\.$/, {
    since,
    timeoutMs: 90_000,
  });
  return got.at;
}
