import {writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {isProcessAlive} from '../base/fs.js';
import {FILE_MODE, resolveStateDir} from '../base/paths.js';
import {
  isJobProcessAlive,
  isTerminal,
  type JobHandle,
  type JobRecord,
  JobStore,
} from '../jobs/store.js';
import {paneLockFor} from '../locks/pane-lock.js';
import type {CommandContext} from './context.js';

/** How long a worker gets to record "cancelled" and release its lock after SIGTERM. */
const CANCEL_GRACE_MS = 5_000;
const CANCEL_POLL_MS = 50;
/** The marker of the one cancel that records the ending of a job whose worker is gone, and
 * how long another cancel waits for that record (if it never comes, it records it itself). */
const CLAIM_FILE = 'cancel.claim';
const CLAIM_WAIT_MS = 3_000;

function signalJob(record: JobRecord, signal: NodeJS.Signals): void {
  if (record.pid === undefined) return;
  try {
    // A detached worker leads its own process group (setsid): signal the group, so anything
    // it started goes too. A --wait job runs in the caller's process: signal only that.
    process.kill(record.mode === 'detached' ? -record.pid : record.pid, signal);
  } catch {
    // already gone
  }
}

/** Wait until the job's record is terminal or its process is gone. */
async function waitForEnd(handle: JobHandle, pid: number, ms: number): Promise<JobRecord> {
  const deadline = Date.now() + ms;
  for (;;) {
    const record = await handle.readState();
    if (isTerminal(record.state) || !isProcessAlive(pid) || Date.now() >= deadline) return record;
    await sleep(CANCEL_POLL_MS);
  }
}

/** Claim the right to record a job's ending (exclusive create of a marker file). */
async function claimEnding(handle: JobHandle): Promise<boolean> {
  try {
    await writeFile(join(handle.dir, CLAIM_FILE), `${process.pid}\n`, {
      flag: 'wx',
      mode: FILE_MODE,
    });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Wait until the record is terminal (another cancel is writing it), at most `ms`. */
async function waitForRecord(handle: JobHandle, ms: number): Promise<JobRecord> {
  const deadline = Date.now() + ms;
  for (;;) {
    const record = await handle.readState();
    if (isTerminal(record.state) || Date.now() >= deadline) return record;
    await sleep(CANCEL_POLL_MS);
  }
}

/**
 * `nudge cancel JOB`: stop a queued or running job. The worker gets SIGTERM, records
 * "cancelled" and releases the pane lock itself; if it does not within the grace period it
 * is killed, and the record is written here. A job that already ended is left alone.
 */
export async function cancelJob(
  o: {job: string; json?: boolean | undefined},
  ctx: CommandContext,
): Promise<ExitCode> {
  const stateDir = resolveStateDir(ctx.env);
  const handle = await new JobStore(stateDir).open(o.job);
  let record = await handle.readState();
  const say = (result: string, message: string) =>
    ctx.stdout(o.json ? JSON.stringify({job: record.id, result, state: record.state}) : message);

  if (isTerminal(record.state)) {
    say('already-ended', `Job ${record.id} already ended (${record.state}); nothing to cancel.`);
    return EXIT_CODES.ok;
  }
  const pid = record.pid;
  // Never signal a process we did not start: pids are reused.
  if (pid !== undefined && isJobProcessAlive(record)) {
    signalJob(record, 'SIGTERM');
    record = await waitForEnd(handle, pid, CANCEL_GRACE_MS);
    if (!isTerminal(record.state) && isProcessAlive(pid)) {
      signalJob(record, 'SIGKILL');
      record = await waitForEnd(handle, pid, 1_000);
    }
  }
  // The worker is gone without recording an ending (killed, or never started): record it,
  // and leave the pane's queue. Its lock, if it held one, goes stale within seconds. Two
  // cancels at once must not both record it: the first to claim the job does; the other
  // reports what it recorded.
  if (!isTerminal(record.state) && !(await claimEnding(handle))) {
    record = await waitForRecord(handle, CLAIM_WAIT_MS);
  }
  if (isTerminal(record.state)) {
    say(
      record.state === 'cancelled' ? 'cancelled' : 'already-ended',
      record.state === 'cancelled'
        ? `Cancelled job ${record.id}.`
        : `Job ${record.id} ended (${record.state}) before it could be cancelled.`,
    );
    return EXIT_CODES.ok;
  }
  const reason = 'Cancelled by "nudge cancel"; the worker did not stop by itself.';
  record = await handle.updateState({
    state: 'cancelled',
    reason,
    finishedAt: new Date().toISOString(),
  });
  await handle.appendEvent('cancelled', {state: 'cancelled', reason, by: 'nudge cancel'});
  await paneLockFor(stateDir, record).dequeue(record.id);
  say('cancelled', `Cancelled job ${record.id}.`);
  return EXIT_CODES.ok;
}
