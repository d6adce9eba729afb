import {describe, expect, test} from 'vitest';
import {cursorRow, joinWrappedRows, OutputReader, type PaneView} from '../../../src/tmux/view.js';

/** A view of a pane whose whole output so far is `all` (one row per entry), `height` rows
 * visible, `history` rows of scrollback captured, history limited to `limit` rows. */
function viewOf(
  all: string[],
  o: {height?: number; capture?: number; limit?: number; width?: number} = {},
): PaneView {
  const height = o.height ?? 5;
  const limit = o.limit ?? 2000;
  // Rows beyond the history limit are gone for good.
  const kept = all.slice(Math.max(0, all.length - (limit + height)));
  const screenRows = kept.slice(Math.max(0, kept.length - height));
  while (screenRows.length < height) screenRows.push('');
  const historyRows = kept.slice(0, Math.max(0, kept.length - height));
  const captured = historyRows.slice(Math.max(0, historyRows.length - (o.capture ?? 100)));
  const cursorY = Math.min(height - 1, Math.max(0, kept.length - historyRows.length - 1));
  return {
    rows: [...captured, ...screenRows],
    firstRow: historyRows.length - captured.length,
    historySize: historyRows.length,
    historyLimit: limit,
    height,
    width: o.width ?? 80,
    cursorX: (screenRows[cursorY] ?? '').length,
    cursorY,
    dead: false,
    alternateOn: false,
    currentCommand: 'bash',
  };
}

const texts = (lines: {text: string}[]) => lines.map((l) => l.text);

describe('OutputReader', () => {
  test('returns only rows written after the mark', () => {
    const before = ['$ old output', 'old 2', '$ '];
    const reader = new OutputReader({row: 3, col: 0});
    expect(texts(reader.read(viewOf(before)).lines).filter(Boolean)).toEqual([]);
    const after = [...before, 'new 1', 'new 2'];
    expect(texts(reader.read(viewOf(after)).lines).filter(Boolean)).toEqual(['new 1', 'new 2']);
  });

  test('a mark inside a row skips the text before the column', () => {
    const reader = new OutputReader({row: 0, col: 2});
    expect(texts(reader.read(viewOf(['$ echo hi', 'hi'])).lines).filter(Boolean)).toEqual([
      'echo hi',
      'hi',
    ]);
  });

  test('reports rows it has not captured yet, and finds them when given more history', () => {
    const reader = new OutputReader({row: 1, col: 0});
    reader.read(viewOf(['$ ', '']));
    const all = ['$ ', ...Array.from({length: 500}, (_, i) => `line ${i}`), '$ '];
    const small = viewOf(all, {capture: 100});
    expect(reader.missingRows(small)).toBeGreaterThan(300);
    const big = viewOf(all, {capture: 100 + reader.missingRows(small)});
    const got = texts(reader.read(big).lines);
    expect(got).toContain('line 0');
    expect(got).toContain('line 499');
  });

  test('keeps its place once the history is full and old rows are dropped', () => {
    const limit = 50;
    const first = ['$ start', ...Array.from({length: 60}, (_, i) => `old ${i}`), '$ '];
    const entry = viewOf(first, {limit, capture: limit});
    // Rows are numbered within what tmux still holds: the mark comes from the entry view.
    const reader = new OutputReader({row: cursorRow(entry), col: 2});
    reader.read(entry);
    const second = [...first.slice(0, -1), '$ run', 'fresh A', 'fresh B', '$ '];
    const got = texts(reader.read(viewOf(second, {limit, capture: limit})).lines).filter(Boolean);
    expect(got).toEqual(['run', 'fresh A', 'fresh B', '$ ']);
  });

  test('when its anchor scrolled away entirely, everything captured is new', () => {
    const limit = 20;
    const first = ['$ go', '$ '];
    const reader = new OutputReader({row: 1, col: 0});
    reader.read(viewOf(first, {limit, capture: limit}));
    const flood = [...first, ...Array.from({length: 200}, (_, i) => `flood ${i}`)];
    const view = viewOf(flood, {limit, capture: limit});
    expect(reader.missingRows(view)).toBe(limit);
    const got = texts(reader.read(view).lines);
    expect(got).toContain('flood 199');
    expect(got).not.toContain('$ go');
  });
});

test('joinWrappedRows joins rows that filled the width', () => {
  expect(joinWrappedRows(['abcd', 'ef', 'gh'], 10, 4)).toEqual([
    {row: 10, text: 'abcdef'},
    {row: 12, text: 'gh'},
  ]);
});
