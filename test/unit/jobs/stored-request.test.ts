import {expect, test} from 'vitest';
import {MAX_TEXT_BYTES} from '../../../src/job-options/limits.js';
import {MAX_REQUEST_BYTES, previewText, storedIfBusy} from '../../../src/jobs/stored-request.js';

test('previewText is one line of at most 80 characters', () => {
  expect(previewText('a\nb\tc')).toBe('a⏎b·c');
  expect(previewText('x'.repeat(100))).toHaveLength(80);
});

test("a request's busy policy: ifBusy as stored, else what the three booleans of older requests said", () => {
  expect(storedIfBusy({ifBusy: 'refuse'})).toBe('refuse');
  expect(storedIfBusy({now: true})).toBe('now');
  expect(storedIfBusy({whenIdle: true})).toBe('wait');
  expect(storedIfBusy({typeAhead: true})).toBe('type-ahead');
  expect(storedIfBusy({ifBusy: 'sometimes'})).toBe('queue');
  expect(storedIfBusy(undefined)).toBe('queue');
});

test('the largest request read holds the largest text, every byte escaped, and its options', () => {
  expect(MAX_REQUEST_BYTES).toBeGreaterThan(MAX_TEXT_BYTES * 6);
});
