import {basename} from 'node:path';
import {loadProfiles, userProfileDirs} from '../agents/builtin.js';
import {profileNamed} from '../agents/registry.js';
import {readProfileTrust} from '../agents/trust.js';
import {
  judgeVersion,
  readVerifiedTable,
  type VerifiedTable,
  versionIn,
} from '../agents/verified.js';
import {backgroundWorkSeen} from '../agents/work.js';
import {describeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {findOnPath, soundStateDir} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {nudgeVersion} from '../base/version.js';
import {endJobsOfGoneServers} from '../jobs/lost.js';
import {JobStore} from '../jobs/store.js';
import {describeOwnPane} from '../pane/own-pane.js';
import {ownPane} from '../pane/target.js';
import {runFile} from '../process/spawn.js';
import {planRecovery, recoveryFacts} from '../runs/recovery.js';
import {type InstallAgent, installTargets} from '../setup/agents.js';
import {type Check, fail, ok, warn} from '../setup/check.js';
import {absentAgents, checkAgent} from '../setup/check-agents.js';
import {checkHookHealth} from '../setup/check-hooks.js';
import {checkState} from '../setup/check-state.js';
import {checkPlatform} from '../setup/platform.js';
import {checkWrittenPaths} from '../setup/written-paths.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {
  describeServer,
  resolveServerSpec,
  type ServerSpec,
  serverChoiceReason,
} from '../tmux/server.js';
import {createTmux, type Tmux} from '../tmux/tmux.js';
import {openTransport} from '../tmux/transport.js';
import type {CommandContext} from './context.js';

export type {Check, CheckStatus} from '../setup/check.js';

export interface DoctorResult {
  checks: Check[];
  /** No check failed. */
  ok: boolean;
}

/** What `nudge doctor` takes: the server's flags. */
export type DoctorOptions = OptionsOf<typeof SERVER_OPTIONS>;

const MIN_TMUX = [3, 2] as const;
const MIN_NODE = [20, 19] as const;

function atLeast(version: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i += 1) {
    const v = version[i] ?? 0;
    if (v !== min[i]) return v > (min[i] ?? 0);
  }
  return true;
}

/** A verdict of the verified-versions table as a check. */
function versionCheck(name: string, table: VerifiedTable, program: string, version: string): Check {
  const v = judgeVersion(table, program, version);
  return {name, status: v.status, detail: v.detail, ...(v.fix ? {fix: v.fix} : {})};
}

async function checkTmux(table: VerifiedTable): Promise<Check> {
  const r = await runFile('tmux', ['-V'], {timeoutMs: 10_000, maxBuffer: 4096});
  if (!r.ok) {
    return r.code === 'ENOENT'
      ? fail(
          'tmux',
          'tmux is not on the PATH.',
          'Install tmux 3.2 or newer (apt-get install tmux, brew install tmux).',
        )
      : fail('tmux', `tmux -V failed: ${r.message}`, 'Reinstall tmux.');
  }
  const text = r.stdout.trim();
  const m = /(\d+)\.(\d+)/.exec(text);
  const version = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!atLeast(version, MIN_TMUX))
    return fail('tmux', `${text} is older than 3.2.`, 'Install tmux 3.2 or newer.');
  const exact = versionIn(text);
  return exact ? versionCheck('tmux', table, 'tmux', exact) : ok('tmux', `${text}.`);
}

/** The installed version of an agent CLI on the PATH (`claude --version`), as judged by the
 * table; a warning when it does not say its version. */
async function checkAgentVersion(
  agent: InstallAgent,
  bin: string,
  table: VerifiedTable,
): Promise<Check> {
  const r = await runFile(bin, ['--version'], {timeoutMs: 20_000, maxBuffer: 64 * 1024});
  // Pi prints its version on stderr.
  const version = r.ok ? (versionIn(r.stdout) ?? versionIn(r.stderr)) : undefined;
  if (!version) {
    return warn(
      `${agent} version`,
      `${bin} --version did not say its version${r.ok ? '' : ` (${r.message})`}.`,
      `Check that ${agent} runs.`,
    );
  }
  return versionCheck(`${agent} version`, table, agent, version);
}

/** The server that does not answer: none when tmux is not installed (its own check says
 * so). A server named (-L, -S, NUDGE_TMUX_SOCKET) that does not answer is a failure; tmux's
 * default one not running yet is only worth a word. */
function unreachable(
  error: TmuxCommandError,
  spec: ServerSpec,
  named: boolean,
  why: string,
): Check[] {
  if (error.kind === 'no-tmux') return [];
  const status = error.kind === 'no-server' && !named ? warn : fail;
  const fix =
    error.kind === 'no-access'
      ? 'Run nudge outside the sandbox (Codex: nudge install codex adds the rule), or as the user who owns the server.'
      : 'Start tmux, or point nudge at your server with -S/-L or NUDGE_TMUX_SOCKET (the part of $TMUX before the first comma).';
  return [
    status('server', `${describeServer(spec)} (${why}) cannot be reached: ${error.message}`, fix),
  ];
}

/** Calls from here that no process tree proves: a stale $TMUX_PANE, or a pane nudge cannot
 * tie this process to. */
async function unprovenCheck(
  own: Extract<Awaited<ReturnType<typeof ownPane>>, {kind: 'unproven'}>,
  tmux: Tmux,
): Promise<Check> {
  const gone = own.claimed && !(await tmux.describePane(own.claimed).catch(() => undefined));
  return gone
    ? fail(
        'pane',
        `$TMUX_PANE is ${own.claimed}, but that pane is not on this server.`,
        'Open a new shell in tmux (the variable is stale), or pass --pane.',
      )
    : fail(
        'pane',
        `Calls from here are not identified: ${describeOwnPane(own)}; self and the default pane are refused here, and hook marks from here are not recorded.`,
        'Pass --pane/--notify-pane %N; or run the agent so its tools run in its own pane (codex --no-daemon, a plain opencode rather than attach: docs/agents.md, "Which pane a call comes from").',
      );
}

async function checkServer(
  spec: ServerSpec,
  o: DoctorOptions,
  ctx: CommandContext,
): Promise<{checks: Check[]; pane?: string}> {
  const why = serverChoiceReason(o, ctx.env);
  const tmux = ctx.tmux(spec);
  const flagged = o.socketName !== undefined || o.socketPath !== undefined;
  let session: string | undefined;
  try {
    session = await tmux.recentSession();
  } catch (error) {
    if (!(error instanceof TmuxCommandError)) throw error;
    return {checks: unreachable(error, spec, flagged || !!ctx.env.NUDGE_TMUX_SOCKET, why)};
  }
  const info = session ? await tmux.describePane(session).catch(() => undefined) : undefined;
  if (!info) {
    return {
      checks: [
        warn(
          'server',
          `${describeServer(spec)} (${why}) runs no session nudge can see.`,
          'Start a session in it (tmux new -s work).',
        ),
      ],
    };
  }
  const checks = [ok('server', `${info.socketPath} (${why}), server pid ${info.serverPid}.`)];
  // How this process's calls are identified: the pane its process tree proves, never
  // $TMUX_PANE alone (src/pane/own-pane.ts).
  const own = flagged ? ({kind: 'outside'} as const) : await ownPane(tmux, spec, ctx);
  if (own.kind === 'outside') {
    checks.push(
      warn(
        'pane',
        'Not inside a tmux pane of this server (no $TMUX_PANE).',
        'Pass --pane %N to submit and wait; agents running in tmux have it set.',
      ),
    );
    return {checks, pane: info.paneId};
  }
  if (own.kind === 'unproven') {
    checks.push(await unprovenCheck(own, tmux));
    return {checks, pane: info.paneId};
  }
  const mine = await tmux.describePane(own.pane).catch(() => undefined);
  // The pane's foreground now is this doctor (node): what the pane runs is its first process.
  const first = (await ctx.tree.ancestry(ctx.pid)).find((p) => p.pid === own.panePid);
  const program = first ? basename(first.command.split(' ')[0] ?? '') : mine?.startCommand;
  checks.push(
    ok(
      'pane',
      `This shell is in pane ${own.pane}${program ? ` (the pane runs ${program})` : ''}; calls from here are identified by the process tree: ${describeOwnPane(own)}.`,
    ),
  );
  return {checks, pane: mine?.paneId ?? info.paneId};
}

async function checkControl(spec: ServerSpec, pane: string): Promise<Check> {
  const transport = await openTransport(spec, pane);
  try {
    if (transport.kind !== 'control') {
      return warn(
        'control-mode',
        `Control mode is not usable (${transport.fallbackReason}); nudge falls back to one tmux process per call.`,
        'Nothing to do unless waits feel slow; tmux 3.2+ supports control mode.',
      );
    }
    if (!(await createTmux(transport.runner).describePane(pane)))
      throw new Error(`it did not find pane ${pane}`);
    return ok('control-mode', 'A control-mode client attached and answered.');
  } catch (error) {
    return warn(
      'control-mode',
      `Control mode failed: ${(error as Error).message}`,
      'nudge falls back to one tmux process per call.',
    );
  } finally {
    await transport.close();
  }
}

/** The user's profile files: which profiles they mend, and a warning per refused file. */
function checkProfileFiles(ctx: CommandContext): Check[] {
  const {sources, problems} = loadProfiles(
    userProfileDirs(ctx.env, ctx.cwd),
    readProfileTrust(ctx.env),
  );
  const mended = Object.entries(sources).filter(([, s]) => s.files.length > 0);
  const checks = problems.map((p) =>
    p.includes('nudge agents trust')
      ? warn('profile file', p, 'Read the file; if you stand behind it, run the command it names.')
      : warn('profile file', p, 'Mend the field (nudge agents check FILE), or remove the file.'),
  );
  return [
    ok(
      'profiles',
      mended.length === 0
        ? 'built-in (no file of yours mends one).'
        : `built-in, mended by your files: ${mended.map(([n, s]) => `${n} (${s.files.join(', ')})`).join('; ')}.`,
    ),
    ...checks,
  ];
}

/** `nudge doctor`: what nudge needs, each ok, warn or fail with one sentence of fix. */
export async function runDoctor(o: DoctorOptions, ctx: CommandContext): Promise<DoctorResult> {
  // Which nudge answers, first: the one a bug report names.
  const checks: Check[] = [ok('nudge', `nudge ${nudgeVersion()} (${ctx.self.cli}).`)];
  const table = readVerifiedTable(ctx.dataDir);
  const tmux = await checkTmux(table);
  checks.push(tmux);
  const spec = resolveServerSpec(o, ctx.env);
  if (tmux.status !== 'fail' || !tmux.detail.includes('not on the PATH')) {
    const server = await checkServer(spec, o, ctx);
    checks.push(...server.checks);
    if (server.pane) checks.push(await checkControl(spec, server.pane));
  }
  const node = thisProcess.nodeVersion.split('.').map(Number);
  checks.push(
    atLeast(node, MIN_NODE)
      ? ok('node', `Node ${thisProcess.nodeVersion} (${ctx.self.node}).`)
      : fail(
          'node',
          `Node ${thisProcess.nodeVersion} is older than 20.19.`,
          'Install Node 20.19 or newer.',
        ),
  );
  checks.push(...(await checkPlatform(ctx.env)));
  checks.push(await checkState(ctx.env));
  checks.push(...checkProfileFiles(ctx));
  const absent: string[] = [];
  for (const agent of installTargets()) {
    const bin = await findOnPath(agent, ctx.env);
    const agentChecks = await checkAgent(agent, bin, ctx);
    if (agentChecks === 'absent') absent.push(agent);
    else checks.push(...agentChecks);
    if (bin) checks.push(await checkAgentVersion(agent, bin, table));
    // What "done" can see of the work the agent leaves running after a turn.
    const profile = bin ? profileNamed(agent) : undefined;
    if (profile)
      checks.push(ok(`${agent} work`, `Background work: ${backgroundWorkSeen(profile)}.`));
  }
  if (absent.length > 0) checks.push(absentAgents(absent, installTargets().length));
  checks.push(...(await checkWrittenPaths(ctx)));
  checks.push(...(await checkHookHealth(ctx.env, ctx.clock.wall())));
  checks.push(await checkRecoverable(ctx));
  return {checks, ok: checks.every((c) => c.status !== 'fail')};
}

/** Whether a tmux server nudge worked with is gone with things `nudge recover` can bring
 * back (its live jobs end lost now, as any command that finds the server gone does). */
async function checkRecoverable(ctx: CommandContext): Promise<Check> {
  const stateDir = soundStateDir(ctx.env);
  if (stateDir === undefined)
    return warn(
      'recover',
      'What could be recovered is not read: the state directory is refused.',
      'See the state-dir line: it says why and what to do.',
    );
  const store = new JobStore(stateDir);
  await endJobsOfGoneServers(store, ctx).catch(() => []);
  let plan: ReturnType<typeof planRecovery>;
  try {
    plan = planRecovery(await recoveryFacts(store, stateDir, ctx));
  } catch (error) {
    // The state-dir check says why; nothing here can be planned without it.
    return warn(
      'recover',
      `What could be recovered cannot be read: ${describeError(error)}.`,
      'Fix the state directory (the state-dir check), then run nudge doctor again.',
    );
  }
  const runs = plan.runs.filter((r) => r.action === 'resume').length;
  const jobs = plan.jobs.filter((j) => j.action === 'retarget').length;
  const schedules = plan.schedules.filter((s) => s.action === 'remark').length;
  if (runs === 0) {
    const gone = plan.servers.map((s) => s.socketPath).join(', ');
    return ok(
      'recover',
      plan.servers.length === 0
        ? 'Nothing to recover: the tmux servers nudge last worked with run.'
        : `The server(s) at ${gone} are gone, with nothing that can come back (nudge recover --dry-run says why).`,
    );
  }
  return warn(
    'recover',
    `A tmux server nudge worked with is gone: ${runs} run(s) can be resumed, ${jobs} queued job(s) moved to them, ${schedules} schedule(s) marked again.`,
    'Run nudge recover --dry-run to see the plan, then nudge recover.',
  );
}
