import {type ChildProcess, spawn} from 'node:child_process';
import {existsSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {
  AGENT_SCREENS,
  type AgentName,
  type AgentOptions,
  agentAvailable,
  agentBin,
  agentEnv,
  agentsDir,
  agentVersion,
  agentWindowArgs,
  claudeHasInbox,
  createAgentHome,
  killProcessesOfHome,
} from '../../test/harness/agents.js';
import {startModelServer} from '../../test/harness/model-server.js';
import {CLI, onCleanup, runCli, sleep} from '../../test/harness/private-tmux.js';
import {freePort} from '../../test/harness/ssh-hosts.js';
import {
  type BenchContext,
  eventTime,
  type Figure,
  type FigureResult,
  interleave,
  median,
  submitJob,
  waitForJobEnd,
} from './bench-kit.js';

const NOTICE = /^\[SYSTEM COMMAND\] Command complete\. Resume\.$/;
/** The goal for a notice through a door. */
const DOOR_GOAL_MS = 300;

/** An agent with a door, and how to open it for the bench. */
interface DoorAgent {
  name: AgentName;
  door: string;
  /** Where the agent's release is installed (Claude Code's inbox needs its newest). */
  dir: string;
  args?: (dir: string) => Promise<string[]>;
  /** Runs in the agent's home before it starts. */
  prepare?: (home: string, env: Record<string, string>, dir: string) => Promise<void>;
}

/** The agents whose door can be opened here, each at a release that has it. */
function doorAgents(ctx: BenchContext): DoorAgent[] {
  const out: DoorAgent[] = [];
  const base = agentsDir();
  const newest = join(base, 'newest');
  const withDir = <T>(dir: string, f: () => T): T => {
    const before = process.env.NUDGE_AGENTS_DIR;
    process.env.NUDGE_AGENTS_DIR = dir;
    try {
      return f();
    } finally {
      if (before === undefined) delete process.env.NUDGE_AGENTS_DIR;
      else process.env.NUDGE_AGENTS_DIR = before;
    }
  };
  const claudeDir = [base, newest].find((d) =>
    withDir(d, () => agentAvailable('claude') && claudeHasInbox(agentVersion('claude'))),
  );
  if (claudeDir) out.push({name: 'claude', door: 'claude-inbox', dir: claudeDir});
  if (withDir(base, () => agentAvailable('pi')))
    out.push({
      name: 'pi',
      door: 'pi-extension',
      dir: base,
      prepare: async (home) => {
        const r = await runCli(['install', 'pi'], {...ctx.env, HOME: home});
        if (r.exitCode !== 0) throw new Error(`nudge install pi: ${r.stderr.trim()}`);
      },
    });
  if (withDir(base, () => agentAvailable('opencode')))
    out.push({
      name: 'opencode',
      door: 'opencode-server',
      dir: base,
      args: async () => ['--port', String(await freePort())],
    });
  if (withDir(base, () => agentAvailable('codex'))) {
    const sock = join(ctx.dir, 'codex-app.sock');
    out.push({
      name: 'codex',
      door: 'codex-app-server',
      dir: base,
      args: async () => ['--remote', `unix://${sock}`],
      prepare: async (_home, env) => {
        const app: ChildProcess = spawn(
          agentBin('codex'),
          ['app-server', '--listen', `unix://${sock}`],
          {env, stdio: 'ignore', detached: true},
        );
        onCleanup('codex app-server', () => {
          try {
            process.kill(-(app.pid ?? 0), 'SIGTERM');
          } catch {
            // gone already
          }
        });
        for (let i = 0; i < 600 && !existsSync(sock); i++) await sleep(100);
      },
    });
  }
  return out;
}

/**
 * Wake-up latency through each agent's door, beside typing into the same agent in the same
 * run: from the job's `condition-met` (the work's end, as the job saw it) to the notice's
 * request at the scripted model server. The subject is `--via auto` (the door), the baseline
 * `--via keys` (the notice typed), interleaved.
 */
export const doors: Figure = {
  id: 'doors',
  title: 'wake-up through a door vs typed: condition met → notice at the model',
  async run(ctx) {
    const agents = doorAgents(ctx);
    if (agents.length === 0) {
      ctx.log('doors: no agent with a door installed (bash scripts/install-agents.sh); skipped');
      return [];
    }
    const results: FigureResult[] = [];
    for (const a of agents) {
      const before = process.env.NUDGE_AGENTS_DIR;
      process.env.NUDGE_AGENTS_DIR = a.dir;
      try {
        results.push(await measure(ctx, a));
      } finally {
        if (before === undefined) delete process.env.NUDGE_AGENTS_DIR;
        else process.env.NUDGE_AGENTS_DIR = before;
      }
    }
    return results;
  },
};

async function measure(ctx: BenchContext, a: DoorAgent): Promise<FigureResult> {
  const runs = ctx.runs(3);
  const model = await startModelServer();
  onCleanup(`model server (${a.name} door)`, () => void model.stop());
  const bin = join(ctx.dir, 'bin');
  mkdirSync(bin, {recursive: true});
  writeFileSync(join(bin, 'nudge'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`, {
    mode: 0o755,
  });
  const opts: AgentOptions = {
    modelUrl: model.url,
    approvals: 'all',
    path: [bin],
    env: {NUDGE_HOME: ctx.stateDir},
    args: (await a.args?.(ctx.dir)) ?? [],
  };
  const where = createAgentHome(a.name, opts);
  onCleanup(`${a.name} processes (door)`, () => {
    void killProcessesOfHome(where.home).then(() =>
      rmSync(where.root, {recursive: true, force: true}),
    );
  });
  const env = {...ctx.env, ...agentEnv(a.name, where, opts)};
  await a.prepare?.(where.home, env, ctx.dir);
  const agent = (await ctx.server.tmux(...agentWindowArgs(a.name, where, opts))).trim();
  const idle = () => ctx.server.waitForScreen(agent, AGENT_SCREENS[a.name].emptyComposer, 120_000);
  await idle();
  await sleep(2_000);
  // A first turn: the session has a transcript, a thread, a current session.
  await ctx.server.tmux('send-keys', '-t', agent, '-l', 'hello');
  await sleep(400);
  await ctx.server.tmux('send-keys', '-t', agent, 'Enter');
  await model.waitForPrompt(/^hello$/, {timeoutMs: 90_000});
  await idle();
  await sleep(1_000);
  const work = await ctx.server.newPane(['bash', '--norc', '--noprofile']);
  await ctx.server.waitForScreen(work, /\$/);

  const jobEnv = {...ctx.env, HOME: where.home};
  const one = (via: 'auto' | 'keys') => async (i: number) => {
    const since = Date.now();
    const id = await submitJob(
      ctx,
      [
        '-S',
        ctx.server.socket,
        '--pane',
        work,
        '--notify-pane',
        agent,
        '--delay',
        '0',
        '--until',
        'exit',
        '--via',
        via,
        '--',
        `echo ${via}-${i}`,
      ],
      jobEnv,
    );
    const got = await model.waitForPrompt(NOTICE, {since, timeoutMs: 90_000});
    const end = await waitForJobEnd(ctx, id, 60_000);
    const wanted = via === 'auto' ? a.door : 'keys';
    if (end.noticeVia !== wanted)
      throw new Error(`${a.name}: the notice went via ${String(end.noticeVia)}, not ${wanted}`);
    const latency = got.at - eventTime(ctx, id, 'condition-met');
    await idle();
    await sleep(500);
    return latency;
  };
  const samples = await interleave(runs, one('auto'), one('keys'));
  await killProcessesOfHome(where.home);
  rmSync(where.root, {recursive: true, force: true, maxRetries: 3});
  await model.stop();
  return {
    id: `door-${a.name}`,
    subject: {label: `nudge through ${a.door} (${a.name})`, unit: 'ms', samples: samples.subject},
    baseline: {label: `nudge typing (${a.name})`, unit: 'ms', samples: samples.baseline},
    ratio: 'subject/baseline',
    goal: {text: `≤ ${DOOR_GOAL_MS} ms`, met: median(samples.subject) <= DOOR_GOAL_MS},
    notes: [`${a.name} ${agentVersion(a.name) ?? ''}: notice request at the scripted model server`],
  };
}
