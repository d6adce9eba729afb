import {type Clock, sleepOrWake} from '../base/clock.js';
import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {watchQueue} from '../locks/queue-watch.js';
import {checkSubmitTarget} from '../pane/submit-target.js';
import {type Caller, reachablePane} from '../pane/target.js';
import type {Foreground} from '../process/foreground.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import type {JobOutcome} from './events.js';
import {believedRecord} from './lost.js';
import type {SubmitOptions} from './options.js';
import {type JobRequest, newJobId, REQUEST_VERSION} from './request.js';
import {isTerminal, type TerminalState} from './states.js';
import {type JobEnding, type JobHandle, JobStore} from './store.js';
import {madeBefore, recordJob, startWorker, submitJobOptions} from './submission.js';
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
  const {handle, undo} = await recordJob(request, 'detached', {store, tmux, info, caller: ctx});
  const {pid} = await startWorker(handle, {entry: ctx.workerEntry, stateDir, env: ctx.env, undo});
  if (!o.wait)
    return {kind: 'queued', job: request.jobId, pane: info.paneId, pid, log: handle.logPath};
  const outcome = await followToEnd(handle, ctx);
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome};
}

/** How long between looks at a followed job's record when no write of it wakes the look. */
const FOLLOW_BACKSTOP_MS = 1_000;

/**
 * `--wait`: follow the job its worker runs until it has ended, woken by each write of its
 * record (a rename in its folder), looked at every second besides; a worker that died ends it
 * `failed`, as far as the caller is concerned. Interrupted (Ctrl-C, SIGTERM), only the
 * waiting stops, in one sentence.
 */
async function followToEnd(
  handle: JobHandle,
  ctx: Pick<SubmitContext, 'signal' | 'clock'>,
): Promise<JobOutcome> {
  const watch = watchQueue(handle.dir);
  try {
    for (;;) {
      const {record, shown} = await believedRecord(handle, ctx.clock.wall());
      if (isTerminal(shown)) return outcomeOfRecord(record, shown);
      // Aborted, the sleep rejects and ends the race.
      const wake = watch && !watch.broken ? () => watch.next : undefined;
      await sleepOrWake(ctx.clock, FOLLOW_BACKSTOP_MS, ctx.signal, wake).catch(() => {});
      watch?.reset();
      if (ctx.signal.aborted)
        throw new NudgeError(
          'interrupted',
          `Stopped waiting; job ${handle.id} goes on (nudge status ${handle.id}).`,
        );
    }
  } finally {
    watch?.close();
  }
}

/** What of an ended record --wait returns, here or from another host (`by` is the record's
 * own). */
const OUTCOME_FIELDS = [
  'reason',
  'waitedMs',
  'exitCode',
  'match',
  'delivery',
  'noticeDelivery',
  'noticeVia',
  'noticeDoors',
  'verdict',
  'settledBy',
  'noticeHeld',
  'blocked',
  'noticeDue',
  'cleared',
] as const satisfies ReadonlyArray<keyof JobEnding>;

/** A job's outcome, as --wait returns it, from its ended record (or its status, read on
 * another host): a job that was lost failed, as far as the caller is concerned. */
export function outcomeOfRecord(
  ended: JobEnding & {pid?: number | undefined},
  state: TerminalState,
): JobOutcome {
  if (state === 'lost')
    return {
      state: 'failed',
      notified: false,
      reason: `its worker (pid ${ended.pid ?? '?'}) is gone; it never finished`,
    };
  const kept = Object.fromEntries(
    OUTCOME_FIELDS.flatMap((k) => (ended[k] === undefined ? [] : [[k, ended[k]]])),
  );
  return {...kept, state, notified: ended.notified ?? false};
}
