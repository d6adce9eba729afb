import {randomUUID} from 'node:crypto';
import {readFile} from 'node:fs/promises';
import {hookMarkSource} from '../agents/hook-marks.js';
import {loadedProfiles} from '../agents/registry.js';
import {realClock} from '../base/clock.js';
import {describeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import type {Logger} from '../base/log.js';
import {layout} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {claimJob, jobTeller} from '../job-worker/claim.js';
import {stoppedFromOutside} from '../job-worker/ending.js';
import {createRecorder} from '../jobs/recorder.js';
import {newJobId} from '../jobs/request.js';
import type {RunReport} from '../jobs/run-report.js';
import type {TerminalState} from '../jobs/states.js';
import {JobHandle} from '../jobs/store.js';
import {realInjector} from '../pane/inject.js';
import {paneMemory} from '../pane/memory.js';
import {OWN_LINE_WAITS} from '../pane/own-line.js';
import {systemForeground} from '../process/foreground.js';
import {endProcessGroup} from '../process/group.js';
import {runCommand} from '../process/run-command.js';
import {servedInPane} from '../process/served.js';
import {systemTree} from '../process/tree.js';
import {createSpawnRunner} from '../tmux/runner.js';
import type {ServerRef} from '../tmux/server.js';
import {createTmux} from '../tmux/tmux.js';
import {findAgentSession} from './agent-session.js';
import {realGit} from './git.js';
import {type RunRequest, validateRunRequest} from './request.js';
import {type RunEvents, type RunOutcome, type RunRecorder, runRun} from './run.js';

/** Where a run's worker runs. */
export interface RunExecuteContext {
  stateDir: string;
  pid: number;
  signal: AbortSignal;
  /** The environment (NUDGE_GH: the gh to run for --pr, default `gh` on PATH). */
  env: Record<string, string | undefined>;
}

/** How a run ended, as its front end sees it: without a report only when it had ended
 * (cancelled) before its worker started. */
export interface RunResult {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  notified: boolean;
  report?: RunReport | undefined;
}

/**
 * Run a `nudge run` job with the real world wired in: tmux on the job's server (one process
 * per call), git, gh, /proc, the calling pane's lock for what is typed there, the job's files
 * and pino log. Used by the run worker and by `nudge run --wait`.
 */
export async function executeRun(request: RunRequest, ctx: RunExecuteContext): Promise<RunResult> {
  const claimed = await claimJob(ctx.stateDir, request, ctx.pid);
  const {handle, log} = claimed;
  if (claimed.ended) {
    const {state, reason} = claimed.record;
    return {state: state as TerminalState, reason, notified: false};
  }
  const server: ServerRef = {socketPath: request.server.socketPath, serverPid: request.server.pid};
  const tmux = createTmux(createSpawnRunner({kind: 'socket-path', path: server.socketPath}));
  const recorder = runRecorder(handle, log);
  const ending = recorder.end;
  // A cancel no person asked for (nudge cancel; --wait is the person's own terminal) is a
  // stop from outside (a shutdown, a kill).
  recorder.end = async (o, patch) =>
    ending(
      o.state === 'cancelled' && !(await handle.cancelledByPerson()) ? stoppedFromOutside(o) : o,
      patch,
    );
  const tell = realInjector({
    stateDir: ctx.stateDir,
    server,
    tmux,
    clock: realClock,
    pid: ctx.pid,
    note: (event, data) => recorder.event(event, data as RunEvents[typeof event]),
    ticket: () => newJobId(Date.now()),
    waits: OWN_LINE_WAITS.run,
  });
  // Read before any pane lock is taken (see src/job-worker/execute.ts).
  loadedProfiles();
  const outcome = await runRun(
    {
      tmux,
      clock: realClock,
      foreground: systemForeground,
      paneMemory: paneMemory(ctx.stateDir, server),
      activity: undefined,
      hookMarks: hookMarkSource(ctx.stateDir, server),
      served: servedInPane,
      recorder,
      git: realGit,
      endGroup: (group) => endProcessGroup(group, realClock),
      // Not the run's signal: a question or notice, once its pane's turn comes, goes whole.
      tell: (pane, line) => tell(pane, line, true, new AbortController().signal),
      notify: jobTeller(
        handle,
        {...request, sinks: request.options.notifySinks},
        {deps: {clock: realClock, tmux, platform: thisProcess.platform, env: ctx.env}, recorder},
      ),
      gh: (args, cwd) => runGh(args, cwd, ctx.env),
      files: {report: handle.reportPath, log: handle.logPath, events: handle.eventsPath},
      writeReport: (markdown) => writeFileAtomic(handle.reportPath, markdown),
      pid: ctx.pid,
      // The agent runs as the person who started the run: its files are under their HOME.
      findSession: (source, o) => findAgentSession(source, {...o, env: ctx.env, tree: systemTree}),
      newSessionId: () => randomUUID(),
    },
    request,
    ctx.signal,
  );
  for (const why of loadedProfiles().problems)
    await recorder.event('profile-file-refused', {why}).catch(() => {});
  log.info({event: 'worker-exit', state: outcome.state}, 'run worker exiting');
  return outcome;
}

/** gh, as a run calls it (a pull request): never a prompt, never colours, two minutes at most. */
function runGh(args: readonly string[], cwd: string, env: RunExecuteContext['env']) {
  return runCommand(env.NUDGE_GH || 'gh', args, {
    cwd,
    timeoutMs: 120_000,
    maxBytes: 1024 * 1024,
    signal: new AbortController().signal,
    merged: false,
    addEnv: {GH_PROMPT_DISABLED: '1', NO_COLOR: '1'},
  });
}

/** A run's recorder over its job files and logger: the report goes into the record, then
 * the ending. */
function runRecorder(handle: JobHandle, log: Logger): RunRecorder {
  return createRecorder(handle, log, (o: RunOutcome) => ({
    ending: {
      reason: o.reason,
      exitCode: o.exitCode,
      notified: o.notified,
      waitedMs: o.report.durationMs,
    },
    patch: {report: {...o.report}},
  }));
}

/**
 * The run worker's job: read the run's request.json, check it, run it. A request that cannot
 * be read or is not a run's fails the job with the reason (never silently).
 */
export async function executeRunJob(jobId: string, ctx: RunExecuteContext): Promise<RunResult> {
  const handle = new JobHandle(jobId, layout.jobDir(ctx.stateDir, jobId));
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(handle.requestPath, 'utf8'));
  } catch (error) {
    return failJob(
      handle,
      `Worker failed: cannot read ${handle.requestPath} (${describeError(error)}).`,
    );
  }
  const checked = validateRunRequest(parsed);
  if (!checked.ok)
    return failJob(handle, `Worker failed: the run request is not valid (${checked.error}).`);
  if (checked.value.jobId !== jobId) {
    return failJob(
      handle,
      `Worker failed: the request is for job ${checked.value.jobId}, not ${jobId}.`,
    );
  }
  return executeRun(checked.value, ctx);
}

async function failJob(handle: JobHandle, reason: string): Promise<RunResult> {
  await handle.end('failed', {reason, notified: false}).catch(() => {});
  return {state: 'failed', reason, notified: false};
}
