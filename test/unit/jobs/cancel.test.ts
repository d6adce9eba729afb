/**
 * cancelJob on a real store in a temporary folder: an ended job is left alone; a job whose
 * worker never ran is recorded cancelled here and leaves its pane's queue; a live process
 * whose start time is not the worker's is never signalled (pid reuse), and cancel says so.
 */
import {spawn} from 'node:child_process';
import {describe, expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {cancelJob} from '../../../src/jobs/cancel.js';
import {JobStore} from '../../../src/jobs/store.js';
import {paneLockFor} from '../../../src/locks/pane-lock.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

async function world() {
  const home = useTempDir('nudge-cancel-');
  const ctx = {env: {NUDGE_HOME: home}, clock: realClock};
  await ensureStateDir(home);
  return {home, store: new JobStore(home), ctx};
}

describe('cancelJob', () => {
  test('a job that ended is left alone', async () => {
    const {store, ctx} = await world();
    const handle = await store.create(jobRequest({jobId: 'a0000000-0001'}), 'detached');
    await handle.end('done', {notified: true});
    expect(await cancelJob({job: 'a0000000-0001'}, ctx)).toEqual({
      job: 'a0000000-0001',
      result: 'already-ended',
      state: 'done',
      endedBefore: true,
    });
  });

  test('a job whose worker never ran: cancelled here, by nudge cancel, out of the queue', async () => {
    const {home, store, ctx} = await world();
    const request = jobRequest({jobId: 'a0000000-0002'});
    const handle = await store.create(request, 'detached');
    const lock = paneLockFor(home, {
      socketPath: request.server.socketPath,
      serverPid: request.server.pid,
      pane: request.pane,
    });
    await lock.enqueue(request.jobId);
    const r = await cancelJob({job: 'a0000000-0002'}, ctx);
    expect(r).toMatchObject({result: 'cancelled', state: 'cancelled'});
    expect(r.notSignalled).toBeUndefined();
    expect(await handle.readState()).toMatchObject({
      state: 'cancelled',
      reason: expect.stringMatching(/^Cancelled by "nudge cancel"/),
    });
    expect(await lock.liveEntries()).toEqual([]);
  });

  test('a live pid with another start time is not signalled: cancel says why', async () => {
    const {store, ctx} = await world();
    const other = spawn('sleep', ['30'], {stdio: 'ignore'});
    try {
      const handle = await store.create(jobRequest({jobId: 'a0000000-0003'}), 'detached');
      await handle.recordWorkerPid({pid: other.pid as number, start: '1'});
      const r = await cancelJob({job: 'a0000000-0003'}, ctx);
      expect(r.result).toBe('cancelled');
      expect(r.notSignalled).toMatch(
        /^process \d+ was not signalled: it runs, but nudge cannot tie it/,
      );
      expect(other.exitCode).toBeNull();
      expect(other.signalCode).toBeNull();
    } finally {
      other.kill();
    }
  });
});
