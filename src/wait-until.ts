import type {Clock} from './clock.js';
import {type PaneView, visibleText} from './pane-view.js';
import type {Tmux} from './tmux/tmux.js';
import type {Verdict, Watcher} from './watch.js';

/** Push signals about a pane's output (the control-mode transport provides them). */
export interface PaneActivity {
  /** When pane `paneId` last printed anything (ms, the same clock as the wait), if known. */
  lastOutputAt(paneId: string): number | undefined;
  /** Resolves at the pane's next output, or rejects with an AbortError when `signal` fires. */
  nextOutput(paneId: string, signal: AbortSignal): Promise<void>;
}

/** How a wait ended. */
export interface WaitResult {
  status: 'done' | 'timeout' | 'failed';
  /** The watcher's final verdict (match, line, exit code, fail pattern). */
  verdict: Verdict;
  /** Number of checks taken. */
  checks: number;
  /** The last visible screen seen. */
  lastScreen: string;
}

/**
 * Look at pane `paneId` every `intervalMs` and feed each view to `watcher` until it says
 * done or failed, or `timeoutMs` passes. The watcher decides; this loop owns time and
 * cancellation. Throws TmuxCommandError if the pane or server goes away, AbortError when
 * `signal` fires.
 */
export async function waitUntil(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  opts: {
    intervalMs: number;
    timeoutMs: number;
    clock: Clock;
    signal: AbortSignal;
    /** Output events of the pane, when the transport has them (else: plain polling). */
    activity?: PaneActivity | undefined;
    /** When we last sent keys to the pane (our own echo is output too). */
    typedAt?: number | undefined;
  },
): Promise<WaitResult> {
  const {clock, signal} = opts;
  const deadline = clock.now() + opts.timeoutMs;
  let checks = 0;
  for (;;) {
    signal.throwIfAborted();
    let view: PaneView = await tmux.view(paneId, watcher.historyRows);
    // Output can scroll far between two checks: capture again, reaching back further.
    const missing = watcher.missingRows?.(view) ?? 0;
    if (missing > 0) view = await tmux.view(paneId, watcher.historyRows + missing);
    checks++;
    const verdict = watcher.observe(view);
    const lastScreen = visibleText(view);
    if (verdict.status !== 'pending') return {status: verdict.status, verdict, checks, lastScreen};
    const remaining = deadline - clock.now();
    if (remaining <= 0) return {status: 'timeout', verdict, checks, lastScreen};
    await clock.sleep(Math.min(opts.intervalMs, remaining), signal);
    // No check at the deadline: one taken less than an interval after the previous one
    // would compare two screens a few ms apart and call a busy spinner "stable".
    if (clock.now() >= deadline) return {status: 'timeout', verdict, checks, lastScreen};
  }
}
