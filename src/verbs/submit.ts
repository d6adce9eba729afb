import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import type {JobOutcome} from '../jobs/events.js';
import type {SubmitOptions} from '../jobs/options.js';
import {type JobRequest, newJobId, REQUEST_VERSION} from '../jobs/request.js';
import {JobStore} from '../jobs/store.js';
import {madeBefore, recordJob, startWorker, submitJobOptions} from '../jobs/submission.js';
import {textOfFile} from '../jobs/text-file.js';
import {checkSubmitTarget} from '../pane/submit-target.js';
import {ownPaneOrRefuse, reachablePane} from '../pane/target.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';

export type {SubmitOptions} from '../jobs/options.js';

/** What `nudge submit` did: handed the job to a detached worker, or (--wait) ran it. */
export type SubmitResult =
  | {kind: 'queued'; job: string; pane: string; pid: number; log: string}
  | {kind: 'ran'; job: string; pane: string; outcome: JobOutcome};

/**
 * `nudge submit`: the job's options decided (src/jobs/submission.ts), its pane resolved and
 * checked (src/pane/submit-target.ts), then the job recorded and handed to a detached worker
 * (or run here with --wait) — each layer's work in one go, in that order.
 */
export async function submit(given: SubmitOptions, ctx: CommandContext): Promise<SubmitResult> {
  const o = given.textFile === undefined ? given : {...given, text: await textOfFile(given, ctx)};
  const {options, ifBusy} = submitJobOptions(o, ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  // tmux answers while the state directory is checked.
  const [{tmux, spec, info, target}] = await Promise.all([
    reachablePane(o, ctx, '--pane'),
    ensureStateDir(stateDir, ctx.env),
  ]);
  const busyNow = ifBusy === 'refuse' || ifBusy === 'now' ? ifBusy : undefined;
  const asks = {...options, notifyPane: o.notifyPane, busyNow};
  const notifyPane = await checkSubmitTarget(tmux, spec, info, asks, {...ctx, stateDir});
  if (notifyPane !== undefined) options.notifyPane = notifyPane;

  const store = new JobStore(stateDir);
  if (o.jobId !== undefined) {
    // Sent again (the answer was lost on the way): the job made the first time is the answer.
    const made = await madeBefore(store, o.jobId);
    if (made) return {kind: 'queued', job: o.jobId, ...made};
  }
  const now = ctx.clock.now();
  const request: JobRequest = {
    version: REQUEST_VERSION,
    jobId: o.jobId ?? newJobId(now),
    createdAt: new Date(now).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: target,
    text: o.text,
    options,
  };
  const mode = o.wait === true ? 'foreground' : 'detached';
  const {handle, undo} = await recordJob(request, mode, {store, tmux, info, env: ctx.env});
  if (!o.wait) {
    const {pid} = await startWorker(handle, {entry: ctx.workerEntry, stateDir, env: ctx.env, undo});
    return {kind: 'queued', job: request.jobId, pane: info.paneId, pid, log: handle.logPath};
  }

  // Loaded only for --wait: the detached path must stay light (pino, proper-lockfile).
  const {executeJob} = await import('../jobs/execute.js');
  const transport = ctx.env.NUDGE_TRANSPORT;
  const outcome = await executeJob(request, {
    stateDir,
    pid: ctx.pid,
    signal: ctx.signal,
    transport: transport === 'spawn' || transport === 'control' ? transport : 'auto',
    env: ctx.env,
  });
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome};
}

/** For `--notify-pane self` on a job of another host: this machine's pane nudge runs in,
 * proven (src/pane/own-pane.ts); a claimed pane it cannot prove is refused. */
export async function ownPaneHere(
  host: string | undefined,
  notifyPane: string | undefined,
  ctx: CommandContext,
): Promise<string | undefined> {
  if (host === undefined || notifyPane !== 'self') return undefined;
  const spec = resolveServerSpec({}, ctx.env);
  const lead = '--notify-pane self names the pane nudge runs in';
  return ownPaneOrRefuse(ctx.tmux(spec), spec, ctx, lead, 'name it as local:%N');
}
