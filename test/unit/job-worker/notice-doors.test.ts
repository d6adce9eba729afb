import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import type {DoorAttempt, Doors} from '../../../src/doors/ladder.js';
import type {JobDeps} from '../../../src/job-worker/job-deps.js';
import {nativeFailure, noticeOfJob, throughDoors} from '../../../src/job-worker/notice-doors.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {PaneIo} from '../../../src/pane/keys.js';
import {jobRequest} from '../../helpers/job-request.js';

const profile = {name: 'claude', doors: [{kind: 'claude-inbox'}]} as unknown as Profile;
const target = {pane: '%1', panePid: 10, jobId: 'j', from: undefined};
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

describe('noticeOfJob', () => {
  test("a {reply} is the job's own agent's, also when the notice goes to another pane", async () => {
    const asked: unknown[] = [];
    const stop = new Error('stop after the reply is read');
    const deps = {
      replies: async (q: unknown) => {
        asked.push(q);
        throw stop;
      },
    } as unknown as JobDeps;
    const request = jobRequest({
      text: 'what is six times seven?',
      given: {notice: 'Done: {reply}'},
    });
    const jobAgent = {name: 'claude', replies: 'claude-transcript'} as unknown as Profile;
    // The notice goes to %9, not the job's pane: no profile of %9 is known yet.
    const at = {pane: '%9', began: undefined, profile: undefined, replied: jobAgent};
    const io = {} as PaneIo;
    await expect(
      noticeOfJob(deps, io, request, at, {state: 'done', waitedMs: 1}, signal),
    ).rejects.toBe(stop);
    expect(asked).toEqual([
      expect.objectContaining({pane: request.pane, format: 'claude-transcript'}),
    ]);
  });
});
