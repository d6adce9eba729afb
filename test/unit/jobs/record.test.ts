import {describe, expect, test} from 'vitest';
import {checkJobRecord} from '../../../src/jobs/record.js';
import {isTerminal, RUN_STATES, SUBMIT_STATES, TERMINAL_STATES} from '../../../src/jobs/states.js';

/** A record as a worker writes it, of `kind`, in `state`. */
function record(kind: 'submit' | 'run' | undefined, state: string): Record<string, unknown> {
  return {
    version: 1,
    id: '0mwt00000-abcd',
    ...(kind ? {kind} : {}),
    state,
    pane: '%1',
    paneTarget: '%1',
    socketPath: '/tmp/sock',
    serverPid: 1,
    mode: 'detached',
    createdAt: '2026-11-26T10:00:00.000Z',
    updatedAt: '2026-11-26T10:00:00.000Z',
    preview: 'make',
  };
}

describe('a job record read back: each machine its own states', () => {
  test.each([...SUBMIT_STATES, ...TERMINAL_STATES])('a submit in %s reads', (state) => {
    expect(checkJobRecord(record('submit', state), 'state.json').state).toBe(state);
  });
  test.each([...RUN_STATES, ...TERMINAL_STATES])('a run in %s reads', (state) => {
    expect(checkJobRecord(record('run', state), 'state.json').state).toBe(state);
  });
  test('a record written before `kind` is a submit', () => {
    expect(checkJobRecord(record(undefined, 'waiting'), 'state.json').kind).toBe('submit');
  });
  test('a state of the other machine is refused, naming the file', () => {
    expect(() => checkJobRecord(record('run', 'typing'), '/s/state.json')).toThrow(
      '/s/state.json is not a job record nudge can read (state "typing" of a run).',
    );
    expect(() => checkJobRecord(record('submit', 'integrating'), 'x')).toThrow(/of a submit/);
  });
  test('not an object, another version: refused', () => {
    expect(() => checkJobRecord([], 'x')).toThrow(/not an object/);
    expect(() => checkJobRecord({...record('run', 'done'), version: 2}, 'x')).toThrow(
      /version 2, this nudge reads 1/,
    );
  });
  test('the terminal states are one list', () => {
    expect(TERMINAL_STATES.every(isTerminal)).toBe(true);
    expect([...SUBMIT_STATES, ...RUN_STATES].some(isTerminal)).toBe(false);
  });
});
