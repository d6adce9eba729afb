import {formatDuration} from '../base/durations.js';
import type {TopPane} from '../verbs/top.js';

/**
 * `nudge top`'s columns fitted to a terminal's width: the columns a person needs least are left
 * out first (the profile, then the program, the queue, the job id), and the text or question
 * takes what is left, cut with `…`. A row never wraps, so 80 columns show one row a pane.
 */

type Key = 'pane' | 'program' | 'profile' | 'state' | 'job' | 'queue' | 'age';

interface Column {
  key: Key;
  title: string;
  width: number;
  right?: boolean;
  /** Left out before every column with a lower number (0: always shown). */
  drop: number;
}

/** In the order they are drawn. */
const COLUMNS: readonly Column[] = [
  {key: 'pane', title: 'PANE', width: 5, drop: 0},
  {key: 'program', title: 'PROGRAM', width: 10, drop: 4},
  {key: 'profile', title: 'PROFILE', width: 9, drop: 5},
  {key: 'state', title: 'STATE', width: 10, drop: 0},
  {key: 'job', title: 'JOB', width: 14, drop: 2},
  {key: 'queue', title: 'QUEUE', width: 5, right: true, drop: 3},
  {key: 'age', title: 'AGE', width: 7, right: true, drop: 1},
];

/** The row's marker (`> ` on the selected one). */
export const MARKER = 2;
/** The least the text keeps before a column is left out for it. */
const TEXT_AT_LEAST = 20;

export interface TopLayout {
  columns: readonly Column[];
  /** The room for the text or question; Infinity when the width is not limited. */
  text: number;
}

const used = (columns: readonly Column[]) => MARKER + columns.reduce((n, c) => n + c.width + 1, 0);

/** The columns that fit `width` (Infinity: all of them, the text whole). */
export function fitColumns(width: number): TopLayout {
  let columns = [...COLUMNS];
  while (used(columns) + TEXT_AT_LEAST > width) {
    const most = Math.max(...columns.map((c) => c.drop));
    if (most === 0) break;
    columns = columns.filter((c) => c.drop !== most);
  }
  return {columns, text: Math.max(0, width - used(columns))};
}

/** `text` in at most `width` columns, cut with `…`. */
export function cut(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 0 ? '' : `${chars.slice(0, width - 1).join('')}…`;
}

const pad = (c: Column, value: string) =>
  c.right ? cut(value, c.width).padStart(c.width) : cut(value, c.width).padEnd(c.width);

/** The header's cells (without the marker), then the text's title. */
export function headerCells(layout: TopLayout): string[] {
  return [...layout.columns.map((c) => pad(c, c.title)), cut('TEXT / QUESTION', layout.text)];
}

/** A row's cells (without the marker), the state's at `stateAt`; the text or question last. */
export function rowCells(
  layout: TopLayout,
  p: TopPane,
  ageMs: number,
): {cells: string[]; stateAt: number; text: string} {
  const value: Record<Key, string> = {
    pane: p.pane,
    program: p.program || '?',
    profile: p.profile || '-',
    state: p.stalled ? 'stalled' : p.state,
    job: p.job,
    queue: String(p.queued),
    age: formatDuration(ageMs),
  };
  return {
    cells: layout.columns.map((c) => pad(c, value[c.key])),
    stateAt: layout.columns.findIndex((c) => c.key === 'state'),
    text: cut(p.needs ?? p.preview, layout.text),
  };
}
