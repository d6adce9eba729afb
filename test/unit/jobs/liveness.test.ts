// Whether a job's process still runs, and the state shown for it: a job that never ended
// whose process is gone is lost; one whose worker never recorded itself is lost once its
// start's grace has passed; an ended job stays as it ended.
import {describe, expect, test} from 'vitest';
import {
  isDeadLetter,
  isJobProcessAlive,
  shownState,
  WORKER_START_GRACE_MS,
} from '../../../src/jobs/liveness.js';
import type {JobRecord} from '../../../src/jobs/record.js';
import {processId} from '../../../src/process/identity.js';

const CREATED = Date.parse('2026-12-06T10:00:00Z');
const record = (patch: Partial<JobRecord>) =>
  ({state: 'waiting', createdAt: new Date(CREATED).toISOString(), ...patch}) as JobRecord;

describe('a job shown as lost', () => {
  test('a running job whose process is gone shows as lost; an ended one as it ended', () => {
    expect(shownState(record({pid: 12345}), CREATED, () => false)).toBe('lost');
    expect(shownState(record({pid: 12345}), CREATED, () => true)).toBe('waiting');
    expect(shownState(record({pid: 12345, state: 'done'}), CREATED, () => false)).toBe('done');
  });

  test('a worker that never recorded itself: lost only once its grace has passed', () => {
    const queued = record({state: 'queued'});
    expect(shownState(queued, CREATED + WORKER_START_GRACE_MS)).toBe('queued');
    expect(shownState(queued, CREATED + WORKER_START_GRACE_MS + 1)).toBe('lost');
  });

  test('this process is alive; no pid is not', () => {
    const self = processId(process.pid);
    expect(isJobProcessAlive({pid: self.pid, pidStart: self.start})).toBe(true);
    expect(isJobProcessAlive({pid: undefined, pidStart: undefined})).toBe(false);
  });
});

describe('a dead letter as a reader believes it', () => {
  test('a message whose worker died mid-turn is one (its receipt still says turn-started); a delivered, ended one is not', () => {
    const at = new Date(CREATED).toISOString();
    const midTurn = record({
      kind: 'submit',
      receipt: {rung: 'turn-started', why: 'the agent showed itself at work', at},
    } as Partial<JobRecord>);
    expect(isDeadLetter(midTurn, 'lost', CREATED)).toBe(true);
    expect(isDeadLetter(midTurn, 'waiting', CREATED)).toBe(false);
    const answered = record({
      kind: 'submit',
      state: 'done',
      receipt: {rung: 'turn-ended', why: 'idle', at},
    } as Partial<JobRecord>);
    expect(isDeadLetter(answered, 'done', CREATED)).toBe(false);
    expect(
      isDeadLetter({...midTurn, resentAs: '0mwt00001-abcd'} as JobRecord, 'lost', CREATED),
    ).toBe(false);
  });
});
