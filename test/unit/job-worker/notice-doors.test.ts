import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import type {DoorAttempt, Doors} from '../../../src/doors/ladder.js';
import {nativeFailure, throughDoors} from '../../../src/job-worker/notice-doors.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';

const profile = {name: 'claude', doors: [{kind: 'claude-inbox'}]} as unknown as Profile;
const target = {pane: '%1', panePid: 10, jobId: 'j'};
const signal = new AbortController().signal;

function world(attempts: DoorAttempt[]) {
  const calls: unknown[] = [];
  const events: unknown[] = [];
  const doors: Doors = {
    deliver: async (...args) => {
      calls.push(args);
      return attempts;
    },
  };
  const recorder = {event: async (name: string, data: unknown) => void events.push({name, data})};
  return {deps: {doors, recorder: recorder as unknown as JobRecorder}, calls, events};
}

describe('throughDoors', () => {
  test('--via keys, or a profile without doors: no door is asked', async () => {
    const w = world([]);
    expect(await throughDoors(w.deps, profile, target, 'n', 'keys', signal)).toEqual({tried: []});
    const plain = {name: 'shell'} as unknown as Profile;
    expect(await throughDoors(w.deps, plain, target, 'n', 'auto', signal)).toEqual({tried: []});
    expect(w.calls).toEqual([]);
  });

  test('a door that delivered: which, and how; every attempt recorded', async () => {
    const w = world([{door: 'claude-inbox', result: 'delivered', delivery: 'queued', ms: 12}]);
    expect(await throughDoors(w.deps, profile, target, 'n', 'auto', signal)).toEqual({
      delivered: {door: 'claude-inbox', delivery: 'queued'},
      tried: [],
    });
    expect(w.events).toEqual([
      {
        name: 'door',
        data: {door: 'claude-inbox', result: 'delivered', delivery: 'queued', ms: 12, pane: '%1'},
      },
    ]);
  });

  test('doors that did not: why each, for the record and the native failure', async () => {
    const w = world([
      {door: 'claude-inbox', result: 'held', why: 'Claude Code answered "held"', ms: 5},
    ]);
    const r = await throughDoors(w.deps, profile, target, 'n', 'native', signal);
    expect(r).toEqual({tried: ['claude-inbox: held, Claude Code answered "held"']});
    expect(nativeFailure({state: 'done'}, profile, r.tried)).toEqual({
      state: 'failed',
      reason:
        'The work ended (done), but no door took the notice (claude-inbox: held, Claude Code answered "held"); nothing was typed (--via native).',
    });
  });
});
