import {joinFormat, splitFields} from './format.js';

/** What one look at a pane returns: rows of text plus the counters to number them. */
export interface PaneView {
  /** Captured rows: scrollback rows (oldest first), then the `height` visible rows. */
  rows: string[];
  /** Absolute number of rows[0]. Rows are numbered from the oldest line in the history (0);
   * the visible row r is historySize + r. */
  firstRow: number;
  historySize: number;
  historyLimit: number;
  height: number;
  width: number;
  cursorX: number;
  cursorY: number;
  dead: boolean;
  /** A dead pane's program's exit status (`#{pane_dead_status}`), where it exited (not a
   * signal). */
  deadStatus?: number | undefined;
  alternateOn: boolean;
  /** The pane's foreground command (`bash`, `node`, `sleep`, ...). */
  currentCommand: string;
}

/** The visible screen of a view, as `capture-pane -p` prints it. */
export function visibleText(view: PaneView): string {
  return view.rows.slice(Math.max(0, view.rows.length - view.height)).join('\n');
}

/** The text of the row the cursor is on. */
export function cursorLine(view: PaneView): string {
  return view.rows[view.rows.length - view.height + view.cursorY] ?? '';
}

/** The absolute row of the cursor. */
export function cursorRow(view: PaneView): number {
  return view.historySize + view.cursorY;
}

/** A place in a pane's output: absolute row and column. */
export interface OutputMark {
  row: number;
  col: number;
}

/** One logical line of output (screen rows joined where the text wrapped). */
export interface OutputLine {
  /** Absolute row of its first screen row. */
  row: number;
  text: string;
  /** The whole line, when `text` is only the part after the mark (the mark's own row). */
  full?: string;
}

/**
 * Join screen rows into logical lines: a row filled to the pane's width most likely wrapped
 * into the next (capture-pane trims trailing spaces, so a row that ended early is shorter).
 * Without this a pattern could not match across a wrap.
 */
export function joinWrappedRows(
  rows: readonly string[],
  firstRow: number,
  width: number,
): OutputLine[] {
  const lines: OutputLine[] = [];
  let current: OutputLine | undefined;
  for (const [i, text] of rows.entries()) {
    if (current) current.text += text;
    else current = {row: firstRow + i, text};
    if (width <= 0 || [...text].length < width) {
      lines.push(current);
      current = undefined;
    }
  }
  if (current) lines.push(current);
  return lines;
}

/** How many rows at the end of a read are kept to re-find our place once the history is
 * full (tmux then drops old rows, so absolute numbers stop meaning the same line). */
const ANCHOR_ROWS = 4;

/** What one read of new output found. */
export interface OutputRead {
  /** Logical lines at or after the mark, within the rows captured. */
  lines: OutputLine[];
  /** Rows written since the previous read that this view did not reach (capture more). */
  gap: number;
}

/**
 * Tracks "output written after a point": the mark is an absolute row/column; each read
 * returns what lies after it in a view. While the history is not full, absolute row numbers
 * are exact. Once it is full, each new row drops the oldest, so the reader re-finds the rows
 * it saw last time (an anchor) and shifts the mark by how far they moved; if they are gone
 * entirely, everything captured is newer than the mark.
 */
export class OutputReader {
  #mark: OutputMark;
  /** The first absolute row not yet covered by a read. */
  #seenUntil: number;
  #anchor: {row: number; rows: string[]} | undefined;

  constructor(mark: OutputMark) {
    this.#mark = {...mark};
    this.#seenUntil = mark.row;
  }

  /** The current mark (after any shift). */
  get mark(): OutputMark {
    return {...this.#mark};
  }

  /**
   * How many more scrollback rows than `view` holds are needed to cover everything since the
   * previous read (the caller captures again with that many more). Once the history is full
   * and our anchor is not in the view, only the whole history can tell.
   */
  missingRows(view: PaneView): number {
    if (view.historySize >= view.historyLimit && this.#anchor) {
      return this.#findAnchor(view) === undefined ? view.historyLimit : 0;
    }
    return Math.max(0, view.firstRow - this.#seenUntil);
  }

  /** New output in `view` (see OutputRead). */
  read(view: PaneView): OutputRead {
    if (view.historySize >= view.historyLimit && this.#anchor) this.#reanchor(view);
    const gap = Math.max(0, view.firstRow - this.#seenUntil);
    const lastRow = view.firstRow + view.rows.length;
    const start = Math.max(this.#mark.row, view.firstRow);
    const rows = view.rows.slice(start - view.firstRow);
    if (start === this.#mark.row && rows.length > 0 && this.#mark.col > 0) {
      rows[0] = [...(rows[0] ?? '')].slice(this.#mark.col).join('');
    }
    const lines = joinWrappedRows(rows, start, view.width);
    if (start === this.#mark.row && this.#mark.col > 0 && lines[0]) {
      const whole = joinWrappedRows(view.rows.slice(start - view.firstRow), start, view.width)[0];
      if (whole) lines[0].full = whole.text;
    }
    // Only rows above the cursor are final; the cursor row may still grow.
    this.#seenUntil = Math.max(this.#seenUntil, Math.min(lastRow, cursorRow(view)));
    // The anchor is the rows just above the cursor: the cursor row itself may still change.
    const anchorEnd = Math.max(0, Math.min(view.rows.length, cursorRow(view) - view.firstRow));
    this.#anchor = {
      row: view.firstRow + Math.max(0, anchorEnd - ANCHOR_ROWS),
      rows: view.rows.slice(Math.max(0, anchorEnd - ANCHOR_ROWS), anchorEnd),
    };
    return {lines, gap};
  }

  /** Where the anchor rows now start (absolute), if they are in `view`. */
  #findAnchor(view: PaneView): number | undefined {
    const anchor = this.#anchor;
    if (!anchor || anchor.rows.length === 0) return undefined;
    // Rows only ever move up: search from the old position upwards.
    const from = Math.min(anchor.row - view.firstRow, view.rows.length - anchor.rows.length);
    for (let i = from; i >= 0; i--) {
      if (anchor.rows.every((text, k) => view.rows[i + k] === text)) return view.firstRow + i;
    }
    return undefined;
  }

  #reanchor(view: PaneView): void {
    const anchor = this.#anchor;
    if (!anchor || anchor.rows.length === 0) return;
    const found = this.#findAnchor(view);
    if (found !== undefined) {
      const shift = anchor.row - found;
      this.#mark.row -= shift;
      this.#seenUntil -= shift;
      return;
    }
    // The anchor scrolled out of what we captured: all of it is new.
    this.#mark = {row: view.firstRow, col: 0};
    this.#seenUntil = view.firstRow;
  }
}

/**
 * A pane whose program exited while a wait looked at it, kept by `remain-on-exit` (issue 62):
 * every wait ends at once on it, with the status, rather than watching a dead screen until its
 * timeout. `status` is undefined where the program ended on a signal.
 */
export class PaneDied extends Error {
  override name = 'PaneDied';
  constructor(
    readonly pane: string,
    readonly status: number | undefined,
  ) {
    super(
      status === undefined
        ? `Pane ${pane}'s program exited (the pane is dead, kept by remain-on-exit; tmux recorded no status: a signal, or tmux 3.3a losing it)`
        : `Pane ${pane}'s program exited with status ${status} (the pane is dead, kept by remain-on-exit)`,
    );
  }
}

const VIEW_FIELDS = [
  'history_size',
  'history_limit',
  'pane_height',
  'pane_width',
  'cursor_x',
  'cursor_y',
  'pane_dead',
  'alternate_on',
  'pane_dead_status',
  'pane_current_command',
];
/** The fields a view's first line holds (tmux's view command prints it, then the rows). */
export const VIEW_FORMAT = joinFormat(VIEW_FIELDS);

/** Parse the output of the view command: one VIEW_FORMAT line, then the captured rows. */
export function parsePaneView(stdout: string): PaneView {
  const body = stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
  const newline = body.indexOf('\n');
  const head = newline < 0 ? body : body.slice(0, newline);
  const rows = newline < 0 ? [] : body.slice(newline + 1).split('\n');
  const f = splitFields(head, VIEW_FIELDS.length) ?? [];
  const n = (i: number) => Number.parseInt(f[i] ?? '', 10) || 0;
  const historySize = n(0);
  const height = n(2);
  return {
    rows,
    firstRow: historySize - Math.max(0, rows.length - height),
    historySize,
    historyLimit: n(1),
    height,
    width: n(3),
    cursorX: n(4),
    cursorY: n(5),
    dead: f[6] === '1',
    alternateOn: f[7] === '1',
    ...(f[6] === '1' && /^\d+$/.test(f[8] ?? '') ? {deadStatus: n(8)} : {}),
    currentCommand: f[9] ?? '',
  };
}
