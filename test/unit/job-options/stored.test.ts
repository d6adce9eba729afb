import {describe, expect, test} from 'vitest';
import {
  compiles,
  countField,
  msField,
  parseProfile,
  type Reading,
  untilWrong,
} from '../../../src/job-options/stored.js';

const at = (flag: string): Reading => ({flag, env: {}, given: {}});

describe('the parts of a row', () => {
  test('a duration: text or milliseconds, with its floor in the sentence', () => {
    const f = msField('waitMs', 10);
    expect(f.read('2s' as never, at('--wait'))).toEqual({waitMs: 2000});
    expect(f.read(250 as never, at('--wait'))).toEqual({waitMs: 250});
    expect(() => f.read('5ms' as never, at('--wait'))).toThrow(
      '--wait must be at least 10ms, got "5ms".',
    );
    expect(() => msField('t', 1).read('0s' as never, at('--t'))).toThrow(/must be more than 0/);
  });

  test('a count: digits within its bounds', () => {
    expect(countField('n', 5).read('5' as never, at('--n'))).toEqual({n: 5});
    expect(() => countField('n', 5).read('6' as never, at('--n'))).toThrow(/--n/);
  });

  test('a stored condition and pattern are checked as the worker reads them', () => {
    expect(untilWrong({kind: 'regex', pattern: 'a+'})).toBeUndefined();
    expect(untilWrong({kind: 'regex'})).toMatch(/without a pattern/);
    expect(untilWrong({kind: 'soon'})).toMatch(/not a condition/);
    expect(compiles('(')).toBe(false);
  });

  test('--profile', () => {
    expect(parseProfile('my-agent')).toBe('my-agent');
    expect(() => parseProfile('Bad Name')).toThrow(/--profile must be auto or a profile's name/);
  });
});
