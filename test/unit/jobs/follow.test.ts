// A job followed to its end from outside its worker: woken by the write of its ending, the
// outcome read from the ended record; a lost worker fails it; an interrupt stops only the
// waiting, in one sentence.
import {describe, expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {recordJob} from '../../../src/jobs/enqueue.js';
import {followToEnd, outcomeOfRecord} from '../../../src/jobs/follow.js';
import {JobStore} from '../../../src/jobs/store.js';
import type {PaneInfo} from '../../../src/tmux/tmux.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const INFO = {paneId: '%1', socketPath: '/tmp/fake.sock', serverPid: 42} as PaneInfo;

/** A job just recorded (no worker yet, within its start's grace). */
async function freshJob() {
  const stateDir = useTempDir();
  await ensureStateDir(stateDir);
  const store = new JobStore(stateDir);
  const request = jobRequest({jobId: '0mwr33g3x-k62r', createdAt: new Date().toISOString()});
  return (await recordJob(request, {store, info: INFO, from: undefined})).handle;
}

describe('outcomeOfRecord', () => {
  test('an ended record gives its state and what it said; nothing else of the record', () => {
    const outcome = outcomeOfRecord({reason: 'exit 0', notified: true, by: 'worker'}, 'done');
    expect(outcome).toEqual({state: 'done', reason: 'exit 0', notified: true});
  });

  test('a lost job failed, naming its worker', () => {
    expect(outcomeOfRecord({pid: 4242}, 'lost')).toEqual({
      state: 'failed',
      notified: false,
      reason: 'its worker (pid 4242) is gone; it never finished',
    });
  });
});

describe('followToEnd', () => {
  test('ends with the outcome its worker writes, woken by the write', async () => {
    const handle = await freshJob();
    const followed = followToEnd(handle, {signal: new AbortController().signal, clock: realClock});
    await handle.end('done', {reason: 'the screen settled', notified: true});
    expect(await followed).toMatchObject({state: 'done', reason: 'the screen settled'});
  });

  test('interrupted, only the waiting stops: the job is as it was', async () => {
    const handle = await freshJob();
    const stop = new AbortController();
    const followed = followToEnd(handle, {signal: stop.signal, clock: realClock});
    stop.abort();
    await expect(followed).rejects.toThrow(
      'Stopped waiting; job 0mwr33g3x-k62r goes on (nudge status 0mwr33g3x-k62r).',
    );
    expect((await handle.readState()).state).toBe('queued');
  });
});
