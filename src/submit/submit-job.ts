import type {Clock} from '../base/clock.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {enqueueJob, madeBefore} from '../jobs/enqueue.js';
import type {JobOutcome} from '../jobs/events.js';
import {followToEnd} from '../jobs/follow.js';
import {type JobRequest, newJobId, REQUEST_VERSION} from '../jobs/request.js';
import {JobStore} from '../jobs/store.js';
import {checkSubmitTarget} from '../pane/submit-target.js';
import {type Caller, reachablePane} from '../pane/target.js';
import type {Foreground} from '../process/foreground.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import type {SubmitOptions} from './options.js';
import {submitJobOptions, submittedFrom} from './submission.js';
import {textOfFile} from './text-file.js';

/** What submitting a job reads from its front end (a command's context has each). */
export interface SubmitContext extends Caller {
  cwd: string;
  signal: AbortSignal;
  readStdinBytes: (maxBytes: number) => Promise<Uint8Array>;
  clock: Clock;
  tmux: (spec: ServerSpec) => Tmux;
  foreground: Foreground;
  /** The worker script a detached job runs in. */
  workerEntry: string;
}

/** What `nudge submit` did: handed the job to a detached worker, or (--wait) followed it to
 * its end. */
export type SubmitResult =
  | {kind: 'queued'; job: string; pane: string; pid: number; log: string}
  | {kind: 'ran'; job: string; pane: string; outcome: JobOutcome};

/**
 * `nudge submit` (and `nudge ask`'s prompt): the job's options decided (submission.ts), its pane resolved and
 * checked (src/pane/submit-target.ts), then the job recorded and handed to a detached worker
 * (and with --wait followed to its end) — each layer's work in one go, in that order.
 */
export async function submitJob(given: SubmitOptions, ctx: SubmitContext): Promise<SubmitResult> {
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
  const from = await submittedFrom(ctx, tmux, info);

  const store = new JobStore(stateDir);
  if (o.jobId !== undefined) {
    // Sent again (the answer was lost on the way): the job made the first time is the answer.
    const made = await madeBefore(store, o.jobId);
    if (made) return {kind: 'queued', job: o.jobId, ...made};
  }
  const now = ctx.clock.wall();
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
  // Always its own worker, in a session of its own: with --wait too, so a Ctrl-C in the
  // caller's terminal stops the waiting here and never the job (issue 65).
  const w = {store, info, from, entry: ctx.workerEntry, env: ctx.env};
  const {handle, pid} = await enqueueJob(request, w);
  if (!o.wait)
    return {kind: 'queued', job: request.jobId, pane: info.paneId, pid, log: handle.logPath};
  const outcome = await followToEnd(handle, ctx);
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome};
}
