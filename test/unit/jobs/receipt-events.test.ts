import {expect, test} from 'vitest';
import {rungOfEvent} from '../../../src/jobs/receipt-events.js';

test('each event proves its rung; the notice’s doors are not the message’s', () => {
  const typed = {name: 'typed', data: {chars: 3, enter: true, delivery: 'submitted'}} as const;
  expect(rungOfEvent(typed, false)?.rung).toBe('delivered');
  const lock = {name: 'waiting-for-lock', data: {pane: '%1', ahead: 2, head: null}} as const;
  expect(rungOfEvent(lock, false)).toEqual({rung: 'held', why: 'behind 2 jobs at %1'});
  const door = {
    name: 'door',
    data: {door: 'claude-inbox', result: 'delivered', delivery: 'queued', ms: 5, pane: '%1'},
  } as const;
  expect(rungOfEvent(door, false)?.rung).toBe('delivered');
  expect(rungOfEvent(door, true)).toBeUndefined();
  const notSent = {name: 'typed', data: {chars: 3, enter: true, delivery: 'shown'}} as const;
  expect(rungOfEvent(notSent, false)).toBeUndefined();
  const met = {name: 'condition-met', data: {waitedMs: 1, checks: 2, verdict: 'idle'}} as const;
  expect(rungOfEvent(met, false)).toEqual({rung: 'turn-ended', why: 'idle'});
});
