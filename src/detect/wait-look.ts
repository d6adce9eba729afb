import {setTimeout as sleep} from 'node:timers/promises';
import type {Clock} from '../base/clock.js';
import type {PaneActivity} from '../tmux/activity.js';
import type {FollowKind} from '../tmux/follow-format.js';
import type {Tmux} from '../tmux/tmux.js';
import {PaneDied, type PaneView, visibleText} from '../tmux/view.js';
import {describeStall, type Stall, type StallHook} from './stall.js';
import type {ForegroundWatch, Verdict, Watcher} from './watchers.js';

// What a wait's two loops share (src/detect/wait-until.ts polls, src/detect/wait-events.ts
// follows output events): its options and result, its state, and one look at the pane.

/** How a wait ended. */
export interface WaitResult {
  /** `unknown`: the watcher asked to end where nothing can tell (see Verdict). */
  status: 'done' | 'timeout' | 'failed' | 'blocked' | 'unknown';
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
  /** How the busy pane was followed while the wait looked (src/tmux/follow-format.ts), if it
   * was. */
  followedBy?: FollowKind[] | undefined;
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

export const PENDING: Verdict = {status: 'pending', why: 'not checked yet'};

/** What the loops share, so a wait that falls back to polling carries on counting. */
export interface LoopState {
  checks: number;
  verdict: Verdict;
  lastScreen: string;
  stalled?: Stall | undefined;
  /** How the pane was seen followed (WaitResult.followedBy). */
  followedBy?: Set<FollowKind>;
}

/**
 * Feed a look that did not end the wait to the stall watchdog; true when the stall it found
 * ends the wait (`--on-stall cancel`), with the verdict saying so.
 */
export async function stallEnds(
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

/** Take one view (reaching back further when output scrolled past) and count it; a dead pane
 * throws PaneDied. */
export async function takeView(
  tmux: Tmux,
  paneId: string,
  watcher: Watcher,
  state: LoopState,
  foreground: ForegroundWatch | undefined,
): Promise<PaneView> {
  if (watcher.readsForeground !== false) await foreground?.refresh();
  let view = await livingView(tmux, paneId, watcher.historyRows);
  // Output can scroll far between two checks: capture again, reaching back further.
  const missing = watcher.missingRows?.(view) ?? 0;
  if (missing > 0) view = await tmux.view(paneId, watcher.historyRows + missing);
  await watcher.prepare?.(view);
  state.checks++;
  state.lastScreen = visibleText(view);
  return view;
}

/**
 * A view of a pane whose program still runs. One kept after its program exited
 * (`remain-on-exit`) shows that program's last screen forever: PaneDied, with the status tmux
 * knows once it reaped the program — a moment after it marks the pane dead, so it is looked for
 * twenty times 50 ms apart (a program ended by a signal has none).
 */
async function livingView(tmux: Tmux, paneId: string, rows: number): Promise<PaneView> {
  let view = await tmux.view(paneId, rows);
  for (let look = 0; view.dead && view.deadStatus === undefined && look < 20; look++) {
    await sleep(50);
    view = await tmux.view(paneId, rows);
  }
  if (view.dead) throw new PaneDied(paneId, view.deadStatus);
  return view;
}

export function ending(
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
    ...(state.followedBy?.size ? {followedBy: [...state.followedBy].sort()} : {}),
  };
}

/** Note how the events follow `paneId` now, if they do (WaitResult.followedBy). */
export function noteFollowing(state: LoopState, activity: PaneActivity, paneId: string): void {
  const kind = activity.followedAs(paneId);
  if (!kind) return;
  state.followedBy ??= new Set();
  state.followedBy.add(kind);
}

/** A wait whose watcher never ends as `unknown` (only `nudge wait`'s asks to: endOnUnknown),
 * typed so; an `unknown` here is a bug, said as one. */
export function knownEnding(
  r: WaitResult,
): WaitResult & {status: Exclude<WaitResult['status'], 'unknown'>} {
  if (r.status === 'unknown' || r.verdict.status === 'unknown') {
    const why = r.verdict.status === 'unknown' ? r.verdict.why : r.status;
    throw new Error(`Internal error: a wait that cannot be unknown ended unknown (${why})`);
  }
  return r as WaitResult & {status: Exclude<WaitResult['status'], 'unknown'>};
}
