import {sleepOrWoken} from '../base/clock.js';
import type {PaneActivity} from '../tmux/activity.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {Tmux} from '../tmux/tmux.js';
import {
  ending,
  type LoopState,
  noteFollowing,
  stallEnds,
  takeView,
  type WaitOptions,
  type WaitResult,
} from './wait-look.js';
import {CHANGING, type EventFacts, type Watcher} from './watchers.js';

// The event-driven half of waitUntil (src/detect/wait-until.ts): when output events come
// (the control-mode transport), views are taken when the events say they can tell something.

/** After output, a read waits until the pane has been quiet this long (the rest of a burst
 * lands in the same read); while output keeps flowing, one interval after it began. */
export const READ_DEBOUNCE_MS = 50;
/** With output events, check this often that the pane still exists when no event said that
 * panes came or went (a closed pane prints nothing; its window's layout change or close is
 * the event). A backstop only: a look every second was most of what a quiet wait cost. */
const PANE_CHECK_MS = 10_000;
/**
 * With output events, a quiet pane's screen cannot change (output wakes the wait at once), so
 * looks while it is quiet are for what the screen does not show: a command's process ending
 * or starting to read, an agent's own record. They come an interval after the last, then two,
 * four… intervals on, at most this far apart, and start again at one interval after output.
 * A pane quiet for an hour then costs a look every few seconds, not every second. With the
 * stall watchdog on, every interval (it times what it sees).
 */
export const QUIET_LOOK_MAX_MS = 8_000;

/** How long after the previous look the next look at a quiet pane comes: one interval, then
 * doubling with each quiet look in a row, up to QUIET_LOOK_MAX_MS (never under an interval). */
export function quietLookGap(intervalMs: number, quietLooks: number, stall: boolean): number {
  if (stall) return intervalMs;
  const cap = Math.max(intervalMs, QUIET_LOOK_MAX_MS);
  return Math.min(cap, intervalMs * 2 ** Math.min(quietLooks, 16));
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
export async function waitOnEvents(
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
  // A wait for a quiet window hears a busy pane only when it goes quiet, one that only looks
  // for patterns when a match may show; the rest every second it changes
  // (src/tmux/follow-format.ts).
  const searches = quietWindowMs === undefined && !opts.stall ? watcher.searches : undefined;
  const release = activity.hold(
    paneId,
    quietWindowMs !== undefined ? 'lull' : searches ? {searches} : 'changes',
  );
  try {
    return await (quietWindowMs !== undefined ? waitQuiet(kit, quietWindowMs) : waitReading(kit));
  } finally {
    release();
  }
}

/** What the two event loops share: the wait's clock, signal and sleeps, and one look. */
type EventKit = ReturnType<typeof eventKit>;

function eventKit(...args: Parameters<typeof waitOnEvents>) {
  const [tmux, paneId, watcher, opts, activity, deadline, state] = args;
  const {clock, intervalMs} = opts;
  const typedAt = opts.typedAt ?? clock.now();
  const sleeps = eventSleeps(...args);

  /** Look at the pane; the result if the watcher has decided. */
  const look = async (): Promise<WaitResult | undefined> => {
    noteFollowing(state, activity, paneId);
    const view = await takeView(tmux, paneId, watcher, state, opts.foreground);
    // Read after the view: output while it was taken may or may not be in it, so the
    // screen is only known to be unchanged since the latest output.
    const lastOutput = activity.lastOutputAt(paneId);
    const facts: EventFacts = {
      at: clock.now(),
      quietSince: Math.max(lastOutput ?? Number.NEGATIVE_INFINITY, typedAt),
      typedAt,
      printedSinceTyped: activity.printedAfter(paneId, typedAt),
      intervalMs,
    };
    state.verdict = watcher.observeEvents?.(view, facts) ?? watcher.observe(view);
    if (state.verdict.status !== 'pending') return ending(state.verdict.status, state, 'events');
    return (await stallEnds(opts, view, state, lastOutput))
      ? ending('timeout', state, 'events')
      : undefined;
  };

  return {
    ...sleeps,
    clock,
    signal: opts.signal,
    intervalMs,
    typedAt,
    paneId,
    activity,
    deadline,
    state,
    look,
    /** The next quiet look's gap after `quietLooks` quiet looks in a row (quietLookGap). */
    quietGap: (quietLooks: number) => quietLookGap(intervalMs, quietLooks, !!opts.stall),
  };
}

/** How an event loop sleeps: until a time, or output, or the events' end, or panes coming or
 * going (then making sure its pane is still there). */
function eventSleeps(
  ...[tmux, paneId, , opts, activity, deadline]: Parameters<typeof waitOnEvents>
) {
  const {clock, signal, intervalMs} = opts;

  const sleepUntil = (at: number, wake: (s: AbortSignal) => Promise<void>) =>
    sleepOrWoken({clock, signal, nudge: opts.wake}, Math.min(at, deadline), wake);
  let layoutChanged = false;
  /** The end of events, or a sign that panes came or went (wasLayout says which). */
  const untilEndedOrLayout = async (s: AbortSignal): Promise<void> => {
    await Promise.race([
      activity.ended(s),
      activity.layoutChanged(s).then(() => {
        // (layoutChanged resolves at the end of events too: that is not panes moving.)
        layoutChanged = !activity.isEnded;
      }),
    ]);
  };
  /** Throw if the pane is gone. */
  const checkPane = async () => {
    if (!(await tmux.describePane(paneId))) {
      throw new TmuxCommandError('no-target', '', `pane ${paneId} is gone`);
    }
  };
  /** Sleep until `at` (or the end of events, or `orWhen`: 'when'), making sure the pane still
   * exists whenever panes came or went, and every PANE_CHECK_MS at least: a pane closed while
   * quiet prints nothing, so no output event would ever say so. */
  const sleepWatchingPane = async (
    at: number,
    orWhen?: (s: AbortSignal) => Promise<void>,
    /** Return 'nudged' when news from outside the screen comes (a turn-end hook mark). */
    nudges = false,
  ): Promise<'slept' | 'woken' | 'when' | 'nudged'> => {
    let when = false;
    const wake = orWhen
      ? (s: AbortSignal) =>
          Promise.race([
            untilEndedOrLayout(s),
            orWhen(s).then(() => {
              when = true;
            }),
          ])
      : untilEndedOrLayout;
    for (;;) {
      const until = Math.min(at, clock.now() + Math.max(intervalMs, PANE_CHECK_MS));
      layoutChanged = false;
      const woke = await sleepUntil(until, wake);
      if (woke === 'woken' && when && !activity.isEnded) return 'when';
      if (woke === 'woken' && !layoutChanged) return 'woken';
      if (woke === 'nudged') {
        if (nudges) return 'nudged';
        continue;
      }
      if (!layoutChanged && clock.now() >= Math.min(at, deadline)) return 'slept';
      await checkPane();
    }
  };
  return {
    sleepUntil,
    sleepWatchingPane,
    untilEnded: (s: AbortSignal) => activity.ended(s),
    untilOutput: (s: AbortSignal) => activity.nextOutput(paneId, s),
    untilEndedOrLayout,
    checkPane,
    /** Whether the last wake-up was panes coming or going (read once: it resets). */
    wasLayout: () => {
      const was = layoutChanged;
      layoutChanged = false;
      return was;
    },
  };
}

/** `--until stable` without masks: one look after each quiet window (see waitOnEvents). */
async function waitQuiet(k: EventKit, quietWindowMs: number): Promise<WaitResult | undefined> {
  const {clock, signal, typedAt, paneId, activity, deadline, state} = k;
  const {sleepUntil, sleepWatchingPane, untilOutput, look} = k;
  /** Not-done looks in a row with no output between them, and the output the last one saw. */
  let quietLooks = 0;
  let lookedOutput: number | undefined | null = null;
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
      // One wake-up per window, however much the pane prints meanwhile; for a pane followed
      // by its checks, also when it is heard again (its last change then known exactly).
      const woke = await sleepWatchingPane(
        quietEnd,
        activity.followed(paneId) ? (s) => activity.settled(paneId, s) : undefined,
        true,
      );
      if (woke === 'woken') return undefined;
      // A turn-end hook mark: the watcher may decide on it before the window ends.
      if (woke === 'nudged') {
        const decided = await look();
        if (decided) return decided;
      }
      continue;
    }
    // Quiet for the window, as far as the events know: they may still follow a busy pane by
    // its checks (src/tmux/pane-hearing.ts), which first hear it again (within two checks of
    // its going quiet); then look again.
    noteFollowing(state, activity, paneId);
    const settled = await sleepUntil(deadline, (s) => activity.settled(paneId, s));
    if (settled === 'slept') {
      state.verdict = {status: 'pending', why: CHANGING};
      return ending('timeout', state, 'events');
    }
    if (settled === 'nudged' || activity.lastOutputAt(paneId) !== lastOutput) continue;
    // Quiet for the window. Trust it only while the pane is in reach (its window may have
    // moved to another session, whose output we do not hear).
    if (!(await activity.covers(paneId))) return undefined;
    const decided = await look();
    if (decided) return decided;
    // It printed while we looked: a new window.
    if (activity.lastOutputAt(paneId) !== lastOutput) {
      quietLooks = 0;
      continue;
    }
    // Quiet, but not done (no reaction yet, or a command still in the foreground): look
    // again an interval on (then further apart while it stays quiet: quietLookGap), or after
    // the next output's window.
    quietLooks = lastOutput === lookedOutput ? quietLooks + 1 : 1;
    lookedOutput = lastOutput;
    const again = clock.now() + k.quietGap(quietLooks - 1);
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
  /** Looks in a row with no output between them (quietLookGap), and what the last one read. */
  let quietLooks = 0;
  let lastReadFrom: number | undefined | null = null;
  /** Output, the end of events, or panes coming or going. */
  const untilNews = (s: AbortSignal) => Promise.race([untilOutput(s), k.untilEndedOrLayout(s)]);
  for (;;) {
    signal.throwIfAborted();
    if (activity.isEnded) return undefined;
    const readFrom = activity.lastOutputAt(paneId);
    quietLooks = readFrom === lastReadFrom ? quietLooks + 1 : 0;
    lastReadFrom = readFrom;
    const decided = await look();
    if (decided) return decided;
    const lookedAt = clock.now();
    unreadSince = undefined;
    // When to look next: after output settles, or (quietLookGap) on if the pane stays quiet.
    for (;;) {
      if (activity.isEnded) return undefined;
      const lastOutput = activity.lastOutputAt(paneId);
      const unread = lastOutput !== undefined && (readFrom === undefined || lastOutput > readFrom);
      const now = clock.now();
      let next: number;
      if (unread && activity.followed(paneId)) {
        // A report of a pane followed by its checks is the whole second's change: no burst
        // to wait out.
        break;
      }
      if (unread) {
        unreadSince ??= now;
        next = Math.min(lastOutput + READ_DEBOUNCE_MS, (unreadSince ?? now) + intervalMs);
      } else {
        // A followed pane reports each second it changes: a quiet look comes only once a
        // report is missed (two intervals on), never racing the next report.
        next = lookedAt + k.quietGap(quietLooks + (activity.followed(paneId) ? 1 : 0));
      }
      if (next >= deadline) {
        // No look on or after the deadline; but output before it may still bring one on.
        const woke = await sleepUntil(deadline, unread ? untilEnded : untilNews);
        if (woke === 'nudged') break;
        if (woke === 'woken') {
          if (k.wasLayout()) await k.checkPane();
          continue;
        }
        return ending('timeout', state, 'events');
      }
      if (next <= now) break;
      const woke = await sleepUntil(next, unread ? untilEnded : untilNews);
      if (woke === 'nudged') break; // news from a hook: look now
      if (woke === 'slept' && !unread) break; // quiet for a while: look
      // Panes came or went: is ours still there? (A look would say, but not before its time.)
      if (woke === 'woken' && k.wasLayout()) await k.checkPane();
      // Woken by output (or by the end of events), or the debounce ran out: reconsider.
    }
  }
}
