import {isRunning, type ProcessId} from '../process/identity.js';
import {finalReceipt, isUndelivered, type Receipt} from './receipts.js';
import type {JobRecord} from './record.js';
import {isTerminal, type JobState} from './states.js';

/**
 * Whether a job's process still runs, and the state shown for it: a job that never ended
 * whose process is gone is lost.
 */

/** What `jobs`/`status` show: `lost` when a job never ended but its process is gone. */
export type ShownState = JobState | 'lost';

/** How long a queued job may wait for its worker to record its pid before it counts as lost. */
export const WORKER_START_GRACE_MS = 60_000;

/** Whether the process the record names (the one the worker or `submit --wait` recorded:
 * pid and start time) still runs. */
export function isJobProcessAlive(record: Pick<JobRecord, 'pid' | 'pidStart'>): boolean {
  return record.pid !== undefined && isRunning(workerOf(record as JobRecord & {pid: number}));
}

/** The job's process as a ProcessId. */
export function workerOf(record: Pick<JobRecord, 'pid' | 'pidStart'> & {pid: number}): ProcessId {
  return {pid: record.pid, start: record.pidStart};
}

/** The state to show for a record: a non-terminal job whose process has died is `lost`. */
export function shownState(
  record: JobRecord,
  nowMs: number,
  alive: (record: JobRecord) => boolean = isJobProcessAlive,
): ShownState {
  if (isTerminal(record.state)) return record.state;
  if (record.pid !== undefined) return alive(record) ? record.state : 'lost';
  return nowMs - Date.parse(record.createdAt) > WORKER_START_GRACE_MS ? 'lost' : record.state;
}

/** A message's receipt as a reader should believe it: a job whose worker died without
 * writing its ending (shown `lost`) ends on the rung its ending would have written. */
export function shownReceipt(r: JobRecord, shown: ShownState, nowMs: number): Receipt | undefined {
  if (r.kind !== 'submit') return undefined;
  if (!isTerminal(shown) || isTerminal(r.state)) return r.receipt;
  return finalReceipt(r.receipt, shown, r, new Date(nowMs).toISOString()) ?? r.receipt;
}

/** Whether a job is a dead letter as a reader should believe it: a message that never got
 * through and was not resent (its receipt as shownReceipt gives it). */
export function isDeadLetter(r: JobRecord, shown: ShownState, nowMs: number): boolean {
  return r.kind === 'submit' && isUndelivered(shownReceipt(r, shown, nowMs), r.resentAs);
}
