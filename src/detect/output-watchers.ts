import type {Pattern} from '../base/pattern.js';
import {type TmuxSearch, tmuxSearch} from '../tmux/search.js';
import {
  cursorRow,
  type OutputLine,
  type OutputReader,
  type PaneView,
  visibleText,
} from '../tmux/view.js';
import type {Verdict, Watcher} from './watchers.js';

// The conditions on what a pane printed (src/detect/watchers.ts holds those on its screen's
// state): `--until regex:`, `nudge expect`, and `--until exit`'s sentinel.

/** The fewest scrollback rows a regex's look captures once it reads only new output. */
const MIN_HISTORY_ROWS = 4;

/** A regex tested line by line against the visible screen. */
export function anyVisibleLine(pattern: Pattern): (view: PaneView) => boolean {
  return (view) =>
    visibleText(view)
      .split('\n')
      .some((line) => pattern.test(line));
}

/**
 * Done when `pattern` shows in output written after the mark (text already on screen does
 * not count); failed when a fail pattern shows first. Searches at most the last `lines`
 * lines of new output plus everything new since the previous check, so output that scrolls
 * far between two checks is still searched.
 */
export class RegexWatcher implements Watcher {
  #reader: OutputReader;
  #historyRows: number;
  /** The first absolute row whose line has not been searched whole: lines above the cursor
   * are final in a shell's output (only appended to), so a look searches only what came since
   * (a busy pane is read once a second for as long as it prints). Not for a full-screen
   * program (`seen`), which redraws rows in place, nor once the history is full (rows then
   * shift). */
  #searchedUntil = Number.NEGATIVE_INFINITY;
  /** The screen row the cursor was on at the last look, to size the next capture. */
  #lastCursorRow: number | undefined;
  /** A regex reads only the screen: no look needs the pane's foreground. */
  readonly readsForeground = false;
  /** The pattern and the fail patterns, as tmux's own search (each that can be said). */
  readonly searches: readonly TmuxSearch[] | undefined;
  constructor(
    reader: OutputReader,
    private readonly pattern: Pattern,
    private readonly failPatterns: readonly Pattern[],
    private readonly lines: number,
    /** Lines (trimmed) that were already on screen at the start: a full-screen program
     * redraws them in new places, so for it "new output" means lines not seen before. */
    private readonly seen: ReadonlySet<string> = new Set(),
  ) {
    this.#reader = reader;
    this.#historyRows = lines;
    const searches = [pattern, ...failPatterns].map(tmuxSearch);
    this.searches = searches.every((x) => x !== undefined) ? searches : undefined;
  }
  get historyRows(): number {
    return this.#historyRows;
  }
  missingRows(view: PaneView): number {
    return this.#reader.missingRows(view);
  }
  /** All new output seen by the last check (for `--action return_output`). */
  lastOutput: OutputLine[] = [];
  observe(view: PaneView): Verdict {
    const {lines} = this.#reader.read(view);
    this.lastOutput = lines;
    const appendOnly = this.seen.size === 0 && view.historySize < view.historyLimit;
    const cursor = cursorRow(view);
    // The next capture reaches back as far as output scrolled since this one, twice over (what
    // it misses, missingRows fetches); at least a few rows, at most `lines`.
    const scrolled = this.#lastCursorRow === undefined ? this.lines : cursor - this.#lastCursorRow;
    this.#lastCursorRow = cursor;
    this.#historyRows = appendOnly
      ? Math.min(this.lines, Math.max(MIN_HISTORY_ROWS, 2 * scrolled))
      : this.lines;
    const from = appendOnly ? this.#searchedUntil : Number.NEGATIVE_INFINITY;
    this.#searchedUntil = Number.NEGATIVE_INFINITY;
    for (const [i, l] of lines.entries()) {
      // A line that ends above the cursor is final: the next look starts after it.
      const end = lines[i + 1]?.row ?? Number.POSITIVE_INFINITY;
      if (end <= cursor) this.#searchedUntil = end;
      if (l.row < from) continue;
      if (this.seen.has(l.text.trim())) continue;
      for (const fail of this.failPatterns) {
        const m = fail.exec(l.text);
        if (m) return {status: 'failed', match: m[0], line: l.full ?? l.text, pattern: fail.source};
      }
      const m = this.pattern.exec(l.text);
      if (m) return {status: 'done', match: m[0], line: l.full ?? l.text};
    }
    return {status: 'pending', why: 'no match yet'};
  }
}

/** The sentinel that `--until exit` appends: unique per job, and the echo of the typed
 * command (which holds `%s`, not digits) can never match it. It closes the group the text
 * was opened in: `}` (a `{ }` group, in the shell itself) or `)` (a subshell). The line it
 * prints is concealed (SGR 8): a terminal attached to the pane draws it blank, while tmux
 * keeps its characters for nudge to read. */
export function exitSentinel(
  token: string,
  close: '}' | ')' = '}',
): {command: string; pattern: RegExp} {
  return {
    command: `${close} ; printf '\\n\\033[8m__NUDGE_%s_EXIT_%s__\\033[0m\\n' ${token} "$?"`,
    pattern: new RegExp(`__NUDGE_${token}_EXIT_(\\d+)__`),
  };
}

/** Done when the job's exit sentinel shows; reports the command's exit status. */
export class ExitWatcher extends RegexWatcher {
  override observe(view: PaneView): Verdict {
    const verdict = super.observe(view);
    if (verdict.status !== 'done') return verdict;
    const code = /_EXIT_(\d+)__/.exec(verdict.match ?? '')?.[1];
    return {status: 'done', exitCode: Number(code)};
  }
}
