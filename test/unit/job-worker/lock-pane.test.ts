/**
 * takePaneLock: a job's place in the pane's queue is recorded as it waits, the lock it gets is
 * fenced under the job's id, and a lock not had within --lock-timeout is one sentence naming
 * the holder. Pure logic: a fake lock, tmux and recorder.
 */
import {describe, expect, test} from 'vitest';
import {err, ok, type Result} from '../../../src/base/result.js';
import {takePaneLock} from '../../../src/job-worker/lock-pane.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {JobRequest} from '../../../src/jobs/request.js';
import type {AcquireOptions, PaneLease} from '../../../src/locks/pane-lock.js';
import {jobRequest} from '../../helpers/job-request.js';

function world(
  outcome: 'ok' | 'timeout' | 'dropped',
  holder?: string,
  now: Result<JobRequest, string> = ok(jobRequest({text: 'npm test'})),
) {
  const events: Array<[string, unknown]> = [];
  const recorder = {
    event: async (name: string, data: unknown) => void events.push([name, data]),
  } as unknown as JobRecorder;
  const fences: string[] = [];
  const lease: PaneLease = {
    signal: new AbortController().signal,
    assertHeld: () => {},
    release: async () => {},
  };
  let asked: AcquireOptions | undefined;
  const deps = {
    pid: 4242,
    recorder,
    requestNow: async () => now,
    tmux: {
      takeFence: async (pane: string, token: string) => {
        fences.push(`${pane} ${token}`);
        return {pane, option: `@nudge-fence-${token}`};
      },
      dropFence: async () => {},
    },
    lockFor: (pane: string) => ({
      acquire: async (o: AcquireOptions) => {
        asked = o;
        o.onWaiting?.(['job-ahead', 'job-behind']);
        expect(pane).toBe('%5');
        if (outcome === 'dropped') return err({reason: 'dropped' as const});
        return outcome === 'ok' ? ok(lease) : err({reason: 'lock-timeout' as const, holder});
      },
    }),
  };
  return {deps, events, fences, asked: () => asked};
}

describe('takePaneLock', () => {
  test('records its place in the queue and fences the pane under the job id', async () => {
    const w = world('ok');
    const request = jobRequest({given: {lockTimeout: '90s'}});
    const got = await takePaneLock(w.deps, request, '%5', new AbortController().signal);
    expect(got.ok).toBe(true);
    expect(w.fences).toEqual([`%5 ${request.jobId}`]);
    expect(w.asked()).toMatchObject({jobId: request.jobId, pid: 4242, timeoutMs: 90_000});
    expect(w.events).toEqual([['waiting-for-lock', {pane: '%5', ahead: 2, head: 'job-ahead'}]]);
  });

  test('a lock not had in time: one sentence with the wait, the holder and what to do', async () => {
    const w = world('timeout', 'job-ahead');
    const got = await takePaneLock(
      w.deps,
      jobRequest({given: {lockTimeout: '90s'}}),
      '%5',
      new AbortController().signal,
    );
    expect(got).toEqual({
      ok: false,
      error: {
        state: 'failed',
        reason:
          "Waited 1m30s for pane %5's lock (job job-ahead holds it); raise --lock-timeout or cancel the job ahead.",
      },
    });
    expect(w.fences).toEqual([]);
  });

  test('dropped from the queue by the person: cancelled, nothing typed, no fence', async () => {
    const w = world('dropped');
    const got = await takePaneLock(w.deps, jobRequest({}), '%5', new AbortController().signal);
    expect(got).toEqual({
      ok: false,
      error: {
        state: 'cancelled',
        reason: 'Dropped from pane %5\'s queue by "nudge queue drop"; nothing was typed.',
      },
    });
    expect(w.fences).toEqual([]);
  });

  test('the text as it is when the lock is taken: an edit made while queued is what types', async () => {
    const w = world('ok', undefined, ok(jobRequest({text: 'npm run lint'})));
    const request = jobRequest({text: 'npm test'});
    const got = await takePaneLock(w.deps, request, '%5', new AbortController().signal);
    expect(got.ok && got.value.text).toBe('npm run lint');
    expect(w.events).toContainEqual(['text-edited', {chars: 12}]);
    // Not edited: no event.
    const same = world('ok');
    const kept = await takePaneLock(same.deps, request, '%5', new AbortController().signal);
    expect(kept.ok && kept.value.text).toBe('npm test');
    expect(same.events.map(([name]) => name)).not.toContain('text-edited');
  });

  test('a request that cannot be read under the lock: the job fails in one sentence, nothing typed, the lock let go', async () => {
    const w = world('ok', undefined, err('the request is not valid JSON'));
    let released = false;
    const deps = {
      ...w.deps,
      lockFor: (pane: string) => ({
        acquire: async (o: AcquireOptions) => {
          const got = await w.deps.lockFor(pane).acquire(o);
          const release = async () => {
            released = true;
          };
          return got.ok ? ok({...got.value, release}) : got;
        },
      }),
    };
    const got = await takePaneLock(deps, jobRequest({}), '%5', new AbortController().signal);
    expect(got).toEqual({
      ok: false,
      error: {
        state: 'failed',
        reason: "Under the pane's lock, the request is not valid JSON; nothing was typed.",
      },
    });
    expect(released).toBe(true);
  });
});
