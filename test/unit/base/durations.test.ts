import {describe, expect, test} from 'vitest';
import {formatDuration, parseDuration, parseInteger} from '../../../src/base/durations.js';

describe('parseDuration', () => {
  test.each([
    ['250ms', 250],
    ['3s', 3000],
    ['1.5s', 1500],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['7d', 604_800_000],
    // A number is an MCP tool's argument: milliseconds, as its schema says.
    [1500, 1500],
    ['0', 0],
    [' 2s ', 2000],
  ])('%j is %i ms', (input, ms) => {
    expect(parseDuration(input, '--timeout')).toBe(ms);
  });

  test.each(['abc', '-1', '-1s', '1e309', '5 minutes', '1w', 'NaN', '3ss', '.5s'])(
    '%j is refused with exit 2',
    (input) => {
      const attempt = () => parseDuration(input, '--delay');
      expect(attempt).toThrow(expect.objectContaining({name: 'NudgeError', exitCode: 2}));
      expect(attempt).toThrow(/--delay expects a duration/);
    },
  );

  test('a bare number has no unit: refused with the fix (--timeout 10 once timed out after 10 ms)', () => {
    const attempt = () => parseDuration('10', '--timeout');
    expect(attempt).toThrow(expect.objectContaining({name: 'NudgeError', exitCode: 2}));
    expect(attempt).toThrow('--timeout 10 has no unit; say --timeout 10s (or 10m, 10ms).');
    expect(() => parseDuration('1.5', '--delay')).toThrow('--delay 1.5 has no unit');
  });

  test('where the name says milliseconds, a bare number is milliseconds', () => {
    expect(parseDuration('1500', '--timeout-ms')).toBe(1500);
    expect(parseDuration('200', 'poll_interval_ms')).toBe(200);
  });

  test.each(['', true])('a flag given no value (%j) is refused, saying so', (input) => {
    expect(() => parseDuration(input, '--timeout')).toThrow(
      '--timeout needs a value, e.g. --timeout 10m.',
    );
  });

  test('refuses more than a week', () => {
    expect(() => parseDuration('200h', '--timeout')).toThrow(/7-day maximum/);
  });
});

describe('parseInteger', () => {
  test('accepts whole numbers in range', () => {
    expect(parseInteger('3', '--stable-checks', 1, 1000)).toBe(3);
    expect(parseInteger(7, '--stable-checks', 1, 1000)).toBe(7);
  });
  test.each(['0', '-1', 'abc', '1.5', '1e3', '', '1001'])('%j is refused', (input) => {
    expect(() => parseInteger(input, '--stable-checks', 1, 1000)).toThrow(
      /--stable-checks expects a whole number from 1 to 1000/,
    );
  });
});

test('formatDuration', () => {
  expect(formatDuration(850)).toBe('850ms');
  expect(formatDuration(12_340)).toBe('12.3s');
  expect(formatDuration(245_000)).toBe('4m05s');
  expect(formatDuration(3_720_000)).toBe('1h02m');
});
