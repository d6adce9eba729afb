import {join} from 'node:path';
import {LockOwnership} from './ownership.js';
import {LEASE_SAFE_AGE_MS, LOCK_STALE_MS, LOCK_UPDATE_MS} from './pane-lock.js';

/**
 * The lock of a tmux server's waiter (src/waiter/waiter.ts): the one process that runs the
 * server's jobs holds it. proper-lockfile with the pane lock's timings: a waiter killed with -9
 * frees it within ~8 s, and one whose event loop stalled longer (SIGSTOP) finds it taken over.
 */
export interface WaiterLock {
  release(): Promise<void>;
  /** Aborted when another process took the lock over (this one stalled past its staleness). */
  readonly lost: AbortSignal;
  /** Resolves at the lock's next refresh that confirmed it ours (every LOCK_UPDATE_MS), or
   * when it is lost (once lost: never): the waiter's other upkeep rides on that wake-up
   * instead of a timer of its own (issue 44). Rejects with `signal`'s reason when it fires
   * first. */
  refreshed(signal: AbortSignal): Promise<void>;
}

const lockOptions = (dir: string) => ({
  stale: LOCK_STALE_MS,
  realpath: false,
  lockfilePath: join(dir, 'lock'),
});

/** Take the waiter's lock of `dir`; undefined when another process holds it. */
export async function takeWaiterLock(dir: string): Promise<WaiterLock | undefined> {
  const {default: lockfile} = await import('proper-lockfile');
  const lost = new AbortController();
  // The lock directory 0700 like the rest of the state dir, and known ours or not at release.
  const ours = new LockOwnership(join(dir, 'lock'), LEASE_SAFE_AGE_MS);
  const waiting = new Set<() => void>();
  const tell = () => {
    for (const resolve of [...waiting]) resolve();
  };
  ours.onConfirmed = tell;
  lost.signal.addEventListener('abort', tell, {once: true});
  try {
    const release = await lockfile.lock(dir, {
      ...lockOptions(dir),
      update: LOCK_UPDATE_MS,
      retries: 0,
      fs: ours.fs,
      // The default throws inside a timer and kills the process, with every job in it.
      onCompromised: () => lost.abort(),
    });
    return {
      release: async () => {
        // Taken over while this process stalled: the directory is the new waiter's now.
        await ours.release(release, lost.signal.aborted);
      },
      lost: lost.signal,
      refreshed: (signal) =>
        new Promise<void>((resolve, reject) => {
          if (signal.aborted) return reject(signal.reason);
          const done = () => {
            waiting.delete(done);
            signal.removeEventListener('abort', stop);
            resolve();
          };
          const stop = () => {
            waiting.delete(done);
            reject(signal.reason);
          };
          // Lost, the lock is refreshed no more: only `signal` ends the wait.
          if (!lost.signal.aborted) waiting.add(done);
          signal.addEventListener('abort', stop, {once: true});
        }),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
}

/** Whether some process holds the waiter's lock of `dir` (and keeps it fresh). */
export async function waiterLockHeld(dir: string): Promise<boolean> {
  const {default: lockfile} = await import('proper-lockfile');
  return lockfile.check(dir, lockOptions(dir)).catch(() => false);
}
