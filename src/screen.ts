/** One look at a pane: its visible text and where the cursor is. */
export interface Snapshot {
  /** `capture-pane -p` of the visible screen (trailing spaces trimmed by tmux). */
  text: string;
  cursorX: number;
  cursorY: number;
}

/** The comparison key of a snapshot: text plus cursor position (a prompt that moves without
 * changing text still counts as change). */
export function snapshotKey(s: Snapshot): string {
  return `${s.cursorX},${s.cursorY}\n${s.text}`;
}

/** State of the "N consecutive identical captures" test. */
export interface StabilityState {
  lastKey: string | undefined;
  identical: number;
}

/** The state before any capture. */
export const INITIAL_STABILITY: StabilityState = {lastKey: undefined, identical: 0};

/** Fold one capture into the state: `identical` counts the run of equal captures ending here. */
export function observeSnapshot(state: StabilityState, key: string): StabilityState {
  return key === state.lastKey
    ? {lastKey: key, identical: state.identical + 1}
    : {lastKey: key, identical: 1};
}

/** Stable when the last `requiredChecks` captures were identical. */
export function isStable(state: StabilityState, requiredChecks: number): boolean {
  return state.identical >= requiredChecks;
}
