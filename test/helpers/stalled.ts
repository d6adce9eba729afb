import {vi} from 'vitest';
import {LEASE_SAFE_AGE_MS} from '../../src/locks/lease.js';

/**
 * Run `fn` as a lock holder whose clock moved on past the safe age without a refresh (a loaded
 * machine, a stop): a look can no longer say nobody is taking its lock over, yet the lock is
 * still its own. Two seconds past: proper-lockfile first sets the mtime up to a second ahead.
 * Only `Date` is faked; timers and files are real.
 */
export async function afterStall<T>(fn: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({toFake: ['Date'], now: Date.now() + LEASE_SAFE_AGE_MS + 2_000});
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}
