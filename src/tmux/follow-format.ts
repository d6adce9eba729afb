import {searchFormat, type TmuxSearch} from './search.js';

/**
 * What a busy pane's subscription reads while it is followed (src/tmux/pane-hearing.ts),
 * chosen by what its waits need:
 *
 * - **changes** (`CHANGE_FORMAT`): any change of the screen, to the second. A stability
 *   window, the stall watchdog, a prompt, a dialog — every wait that reads what the screen
 *   does — needs it, and gets a report every second the pane prints.
 * - **search** (`SPARSE_HEAD` and tmux's own search, src/tmux/search.ts): when every wait on
 *   the pane only looks for patterns and each has a search, the pane is reported only when a
 *   row that may hold a match shows, when it has scrolled its own height (output that may
 *   have scrolled past the visible rows is then read back), or when it dies, enters a mode or
 *   switches screens. A 40-row pane printing two lines a second is then reported every 20 s,
 *   not every second.
 * - **lull** (`LULL_FORMAT`): when every wait on the pane only waits for it to go quiet (a
 *   stability window), the pane is reported only when it has printed nothing for LULL_SECONDS
 *   whole seconds of tmux's clock (`#{T;l:%s}` is now, to the second), with the second of its
 *   last change: no report at all while it stays busy.
 *
 * tmux's search only says "a row matches now", so it can only tell a new match from none: while
 * a row on screen already matches (text from before the wait, or one that matches only the
 * widened search), the pane is followed by its changes, with the searches read beside them,
 * until no row matches again.
 */

/** What one wait on a pane needs its subscription to tell. */
export type FollowNeed = 'changes' | 'lull' | {searches: readonly TmuxSearch[]};

/**
 * What a followed pane's changes read: `window_activity` changes (to the second) with
 * any output in the pane's window; the cursor and the history size with most output inside a
 * second; the rest with the pane dying, entering a mode, or switching screens. The first
 * field must stay `window_activity` (the same-second rule reads it).
 */
export const CHANGE_FORMAT =
  '#{window_activity} #{cursor_x},#{cursor_y} #{history_size} #{pane_dead} #{pane_in_mode} #{alternate_on}';

/** The fields of a search-followed pane before its searches: its history in whole screens (a
 * report each time it scrolled a screen's height: a row that came and went between two checks
 * is then read back at once), whether it died, entered a mode or switched screens. Its first
 * field is not a number: no report of it is read as `window_activity`. */
const SPARSE_HEAD =
  'S #{e|/:#{history_size},#{pane_height}} #{pane_dead} #{pane_in_mode} #{alternate_on}';

/** A lull-followed pane is reported once `now - window_activity` reaches this (whole seconds
 * of tmux's clock: at least one whole second without output; a spinner never gets there). */
export const LULL_SECONDS = 2;

/** While the pane printed within LULL_SECONDS: `L B`; once it has not, `L <its last second>`
 * (a second since the epoch, as `window_activity`); `L X` where this tmux has no clock in its
 * formats (`#{T;l:%s}` empty: the pane is then followed by its changes). Then the pane dying,
 * entering a mode, switching screens. */
export const LULL_FORMAT = `L #{?#{T;l:%s},#{?#{e|<:#{e|-:#{T;l:%s},#{window_activity}},${LULL_SECONDS}},B,#{window_activity}},X} #{pane_dead} #{pane_in_mode} #{alternate_on}`;

/** How a busy pane was followed, as a wait's record says: every second it changed, when it
 * went quiet, or when a match may show. */
export type FollowKind = 'changes' | 'lull' | 'search';

/** The kind of `format`. */
export function followKind(format: FollowFormat): FollowKind {
  return format.lull ? 'lull' : format.sparse ? 'search' : 'changes';
}

/** How a followed pane is subscribed to. */
export interface FollowFormat {
  format: string;
  /** True when it is the search alone (no `window_activity`, no second to read). */
  sparse: boolean;
  /** True for LULL_FORMAT: no report while it is busy. */
  lull?: boolean;
  /** How many search fields end the value. */
  searches: number;
}

/** The format for a pane whose waits need `needs`; `matchShown` says whether a search matched
 * a row at the last report (undefined: not known yet; the search's first report says);
 * `noClock`: this tmux cannot say a lull (a lull is then followed by its changes). */
export function followFormat(
  needs: Iterable<FollowNeed | undefined>,
  matchShown: boolean | undefined,
  noClock = false,
): FollowFormat {
  const searches: TmuxSearch[] = [];
  let lulls = 0;
  for (const need of needs) {
    if (need === 'changes') return CHANGES;
    if (need === 'lull') lulls++;
    else if (need) searches.push(...need.searches);
  }
  if (lulls > 0) {
    return searches.length === 0 && !noClock
      ? {format: LULL_FORMAT, sparse: false, lull: true, searches: 0}
      : CHANGES;
  }
  if (searches.length === 0) return CHANGES;
  const tail = searches.map(searchFormat).join(' ');
  return matchShown !== true
    ? {format: `${SPARSE_HEAD} ${tail}`, sparse: true, searches: searches.length}
    : {format: `${CHANGE_FORMAT} ${tail}`, sparse: false, searches: searches.length};
}

const CHANGES: FollowFormat = {format: CHANGE_FORMAT, sparse: false, searches: 0};

/** What a lull report says: busy, no clock in this tmux's formats, or the last second of a
 * pane that has been quiet. */
export function lullState(value: string): 'busy' | 'no-clock' | number {
  const field = value.split(' ')[1];
  if (field === 'X') return 'no-clock';
  const second = Number.parseInt(field ?? '', 10);
  return Number.isFinite(second) ? second : 'busy';
}

/** Whether a report of `format` says a search matches a row (each search field is the row
 * it matched, or 0). */
export function matchShownIn(value: string, format: FollowFormat): boolean {
  if (format.searches === 0) return false;
  const fields = value.trim().split(' ');
  return fields.slice(-format.searches).some((f) => f !== '0');
}
