/**
 * Time as nudge sees it; tests swap in a fake. Two clocks (issue 62): every duration nudge
 * measures — timeouts, deadlines, stability windows, stalls, leases, `waitedMs` — runs on
 * `now()`, which never steps; the wall clock (`wall()`), which NTP, a VM resumed or a person can
 * step by hours, is only shown, written for other processes, and compared with what they wrote
 * (a record's `createdAt`, a file's mtime, a usage limit's reset time).
 */
export interface Clock {
  /** Milliseconds on the monotonic clock, counted from the wall time this process started:
   * for durations within this process only. */
  now(): number;
  /** Milliseconds since the epoch, as the wall clock says now. */
  wall(): number;
  /** Resolve after `ms`, or reject with an AbortError when `signal` fires. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The wall clock and real timers. A sleep ended early rejects with its signal's reason when
 * that is an abort (no new error: a wait ends a raced sleep every time it is woken, for
 * hours), else with an AbortError caused by it. */
export const realClock: Clock = {
  now: () => Math.floor(performance.timeOrigin + performance.now()),
  wall: () => Date.now(),
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

/** The wall time of `monoMs`, a moment on `clock.now()`, for showing it or writing it where
 * another process reads it. */
export function wallOf(clock: Clock, monoMs: number): number {
  return monoMs + clock.wall() - clock.now();
}

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
  await sleepOrWoken({clock, signal}, clock.now() + ms, wake);
  signal.throwIfAborted();
}

/** Sleep until `at` on the clock's monotonic time; wake early when `wake` resolves
 * ('woken'), or when `nudge` does ('nudged'). Aborted, it rejects. */
export async function sleepOrWoken(
  {
    clock,
    signal,
    nudge,
  }: {
    clock: Clock;
    signal: AbortSignal;
    nudge?: ((s: AbortSignal) => Promise<void>) | undefined;
  },
  at: number,
  wake: (s: AbortSignal) => Promise<void>,
): Promise<'slept' | 'woken' | 'nudged'> {
  // Aborted already, no abort event would come to end the race.
  signal.throwIfAborted();
  // One controller ends the loser of the race, and both when the wait is cancelled. (Not
  // AbortSignal.any: a wait makes one of these per window or read, for hours.)
  const stop = new AbortController();
  const cancel = () => stop.abort(signal.reason);
  signal.addEventListener('abort', cancel, {once: true});
  try {
    return await Promise.race([
      clock.sleep(at - clock.now(), stop.signal).then(() => 'slept' as const),
      wake(stop.signal).then(() => 'woken' as const),
      ...(nudge ? [nudge(stop.signal).then(() => 'nudged' as const)] : []),
    ]);
  } finally {
    signal.removeEventListener('abort', cancel);
    stop.abort(RACE_OVER);
  }
}
