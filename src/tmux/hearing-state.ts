import type {FollowFormat, FollowNeed} from './follow-format.js';

// What src/tmux/pane-hearing.ts keeps of each pane it hears.

/** How a pane is heard (see PaneHearing). */
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
