import type {PaneSwitches} from './control-switches.js';
import type {FollowFormat, FollowNeed} from './follow-format.js';

// What src/tmux/pane-hearing.ts keeps of each pane it hears.

/**
 * How a pane is heard (see PaneHearing):
 *
 * - **heard**: output on, each `%output` noted to the millisecond (what the stability window
 *   and the notice's latency rest on). A pane a job holds starts here.
 * - **followed**: a held pane that has printed without a pause of BUSY_GAP_MS for
 *   COARSE_AFTER_MS, at least COARSE_MIN_RATE times a second: its output paused for us and a
 *   format subscription instead, which tmux checks once a second and reports only when it
 *   changed. A change reported by a check counts as made at the check (the latest it can have
 *   been), so a wait may call the pane quiet later than it was, never sooner. What the format
 *   reads follows what the pane's waits need (src/tmux/follow-format.ts): its changes, or —
 *   when they only look for patterns — tmux's own search for them ("sparse": a report only
 *   when a match may show).
 * - **trailing**: a check came without a change (tmux reports none), so the pane may have gone
 *   quiet: output on again, and the subscription kept for one more check, which reports a
 *   change made between the silent check and output coming back. Then heard. Only a wait
 *   that must know the quiet exactly (a stability window) looks for that silence
 *   (`onSettled`); for the rest a followed pane that went quiet stays followed, and costs
 *   nothing more until it prints again.
 * - **muted**: a pane no job holds, paused for us at its first output (agents working beside a
 *   job's pane cost it one event each, not their whole stream).
 */
export type Mode = 'heard' | 'followed' | 'trailing' | 'muted';

export interface PaneState {
  holds: number;
  /** What each hold with a need asks of the subscription (follow-format.ts). */
  needs: Map<symbol, FollowNeed>;
  mode: Mode;
  /** What the pane is subscribed to, while followed or trailing. */
  format: FollowFormat | undefined;
  /** Whether a search matched a row at the last report (undefined: none yet). */
  matchShown: boolean | undefined;
  /** The latest the pane's last change can have been (ms). */
  changedAt: number | undefined;
  /** A time its last change surely came after. */
  changedAfter: number | undefined;
  /** The busy run being heard: its first and last output, and how many. */
  run: {start: number; last: number; events: number} | undefined;
  /** The last check that reported a change: when it came, and the second it read. */
  tick: {at: number; second: number} | undefined;
  /** When following began, or the last check came. */
  checkedAt: number;
  /** When following began. */
  followedSince: number;
  /** When output came back (trailing). */
  trailingSince: number;
  timer: NodeJS.Timeout | undefined;
}

export function newState(mode: Mode): PaneState {
  return {
    holds: 0,
    needs: new Map(),
    mode,
    format: undefined,
    matchShown: undefined,
    changedAt: undefined,
    changedAfter: undefined,
    run: undefined,
    tick: undefined,
    checkedAt: 0,
    followedSince: 0,
    trailingSince: 0,
    timer: undefined,
  };
}

/** What the hearing needs of its control client. */
export interface HearingPort {
  switches: Pick<PaneSwitches, 'setOutput' | 'subscribe' | 'unsubscribe' | 'windowActivity'>;
  /** Wall-clock ms (the checks' seconds are compared with it). */
  now(): number;
}

/** The listeners' key for "`paneId` settled" (beside its own key, for its changes). */
export function settledKey(paneId: string): string {
  return `settled ${paneId}`;
}

/** The subscription that follows `paneId` (`%23` → `nudge-23`). */
export function subscriptionName(paneId: string): string {
  return `nudge-${paneId.slice(1)}`;
}

/** A pane printing with gaps shorter than this is one busy run. */
export const BUSY_GAP_MS = 1_000;
/** A busy run this long is followed by subscription instead of heard… */
export const COARSE_AFTER_MS = 5_000;
/** …if it printed at least this often (outputs a second); a pane printing once a second costs
 * what a subscription does. */
export const COARSE_MIN_RATE = 1.5;
/** tmux checks a client's subscriptions once a second (control_check_subs_timer). */
export const TICK_MS = 1_000;
/** How late a check may be before its silence counts as "no change". */
export const TICK_SLACK_MS = 250;
/** How far apart, at most, a long-followed pane is looked at for its silence. */
export const SILENCE_LOOK_MAX_MS = 3_000;
/** How long a check's report may take to reach us (for the same-second rule). */
export const ARRIVAL_MARGIN_MS = 250;
