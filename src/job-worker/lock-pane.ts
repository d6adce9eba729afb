import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {err, ok, type Result} from '../base/result.js';
import {editHolder} from '../jobs/edit-hold.js';
import type {JobRecorder} from '../jobs/recorder.js';
import type {JobRequest} from '../jobs/request.js';
import {type FencedLease, fenceLease} from '../locks/fenced-lease.js';
import {type PaneLock, whyNoLock} from '../locks/pane-lock.js';
import type {Tmux} from '../tmux/tmux.js';

/**
 * Queue for `pane`'s lock and take it for a job, the pane fenced in the tmux server as the
 * job's (src/tmux/fence.ts): its place in the queue is recorded (`waiting-for-lock`); after
 * `--lock-timeout`, the one sentence of its failed ending; dropped from the queue by the
 * person, its cancelled ending. With the lease, the job's text as it is now (the person may
 * have edited it while it waited).
 */
export async function takePaneLock(
  deps: {
    lockFor: (pane: string) => Pick<PaneLock, 'acquire'>;
    tmux: Pick<Tmux, 'takeFence' | 'dropFence'>;
    pid: number;
    recorder: JobRecorder;
    requestNow: () => Promise<Result<JobRequest, string>>;
  },
  request: Pick<JobRequest, 'jobId' | 'options' | 'text'>,
  pane: string,
  signal: AbortSignal,
): Promise<
  Result<{lease: FencedLease; text: string}, {state: 'failed' | 'cancelled'; reason: string}>
> {
  const timeoutMs = request.options.lockTimeoutMs;
  const acquired = await deps.lockFor(pane).acquire({
    jobId: request.jobId,
    pid: deps.pid,
    timeoutMs,
    signal,
    onWaiting: (ahead) =>
      void deps.recorder.event('waiting-for-lock', {
        pane,
        ahead: ahead.length,
        head: ahead[0] ?? null,
      }),
  });
  if (acquired.ok) {
    const lease = await fenceLease(deps.tmux, acquired.value, pane, request.jobId);
    // Read under the queue's lock: no edit (`nudge queue edit`) comes after this read.
    const now = await requestUnderLock(deps, request);
    if (now.ok) return ok({lease, text: now.value});
    await lease.release();
    return err({
      state: 'failed',
      reason: `Under the pane's lock, ${now.error}; nothing was typed.`,
    });
  }
  const why = whyNoLock(acquired.error, pane, formatDuration(timeoutMs));
  if (acquired.error.reason === 'dropped')
    return err({state: 'cancelled', reason: `${why}; nothing was typed.`});
  return err({state: 'failed', reason: `${why}; raise --lock-timeout or cancel the job ahead.`});
}

/** The text to type, from the request read under the lock (bounded and checked, as at the
 * worker's start): its text is the one thing `nudge queue edit` changes. */
async function requestUnderLock(
  deps: {recorder: JobRecorder; requestNow: () => Promise<Result<JobRequest, string>>},
  request: Pick<JobRequest, 'text'>,
): Promise<Result<string, string>> {
  const now = await deps.requestNow();
  if (!now.ok) return now;
  const {text} = now.value;
  if (text !== request.text) await deps.recorder.event('text-edited', {chars: [...text].length});
  return ok(text);
}

/** Run `wait` (a wait for an idle pane before the lock) with the job's place in the queue kept,
 * so the person can still move, edit or drop it meanwhile. */
export async function holdingPlace<T>(
  lock: Pick<PaneLock, 'hold'>,
  request: Pick<JobRequest, 'jobId'>,
  pid: number,
  wait: () => Promise<T>,
): Promise<T> {
  const held = await lock.hold(request.jobId, pid);
  try {
    return await wait();
  } finally {
    held.stop();
  }
}

/** How often a job held for an edit looks whether the edit is in. */
const EDIT_POLL_MS = 250;

/**
 * The job's request, once no `nudge queue edit` holds it ($EDITOR open on it): the worker waits,
 * its lock held, until the edit is written or the editing process is gone, and says so
 * (`waiting-for-edit`, then `person-done`), so an edit is never lost to a job that reached
 * the pane meanwhile.
 */
export async function requestAfterEdit(
  handle: {readRequest: () => Promise<Result<JobRequest, string>>; dir: string},
  o: {pane: string; recorder: JobRecorder; clock: Clock; signal: AbortSignal},
): Promise<Result<JobRequest, string>> {
  let waited = false;
  while ((await editHolder(handle.dir)) !== undefined) {
    if (!waited) await o.recorder.event('waiting-for-edit', {pane: o.pane});
    waited = true;
    await o.clock.sleep(EDIT_POLL_MS, o.signal);
  }
  if (waited) await o.recorder.event('person-done', {pane: o.pane});
  return handle.readRequest();
}
