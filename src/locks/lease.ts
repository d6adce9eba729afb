import {LockOwnership} from './ownership.js';

// A pane's lease: its lock taken with proper-lockfile, and what the holder checks before each
// key (src/locks/pane-lock.ts queues for it; the waiter's lock takes the same timings).

// proper-lockfile: the holder refreshes the lock's mtime every LOCK_UPDATE_MS; a lock not
// refreshed for LOCK_STALE_MS is stale and may be taken over. A worker killed with -9 thus
// frees the pane within ~8 s. A worker whose event loop stalls longer (laptop sleep, SIGSTOP)
// finds its lock compromised and must stop typing (onCompromised below). The refresh is half
// the stale time, the longest proper-lockfile allows: a held lock is most of what a waiting
// job costs when nothing happens (each wake-up of the process is ~0.3 ms of CPU on the
// 2-core VMs here; issue 44), and the refresh also carries the holder's queue entry and
// watchdog. Every caller uses these same values: two different `stale` settings on one lock
// can yield two holders (proper-lockfile README).
export const LOCK_STALE_MS = 8_000;
export const LOCK_UPDATE_MS = 4_000;

// proper-lockfile notices a takeover only at its next refresh, which after a stall (SIGSTOP,
// a suspended laptop) comes *after* timers that were due earlier, such as the next keystroke.
// So a lease also knows when the lock's mtime was last confirmed ours: older than
// LEASE_SAFE_AGE_MS, another worker may be about to take the lock (it may once the mtime is
// LOCK_STALE_MS old), and the holder must not send another key (assertHeld) — a second's
// margin is left for a key in flight to land. A watchdog aborts the lease's signal as well:
// one timer for the moment the last confirmation comes of age, moved on by each refresh, so
// it fires only when a refresh is late.
export const LEASE_SAFE_AGE_MS = LOCK_STALE_MS - 1_000;

/** A held pane lock. */
export interface PaneLease {
  /** Aborts if the lock is compromised (another worker may have taken over): stop typing. */
  readonly signal: AbortSignal;
  /** Throw (and abort `signal`) unless the lock is certainly still ours: call it right
   * before each key sent. Synchronous, so no timer that was due during a stall can slip a
   * keystroke in before the check. Once `release` has begun it always throws: a key that
   * comes after the release would land in the next job's text. */
  assertHeld(): void;
  /** Release the lock and leave the queue. Safe to call twice. After a compromise or a
   * stall the lock directory is removed only if it is still ours: it may be another
   * worker's now. */
  release(): Promise<void>;
}

/** A key was about to be sent under a lease already released. */
export class LeaseReleased extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} has released the pane's lock; no key may follow`);
    this.name = 'LeaseReleased';
  }
}

/** What a lease is taken with. */
export interface LeaseOptions {
  jobId: string;
  /** What proper-lockfile locks, and its lock directory. */
  lockTarget: string;
  lockPath: string;
  /** Told after each refresh that confirmed the lock ours (the holder's other upkeep). */
  onConfirmed: () => void;
  /** Run at the end of release (leaving the queue). */
  onRelease: () => Promise<void>;
}

/**
 * Take the pane's lock (proper-lockfile, one try) as a lease; undefined when another holds it.
 * The lease knows when the lock was last confirmed its own (LockOwnership), refuses every key
 * after that is too old or after release (assertHeld), and aborts its signal when the lock is
 * compromised — by proper-lockfile's refresh, or by the watchdog, one timer for the moment the
 * last confirmation comes of age, moved on by each refresh so that it fires only when a
 * refresh is late.
 */
export async function takeLease(o: LeaseOptions): Promise<PaneLease | undefined> {
  const compromised = new AbortController();
  const compromise = (message: string) => {
    if (!compromised.signal.aborted) {
      compromised.abort(
        Object.assign(new Error(`the pane lock was compromised: ${message}`), {
          code: 'ECOMPROMISED',
        }),
      );
    }
  };
  const ours = new LockOwnership(o.lockPath, LEASE_SAFE_AGE_MS);
  let releaseLock: () => Promise<void>;
  // Loaded here, not at the top: the front end only enqueues and need not pay for it.
  const {default: lockfile} = await import('proper-lockfile');
  try {
    releaseLock = await lockfile.lock(o.lockTarget, {
      stale: LOCK_STALE_MS,
      update: LOCK_UPDATE_MS,
      realpath: false,
      lockfilePath: o.lockPath,
      retries: 0,
      fs: ours.fs,
      // The default throws inside a timer and kills the process; we abort the job instead.
      onCompromised: (error) => compromise(error.message),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
  let released = false;
  const assertHeld = () => {
    if (released) throw new LeaseReleased(o.jobId);
    const age = Date.now() - ours.confirmedAt;
    if (age > LEASE_SAFE_AGE_MS) {
      compromise(
        `its refresh is ${age} ms old (the worker stalled), so another job may take it over`,
      );
    }
    compromised.signal.throwIfAborted();
  };
  const watchdog = leaseWatchdog(() => ours.confirmedAt, assertHeld);
  ours.onConfirmed = () => {
    o.onConfirmed();
    watchdog.moveOn();
  };
  return {
    signal: compromised.signal,
    assertHeld,
    release: async () => {
      if (released) return;
      released = true;
      watchdog.stop();
      await ours.release(releaseLock, compromised.signal.aborted);
      await o.onRelease();
    },
  };
}

/**
 * The lease's watchdog: one timer, due when the last confirmation (`confirmedAt()`) comes of
 * age (LEASE_SAFE_AGE_MS); then `check` runs, and throws once the lease is compromised or
 * released, which ends the watchdog. `moveOn` re-arms it after a refresh, so a lease whose
 * refreshes come in time never wakes the process for it.
 */
export function leaseWatchdog(
  confirmedAt: () => number,
  check: () => void,
): {moveOn(): void; stop(): void} {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    clearTimeout(timer);
    if (stopped) return;
    const due = confirmedAt() + LEASE_SAFE_AGE_MS + 1 - Date.now();
    timer = setTimeout(
      () => {
        try {
          check();
        } catch {
          stopped = true;
          return;
        }
        arm();
      },
      Math.max(0, due),
    );
    timer.unref();
  };
  arm();
  return {
    moveOn: arm,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
