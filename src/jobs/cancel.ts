import type {Clock} from '../base/clock.js';
import {resolveStateDir} from '../base/paths.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {identify, isRunning, signalProcess} from '../process/identity.js';
import {stopGracefully} from '../process/stop.js';
import {isJobProcessAlive, workerOf} from './liveness.js';
import type {JobRecord} from './record.js';
import {isTerminal} from './states.js';
import {type JobHandle, JobStore} from './store.js';

/** What a cancel reads of its caller's world (a command's context has both). */
export interface CancelContext {
  env: Record<string, string | undefined>;
  clock: Clock;
}

/** How long a worker gets to record "cancelled" and release its lock after SIGTERM. */
const CANCEL_GRACE_MS = 5_000;
const CANCEL_POLL_MS = 50;
/** How long a cancel waits for the ending another one (or the worker) is recording. */
const RECORD_WAIT_MS = 3_000;

/** What `nudge cancel` did. */
export interface CancelResult {
  job: string;
  /** `cancelled`, or `already-ended` (it had ended, or ended before it could be cancelled). */
  result: 'cancelled' | 'already-ended';
  state: JobRecord['state'];
  /** Whether it had ended before this cancel looked (nothing was signalled). */
  endedBefore: boolean;
  /** Cancelled while typing: whether what it typed was cleared from the input line (false: a
   * program nudge cannot clear; the pane's next line waits for a person). */
  cleared?: boolean | undefined;
  /** Its recorded worker's pid is alive but cannot be tied to the job (reused, or its start
   * time unreadable): why nothing was signalled. */
  notSignalled?: string | undefined;
}

/**
 * `nudge cancel JOB`: stop a queued or running job, and the command it typed into a shell's
 * pane (the worker interrupts it: C-c, then its process group) unless `keepRunning`. The worker gets SIGTERM, records
 * "cancelled" and releases the pane lock itself; if it does not within the grace period it
 * is killed, and the ending is recorded here (through the one writer of endings, so two
 * cancels, or a cancel and the worker, never both record one). A job that already ended is
 * left alone.
 */
export async function cancelJob(
  o: {job: string; keepRunning?: boolean | undefined},
  ctx: CancelContext,
): Promise<CancelResult> {
  const stateDir = resolveStateDir(ctx.env);
  const handle = await new JobStore(stateDir).open(o.job);
  let record = await handle.readState();
  const result = (r: JobRecord, ours: boolean): CancelResult => ({
    job: r.id,
    result: ours || r.state === 'cancelled' ? 'cancelled' : 'already-ended',
    state: r.state,
    endedBefore: false,
    ...(r.kind === 'submit' && r.cleared !== undefined ? {cleared: r.cleared} : {}),
  });
  if (isTerminal(record.state))
    return {job: record.id, result: 'already-ended', state: record.state, endedBefore: true};
  // A person cancels it (not a shutdown's signal): said before the worker is signalled.
  // Its worker interrupts the command it typed (in a shell's pane) unless told to leave it.
  await handle.markCancelRequested('nudge cancel', o.keepRunning === true);
  // Read again after the mark: a waiter that took the job meanwhile looked for the mark after
  // it recorded itself, so either it saw the mark or this read sees the waiter.
  record = await handle.readState();
  if (isTerminal(record.state)) return result(record, false);
  // Never signal a process we did not start: pid and start time must both match. A detached
  // worker leads its own process group (setsid): the group goes, so anything it started goes
  // too. A --wait job runs in the caller's process: only that is signalled.
  if (record.pid !== undefined && isJobProcessAlive(record)) {
    const worker = workerOf({...record, pid: record.pid});
    const group = record.mode === 'detached';
    // A waiter runs other jobs beside this one: it is told to look at its jobs' marks
    // (SIGUSR2), and never killed.
    const waiter = record.waiter === true;
    // Stopped once it records its ending (or is gone); killed after the grace period.
    const how = await stopGracefully({
      send: (signal) =>
        waiter
          ? signal === 'SIGTERM' && signalProcess(worker, 'SIGUSR2', false)
          : signalProcess(worker, signal, group),
      alive: () => isRunning(worker),
      done: async () => isTerminal((await handle.readState()).state),
      clock: ctx.clock,
      graceMs: CANCEL_GRACE_MS,
      pollMs: CANCEL_POLL_MS,
    });
    record =
      how === 'killed'
        ? await waitForEnd(ctx, handle, () => isRunning(worker), 1_000)
        : await handle.readState();
    // A worker killed after the grace period may have recorded its ending but not yet left
    // the pane's queue: its entry would hold the next job back until it went stale.
    if (how === 'killed') await paneLockFor(stateDir, record).dequeue(record.id);
  }
  if (isTerminal(record.state)) return result(record, false);
  const notSignalled =
    record.pid !== undefined && identify(workerOf({...record, pid: record.pid})) === 'other'
      ? `process ${record.pid} was not signalled: it runs, but nudge cannot tie it to the job's worker (its start time differs from the one recorded, or cannot be read)`
      : undefined;
  // The worker is gone without recording an ending (killed, or never started): record it,
  // and leave the pane's queue. Its lock, if it held one, goes stale within seconds.
  const ended = await handle.end('cancelled', {
    reason: 'Cancelled by "nudge cancel"; the worker did not stop by itself.',
    notified: false,
    by: 'nudge cancel',
  });
  if (!ended.wrote) {
    // Someone else is recording the ending: report what they record.
    return result(await waitForEnd(ctx, handle, () => true, RECORD_WAIT_MS), false);
  }
  await paneLockFor(stateDir, ended.record).dequeue(ended.record.id);
  return {...result(ended.record, true), ...(notSignalled ? {notSignalled} : {})};
}

/** Wait until the job's record is terminal, or `alive()` turns false, at most `ms`. */
async function waitForEnd(
  ctx: CancelContext,
  handle: JobHandle,
  alive: () => boolean,
  ms: number,
): Promise<JobRecord> {
  const deadline = ctx.clock.now() + ms;
  for (;;) {
    const record = await handle.readState();
    if (isTerminal(record.state) || !alive() || ctx.clock.now() >= deadline) return record;
    await ctx.clock.sleep(CANCEL_POLL_MS);
  }
}
