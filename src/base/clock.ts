/** Time as the loops see it; tests swap in a fake. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolve after `ms`, or reject with an AbortError when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock and real timers. A sleep ended early rejects with its signal's reason when
 * that is an abort (no new error: a wait ends a raced sleep every time it is woken, for
 * hours), else with an AbortError caused by it. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortedBy(signal.reason));
        return;
      }
      if (ms <= 0) {
        resolve();
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortedBy(signal?.reason));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, {once: true});
    }),
};

/** The reason a raced wait's losers are stopped with: one value, not an error made each time. */
export const RACE_OVER = Object.freeze(new DOMException('the race is over', 'AbortError'));

/** What an aborted sleep rejects with: its signal's reason when that is an abort already (as
 * made by AbortController, or RACE_OVER), else an AbortError caused by it (as node:timers'
 * promises do), so that every stop reads as an abort. */
function abortedBy(reason: unknown): unknown {
  if (reason instanceof Error && (reason.name === 'AbortError' || reason.name === 'TimeoutError'))
    return reason;
  return new DOMException('The operation was aborted', {name: 'AbortError', cause: reason});
}

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
    stop.abort(RACE_OVER);
  }
  signal.throwIfAborted();
}
