import {describe, expect, test} from 'vitest';
import {loadBuiltinProfiles} from '../../../src/agents/builtin.js';
import {
  LinearPattern,
  linearPattern,
  replaceEvery,
  replaceFirst,
} from '../../../src/base/pattern.js';

describe('LinearPattern: RE2 behind the RegExp calls nudge makes', () => {
  test('exec: the match, its groups and index, as RegExp gives them', () => {
    const m = linearPattern('(\\w+) (\\d+)').exec('-- foo 12 bar 34');
    expect(m?.[0]).toBe('foo 12');
    expect(m?.[1]).toBe('foo');
    expect(m?.[2]).toBe('12');
    expect(m?.index).toBe(3);
    expect(linearPattern('x(y)?').exec('x')?.[1]).toBeUndefined();
    expect(linearPattern('(?<n>\\d+)').exec('a 7')?.groups).toEqual({n: '7'});
    expect(linearPattern('nope').exec('yes')).toBeNull();
  });

  test("JavaScript's \\uXXXX and \\u{…} escapes are taken; flags i, m, s", () => {
    expect(linearPattern('\\u2500{3}').test('──── ')).toBe(true);
    expect(linearPattern('\\u{276f} ').test('❯ hi')).toBe(true);
    expect(linearPattern('\\\\u2500').test('\\u2500')).toBe(true);
    expect(linearPattern('abc', 'i').test('xABC')).toBe(true);
    expect(linearPattern('^b', 'm').test('a\nb')).toBe(true);
    expect(linearPattern('a.b', 's').test('a\nb')).toBe(true);
  });

  test('a backreference or a lookaround is refused; (a+)+$ runs in linear time', () => {
    expect(() => linearPattern('(a)\\1')).toThrow(/invalid escape sequence/);
    expect(() => linearPattern('(?=x)')).toThrow(/unsupported Perl syntax/);
    const line = `${'a'.repeat(5_000)}b`;
    const started = performance.now();
    expect(linearPattern('(a+)+$').test(line)).toBe(false);
    // A backtracking engine takes 2^5000 steps here; RE2's is one pass (generous bound).
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('replaceEvery and replaceFirst, for RegExp and LinearPattern alike', () => {
    for (const p of [/\d+s/, linearPattern('\\d+s')]) {
      expect(replaceEvery(p, '1s and 22s', '')).toBe(' and ');
      expect(replaceFirst(p, '1s and 22s', 'X')).toBe('X and 22s');
    }
    expect(replaceEvery(linearPattern('a'), 'aXa', '$&$1')).toBe('$&$1X$&$1');
  });

  test('every built-in profile pattern also runs on the linear engine (a user file that mends a profile compiles all of its fields there)', () => {
    const failures: string[] = [];
    const walk = (v: unknown, path: string): void => {
      if (v instanceof RegExp) {
        try {
          expect(linearPattern(v.source, v.flags)).toBeInstanceOf(LinearPattern);
        } catch (error) {
          failures.push(`${path}: ${v.source} (${(error as Error).message})`);
        }
      } else if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${path}.${i}`);
      } else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`);
    };
    for (const [name, profile] of Object.entries(loadBuiltinProfiles())) walk(profile, name);
    expect(failures).toEqual([]);
  });
});
