// A stall as listings show it (nudge jobs, status, top, the pane's @nudge-needs).
import {expect, it} from 'vitest';
import {describeStalled, stallShown, stateWords} from '../../../src/jobs/stalled.js';

it('says how long and what shows', () => {
  const since = '2026-11-26T10:00:00.000Z';
  const now = Date.parse(since) + 125_000;
  expect(describeStalled({kind: 'quiet', since, count: 1}, now)).toBe('stalled 2m05s (no output)');
  expect(describeStalled({kind: 'spinning', since, count: 2}, now)).toBe(
    'stalled 2m05s (only a spinner moves)',
  );
  expect(stallShown('quiet')).toBe('no output');
});

it('names the program a job waits behind, holding the pane, in place of `locked`', () => {
  expect(stateWords({state: 'locked', behindProgram: 'sleep'})).toBe('waiting-for-program sleep');
  expect(stateWords({state: 'locked'})).toBe('locked');
  // Typing or ended, the program is history.
  expect(stateWords({state: 'typing', behindProgram: 'sleep'})).toBe('typing');
  expect(stateWords({state: 'done'})).toBe('done');
});
