import type {Clock} from './clock.js';
import {INITIAL_STABILITY, isStable, observeSnapshot, snapshotKey} from './screen.js';
import type {Tmux} from './tmux/tmux.js';

/** How the wait ended. */
export interface StableWaitResult {
  status: 'stable' | 'timeout';
  /** Number of captures taken. */
  captures: number;
  /** The last screen seen. */
  lastScreen: string;
}

/**
 * Capture pane `paneId` every `intervalMs` until `stableChecks` consecutive captures (screen
 * text plus cursor) are identical, or `timeoutMs` passes. A spinner or clock keeps the pane
 * "changing", which is what we want: it means busy. Throws TmuxCommandError if the pane or
 * server goes away, AbortError when `signal` fires.
 */
export async function waitUntilStable(
  tmux: Tmux,
  paneId: string,
  opts: {
    intervalMs: number;
    stableChecks: number;
    timeoutMs: number;
    clock: Clock;
    signal: AbortSignal;
  },
): Promise<StableWaitResult> {
  const {clock, signal} = opts;
  const deadline = clock.now() + opts.timeoutMs;
  let state = INITIAL_STABILITY;
  let captures = 0;
  for (;;) {
    signal.throwIfAborted();
    const snapshot = await tmux.capture(paneId);
    captures++;
    state = observeSnapshot(state, snapshotKey(snapshot));
    if (isStable(state, opts.stableChecks))
      return {status: 'stable', captures, lastScreen: snapshot.text};
    const remaining = deadline - clock.now();
    if (remaining <= 0) return {status: 'timeout', captures, lastScreen: snapshot.text};
    await clock.sleep(Math.min(opts.intervalMs, remaining), signal);
  }
}
