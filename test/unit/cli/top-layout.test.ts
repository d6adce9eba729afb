import {describe, expect, test} from 'vitest';
import {cut, fitColumns, headerCells, MARKER, rowCells} from '../../../src/cli/top-layout.js';
import type {TopPane} from '../../../src/verbs/top.js';

const PANE: TopPane = {
  pane: '%12',
  program: 'claude',
  profile: 'claude',
  state: 'blocked',
  job: 'mk3x9a2b0-x7q2',
  preview: 'run the whole test suite and tell me what failed',
  ageMs: 125_000,
  queued: 2,
  needs: 'Do you want to make this edit to src/verbs/top.ts?',
  kind: 'submit',
};

const row = (width: number) => {
  const layout = fitColumns(width);
  const {cells, text} = rowCells(layout, PANE, PANE.ageMs);
  return `${' '.repeat(MARKER)}${[...cells, text].join(' ')}`;
};

describe('top layout', () => {
  test('at 130 columns every column shows, and the question whole', () => {
    const layout = fitColumns(130);
    expect(layout.columns.map((c) => c.key)).toEqual([
      'pane',
      'program',
      'profile',
      'state',
      'job',
      'queue',
      'age',
    ]);
    expect(row(130)).toContain(PANE.needs);
    expect(row(130).length).toBeLessThanOrEqual(130);
  });

  test.each([80, 60, 40])(
    'at %i columns a row fits, the least needed columns left out first',
    (w) => {
      const line = row(w);
      expect([...line].length).toBeLessThanOrEqual(w);
      expect(line).toMatch(/^ {2}%12 /);
      expect(line).toContain('blocked');
    },
  );

  test('at 80: the profile goes first; pane, program, state, job, queue and age stay', () => {
    const keys = fitColumns(80).columns.map((c) => c.key);
    expect(keys).toEqual(['pane', 'program', 'state', 'job', 'queue', 'age']);
    expect(row(80)).toMatch(/^ {2}%12 +claude +blocked +mk3x9a2b0-x7q2 +2 +2m05s Do you want.*…$/);
  });

  test('narrower, then the program, the queue, the job and the age go, in that order', () => {
    expect(fitColumns(70).columns.map((c) => c.key)).toEqual([
      'pane',
      'state',
      'job',
      'queue',
      'age',
    ]);
    expect(fitColumns(62).columns.map((c) => c.key)).toEqual(['pane', 'state', 'job', 'age']);
    expect(fitColumns(50).columns.map((c) => c.key)).toEqual(['pane', 'state', 'age']);
    expect(fitColumns(30).columns.map((c) => c.key)).toEqual(['pane', 'state']);
  });

  test('the header lines up with the rows', () => {
    const layout = fitColumns(80);
    const header = `${' '.repeat(MARKER)}${headerCells(layout).join(' ')}`;
    expect(header.indexOf('STATE')).toBe(row(80).indexOf('blocked'));
    expect(header.endsWith('TEXT / QUESTION')).toBe(true);
  });

  test('a pipe (no width): every column and the text whole', () => {
    const layout = fitColumns(Number.POSITIVE_INFINITY);
    expect(layout.columns).toHaveLength(7);
    expect(row(Number.POSITIVE_INFINITY)).toContain(PANE.needs);
  });

  test('cut counts characters, not bytes, and marks the cut', () => {
    expect(cut('héllo wörld', 6)).toBe('héllo…');
    expect(cut('short', 10)).toBe('short');
    expect(cut('abc', 0)).toBe('');
  });
});
