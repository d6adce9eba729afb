import {type Clock, sleepOrWake} from '../base/clock.js';
import type {PaneActivity} from '../tmux/activity.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {Tmux} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import {describeStall, type Stall, type StallHook} from './stall.js';
import {
  CHANGING,
  type EventFacts,
  type ForegroundWatch,
  type Verdict,
  type Watcher,
} from './watchers.js';

export type {PaneActivity} from '../tmux/activity.js';

/** How a wait ended. */
export interface WaitResult {
  status: 'done' | 'timeout' | 'failed' | 'blocked';
  /** The watcher's final verdict (match, line, exit code, fail pattern). */
  verdict: Verdict;
  /** Number of checks (screen reads) taken. */
  checks: number;
  /** The last visible screen seen. */
  lastScreen: string;
  /** How the pane was watched: by output events, or by polling (no events, the pane out of
   * their reach, or the event source ended during the wait). */
  watchedBy: 'events' | 'polling';
  /** The wait ended on a stall (`--on-stall cancel`): which. */
  stalled?: Stall | undefined;
}

/** Options of waitUntil. */
export interface WaitOptions {
  intervalMs: number;
  timeoutMs: number;
  clock: Clock;
  signal: AbortSignal;
  /** Read again before each look: what the pane's foreground is doing (the watcher's
   * liveness reads it). */
  foreground?: ForegroundWatch | undefined;
  /** Output events of the pane, when the transport has them (else: plain polling). */
  activity?: PaneActivity | undefined;
  /** When we last sent keys to the pane (our own echo is output too). Default: now. */
  typedAt?: number | undefined;
  /** Resolves when news from outside the screen (an agent's turn-end hook) makes a look
   * worthwhile now rather than at the next interval. */
  wake?: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** The stall watchdog (`--stall`): fed every look that did not end the wait. */
  stall?: StallHook | undefined;
}

/** After output, a read waits until the pane has been quiet this long (the rest of a burst
 * lands in the same read); while output keeps flowing, one interval after it began. */
export const READ_DEBOUNCE_MS = 50;
/** While waiting out a long quiet window, check this often that the pane still exists. */
const PANE_CHECK_MS = 1_000;

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

const PENDING: Verdict = {status: 'pending', why: 'not checked yet'};

/** What the loops share, so a wait that falls back to polling carries on counting. */
interface LoopState {
  checks: number;
  verdict: Verdict;
  lastScreen: string;
  stalled?: Stall | undefined;
}

/**
 * Feed a look that did not end the wait to the stall watchdog; true when the stall it found
 * ends the wait (`--on-stall cancel`), with the verdict saying so.
 */
async function stallEnds(
  opts: WaitOptions,
  view: PaneView,
  state: LoopState,
  lastOutputMs: number | undefined,
): Promise<boolean> {
  const hook = opts.stall;
  if (!hook) return false;
  const change = hook.watch.observe({
    view,
    nowMs: opts.clock.now(),
    lastOutputMs,
    dialog: hook.dialogIn(view),
    busy: hook.busyIn(view),
  });
  if (!change) return false;
  if ('over' in change) {
    await hook.over(change.over.stall, change.over.lastedMs);
    return false;
  }
  if ((await hook.began(change.began, view)) === 'go-on') return false;
  state.stalled = change.began;
  state.verdict = {
    status: 'pending',
    why: `stalled: ${describeStall(change.began)}`,
  };
  return true;
}

/** Take one view (reaching back further when output scrolled past) and count it. */
async function takeView(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  state: LoopState,
  foreground: ForegroundWatch | undefined,
): Promise<PaneView> {
  await foreground?.refresh();
  let view: PaneView = await tmux.view(paneId, watcher.historyRows);
  // Output can scroll far between two checks: capture again, reaching back further.
  const missing = watcher.missingRows?.(view) ?? 0;
  if (missing > 0) view = await tmux.view(paneId, watcher.historyRows + missing);
  await watcher.prepare?.(view);
  state.checks++;
  state.lastScreen = visibleText(view);
  return view;
}

function ending(
  status: WaitResult['status'],
  state: LoopState,
  watchedBy: WaitResult['watchedBy'],
): WaitResult {
  return {
    status,
    verdict: state.verdict,
    checks: state.checks,
    lastScreen: state.lastScreen,
    watchedBy,
    ...(state.stalled ? {stalled: state.stalled} : {}),
  };
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

/**
 * The event-driven loop. Resolves to the wait's result, or to undefined when the events
 * stopped (the control client ended) or the pane left their reach: the caller then polls
 * for the rest of the time, with the watcher's state as it is.
 *
 * Two ways to decide when to look:
 * - The watcher has a quiet window (`--until stable` without masks): only output changes
 *   the screen, so "nothing printed for the window" is known from output times to the
 *   millisecond. The loop sleeps until the window after the last output (or after our
 *   keys) ends, then takes one view to confirm (reaction gate, process liveness). No views
 *   at all while output keeps flowing. If the confirmation says not yet (a quiet command
 *   still in the foreground), it looks again at each interval or after the next output.
 * - Otherwise (regex, exit, prompt, masked stable): a view once the pane has been quiet for
 *   READ_DEBOUNCE_MS after output (or one interval after the output began, if it keeps
 *   flowing), and one every interval while the pane is quiet.
 *
 * As when polling, nothing is looked at on or after the deadline.
 */
async function waitOnEvents(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  opts: WaitOptions,
  activity: PaneActivity,
  deadline: number,
  state: LoopState,
): Promise<WaitResult | undefined> {
  const kit = eventKit(tmux, paneId, watcher, opts, activity, deadline, state);
  // The stall watchdog reads the screen while output flows (a spinner turning is not work):
  // with it, the wait looks after output and every interval, never only after quiet windows.
  const quietWindowMs = opts.stall ? undefined : watcher.quietWindowMs?.(opts.intervalMs);
  return quietWindowMs !== undefined ? waitQuiet(kit, quietWindowMs) : waitReading(kit);
}

/** What the two event loops share: the wait's clock, signal and sleeps, and one look. */
type EventKit = ReturnType<typeof eventKit>;

function eventKit(
  ...[tmux, paneId, watcher, opts, activity, deadline, state]: Parameters<typeof waitOnEvents>
) {
  const {clock, signal, intervalMs} = opts;
  const typedAt = opts.typedAt ?? clock.now();

  /** Sleep until `at` (capped at the deadline); wake early when `wake` resolves, or when
   * `opts.wake` does ('nudged': look now). */
  const sleepUntil = async (
    at: number,
    wake: (s: AbortSignal) => Promise<void>,
  ): Promise<'slept' | 'woken' | 'nudged'> => {
    signal.throwIfAborted();
    // One controller ends the loser of the race, and both when the wait is cancelled. (Not
    // AbortSignal.any: a wait makes one of these per window or read, for hours.)
    const stop = new AbortController();
    const cancel = () => stop.abort(signal.reason);
    signal.addEventListener('abort', cancel, {once: true});
    try {
      return await Promise.race([
        clock.sleep(Math.min(at, deadline) - clock.now(), stop.signal).then(() => 'slept' as const),
        wake(stop.signal).then(() => 'woken' as const),
        ...(opts.wake ? [opts.wake(stop.signal).then(() => 'nudged' as const)] : []),
      ]);
    } finally {
      signal.removeEventListener('abort', cancel);
      stop.abort();
    }
  };
  const untilEnded = (s: AbortSignal) => activity.ended(s);
  /** Sleep until `at` (or the end of events), but make sure at least every
   * PANE_CHECK_MS that the pane still exists: a pane closed while quiet prints nothing, so
   * no event would ever say so. */
  const sleepWatchingPane = async (at: number): Promise<'slept' | 'woken'> => {
    for (;;) {
      const until = Math.min(at, clock.now() + Math.max(intervalMs, PANE_CHECK_MS));
      const woke = await sleepUntil(until, untilEnded);
      if (woke === 'woken') return 'woken';
      if (woke === 'nudged') continue;
      if (clock.now() >= Math.min(at, deadline)) return 'slept';
      if (!(await tmux.describePane(paneId))) {
        throw new TmuxCommandError('no-target', '', `pane ${paneId} is gone`);
      }
    }
  };
  const untilOutput = (s: AbortSignal) => activity.nextOutput(paneId, s);

  /** Look at the pane; the result if the watcher has decided. */
  const look = async (): Promise<WaitResult | undefined> => {
    const view = await takeView(tmux, paneId, watcher, state, opts.foreground);
    // Read after the view: output while it was taken may or may not be in it, so the
    // screen is only known to be unchanged since the latest output.
    const lastOutput = activity.lastOutputAt(paneId);
    const facts: EventFacts = {
      at: clock.now(),
      quietSince: Math.max(lastOutput ?? Number.NEGATIVE_INFINITY, typedAt),
      typedAt,
      printedSinceTyped: lastOutput !== undefined && lastOutput > typedAt,
      intervalMs,
    };
    state.verdict = watcher.observeEvents?.(view, facts) ?? watcher.observe(view);
    if (state.verdict.status !== 'pending') return ending(state.verdict.status, state, 'events');
    return (await stallEnds(opts, view, state, lastOutput))
      ? ending('timeout', state, 'events')
      : undefined;
  };

  return {
    clock,
    signal,
    intervalMs,
    typedAt,
    paneId,
    activity,
    deadline,
    state,
    sleepUntil,
    sleepWatchingPane,
    untilEnded,
    untilOutput,
    look,
  };
}

/** `--until stable` without masks: one look after each quiet window (see waitOnEvents). */
async function waitQuiet(k: EventKit, quietWindowMs: number): Promise<WaitResult | undefined> {
  const {clock, signal, intervalMs, typedAt, paneId, activity, deadline, state} = k;
  const {sleepUntil, sleepWatchingPane, untilOutput, look} = k;
  for (;;) {
    signal.throwIfAborted();
    if (activity.isEnded) return undefined;
    const lastOutput = activity.lastOutputAt(paneId);
    const quietEnd = Math.max(lastOutput ?? Number.NEGATIVE_INFINITY, typedAt) + quietWindowMs;
    if (quietEnd >= deadline) {
      // Not quiet long enough before the deadline (later output only moves quietEnd on).
      if ((await sleepWatchingPane(deadline)) === 'woken') return undefined;
      const printed = activity.lastOutputAt(paneId);
      state.verdict = {
        status: 'pending',
        why:
          printed !== undefined && printed > typedAt
            ? CHANGING
            : 'the timeout came before one whole stability window',
      };
      return ending('timeout', state, 'events');
    }
    if (quietEnd > clock.now()) {
      // One wake-up per window, however much the pane prints meanwhile.
      if ((await sleepWatchingPane(quietEnd)) === 'woken') return undefined;
      continue;
    }
    // Quiet for the window. Trust it only while the pane is in reach (its window may have
    // moved to another session, whose output we do not hear).
    if (!(await activity.covers(paneId))) return undefined;
    const decided = await look();
    if (decided) return decided;
    // It printed while we looked: a new window.
    if (activity.lastOutputAt(paneId) !== lastOutput) continue;
    // Quiet, but not done (no reaction yet, or a command still in the foreground): look
    // again an interval on, or after the next output's window.
    const again = clock.now() + intervalMs;
    if (again >= deadline) {
      if ((await sleepUntil(deadline, untilOutput)) === 'woken') continue;
      return ending('timeout', state, 'events');
    }
    await sleepUntil(again, untilOutput);
  }
}

/** Every other condition: a look once output settles, and one every interval while the pane
 * is quiet (see waitOnEvents). */
async function waitReading(k: EventKit): Promise<WaitResult | undefined> {
  const {clock, signal, intervalMs, paneId, activity, deadline, state} = k;
  const {sleepUntil, untilEnded, untilOutput, look} = k;
  let unreadSince: number | undefined;
  for (;;) {
    signal.throwIfAborted();
    if (activity.isEnded) return undefined;
    const readFrom = activity.lastOutputAt(paneId);
    const decided = await look();
    if (decided) return decided;
    const lookedAt = clock.now();
    unreadSince = undefined;
    // When to look next: after output settles, or an interval on if the pane stays quiet.
    for (;;) {
      if (activity.isEnded) return undefined;
      const lastOutput = activity.lastOutputAt(paneId);
      const unread = lastOutput !== undefined && (readFrom === undefined || lastOutput > readFrom);
      const now = clock.now();
      let next: number;
      if (unread) {
        unreadSince ??= now;
        next = Math.min(lastOutput + READ_DEBOUNCE_MS, (unreadSince ?? now) + intervalMs);
      } else {
        next = lookedAt + intervalMs;
      }
      if (next >= deadline) {
        // No look on or after the deadline; but output before it may still bring one on.
        const woke = await sleepUntil(deadline, unread ? untilEnded : untilOutput);
        if (woke === 'nudged') break;
        if (woke === 'woken') continue;
        return ending('timeout', state, 'events');
      }
      if (next <= now) break;
      const woke = await sleepUntil(next, unread ? untilEnded : untilOutput);
      if (woke === 'nudged') break; // news from a hook: look now
      if (woke === 'slept' && !unread) break; // quiet for an interval: look
      // Woken by output (or by the end of events), or the debounce ran out: reconsider.
    }
  }
}
