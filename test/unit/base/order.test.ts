import {expect, test} from 'vitest';
import {compareText} from '../../../src/base/order.js';

test('texts sort by their code units: ISO times by time, names as they read', () => {
  const times = ['2026-12-07T10:00:00.000Z', '2026-12-06T23:59:59.999Z', '2026-12-07T09:00:00Z'];
  expect([...times].sort(compareText)).toEqual([times[1], times[2], times[0]]);
  expect(['qwen', 'claude', 'codex'].sort(compareText)).toEqual(['claude', 'codex', 'qwen']);
  expect(compareText('a', 'a')).toBe(0);
});
