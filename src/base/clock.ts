import {setTimeout as sleepFor} from 'node:timers/promises';

/** Time as the loops see it; tests swap in a fake. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolve after `ms`, or reject with an AbortError when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock and real timers. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms, signal) => {
    if (ms <= 0) {
      signal?.throwIfAborted();
      return;
    }
    await sleepFor(ms, undefined, {signal});
  },
};

/** Sleep `ms`, or less when `wake` resolves first. */
export async function sleepOrWake(
  clock: Clock,
  ms: number,
  signal: AbortSignal,
  wake: ((signal: AbortSignal) => Promise<void>) | undefined,
): Promise<void> {
  if (!wake) return clock.sleep(ms, signal);
  const stop = new AbortController();
  const cancel = () => stop.abort(signal.reason);
  signal.addEventListener('abort', cancel, {once: true});
  try {
    await Promise.race([clock.sleep(ms, stop.signal), wake(stop.signal)]);
  } finally {
    signal.removeEventListener('abort', cancel);
    stop.abort();
  }
  signal.throwIfAborted();
}
