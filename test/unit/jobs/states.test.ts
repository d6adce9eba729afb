import {expect, test} from 'vitest';
import {
  isTerminal,
  JOB_STATES,
  RUN_STATES,
  SUBMIT_STATES,
  TERMINAL_STATES,
} from '../../../src/jobs/states.js';

test('two machines, one terminal list: every state of either is a job state, and only the six end one', () => {
  expect(TERMINAL_STATES.every(isTerminal)).toBe(true);
  expect([...SUBMIT_STATES, ...RUN_STATES].some(isTerminal)).toBe(false);
  expect([...JOB_STATES].sort()).toEqual(
    [...new Set([...SUBMIT_STATES, ...RUN_STATES, ...TERMINAL_STATES])].sort(),
  );
  // `lost`: its tmux server went away; nudge recover brings back what can be.
  expect(isTerminal('lost')).toBe(true);
  expect(isTerminal('stalled')).toBe(false);
});
