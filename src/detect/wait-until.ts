import {sleepOrWake} from '../base/clock.js';
import type {Tmux} from '../tmux/tmux.js';
import {waitOnEvents} from './wait-events.js';
import {
  ending,
  type LoopState,
  PENDING,
  stallEnds,
  takeView,
  type WaitOptions,
  type WaitResult,
} from './wait-look.js';
import type {Watcher} from './watchers.js';

export type {PaneActivity} from '../tmux/activity.js';
export type {WaitOptions, WaitResult} from './wait-look.js';

/**
 * Watch pane `paneId` and feed views to `watcher` until it says done or failed, or
 * `timeoutMs` passes. The watcher decides; this loop owns time and cancellation. Throws
 * TmuxCommandError if the pane or server goes away, AbortError when `signal` fires.
 *
 * Without `activity`: a view every `intervalMs`. With it (the control-mode transport), views
 * are taken when output events say they can tell something (see waitOnEvents); the loop falls
 * back to polling when the pane is out of the events' reach or the event source ends.
 */
export async function waitUntil(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  opts: WaitOptions,
): Promise<WaitResult> {
  const deadline = opts.clock.now() + opts.timeoutMs;
  const state: LoopState = {checks: 0, verdict: PENDING, lastScreen: ''};
  const activity = opts.activity;
  if (activity && (await activity.covers(paneId))) {
    const ended = await waitOnEvents(tmux, paneId, watcher, opts, activity, deadline, state);
    if (ended) return ended;
  }
  return pollUntil(tmux, paneId, watcher, opts, deadline, state);
}

/** The polling loop: a view every interval until the watcher decides or the deadline. */
async function pollUntil(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  opts: WaitOptions,
  deadline: number,
  state: LoopState,
): Promise<WaitResult> {
  const {clock, signal} = opts;
  for (;;) {
    signal.throwIfAborted();
    const view = await takeView(tmux, paneId, watcher, state, opts.foreground);
    state.verdict = watcher.observe(view);
    if (state.verdict.status !== 'pending') return ending(state.verdict.status, state, 'polling');
    if (await stallEnds(opts, view, state, undefined)) return ending('timeout', state, 'polling');
    const remaining = deadline - clock.now();
    if (remaining <= 0) return ending('timeout', state, 'polling');
    await sleepOrWake(clock, Math.min(opts.intervalMs, remaining), signal, opts.wake);
    // No check at the deadline: one taken less than an interval after the previous one
    // would compare two screens a few ms apart and call a busy spinner "stable".
    if (clock.now() >= deadline) return ending('timeout', state, 'polling');
  }
}
