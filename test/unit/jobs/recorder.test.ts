import {readFileSync} from 'node:fs';
import {expect, test} from 'vitest';
import {createJobLogger, createSilentLogger} from '../../../src/base/log.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {createJobRecorder} from '../../../src/jobs/recorder.js';
import {type JobHandle, JobStore} from '../../../src/jobs/store.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('one call per step: the record, events.jsonl and the log agree; the ending is written once', async () => {
  const home = useTempDir('nudge-recorder-');
  await ensureStateDir(home, {});
  const handle = await new JobStore(home).create(jobRequest({jobId: '0mwt00000-abcd'}), 'detached');
  const recorder = createJobRecorder(handle, createJobLogger(handle.logPath, {job: handle.id}), {
    clock: new FakeClock(),
    signal: new AbortController().signal,
  });
  await recorder.transition('locked', {});
  await recorder.transition('typing', {
    profile: 'shell',
    profileReason: 'test',
    program: 'bash',
    chars: 8,
    until: 'stable',
  });
  await recorder.event('enter-retry', {pane: '%1', enters: 1} as never);
  await recorder.end({state: 'done', notified: true, waitedMs: 5});
  await recorder.end({state: 'failed', reason: 'late', notified: false});
  const record = await handle.readState();
  expect(record).toMatchObject({state: 'done', notified: true, waitedMs: 5});
  const events = (await handle.readEvents()).map((e) => e.event);
  expect(events).toEqual(['queued', 'receipt', 'locked', 'typing', 'enter-retry', 'done']);
  const log = readFileSync(handle.logPath, 'utf8');
  expect(log).toContain('"msg":"state typing"');
  expect(log).toContain('"recorded":false');
});

test('an ending the disk has no room for is kept, tried again, and written once room comes back; the stop ends the wait', async () => {
  const noRoom = () =>
    Object.assign(new Error('ENOSPC: no space left on device'), {code: 'ENOSPC'});
  let fails = 2;
  const ended: string[] = [];
  const handle = {
    updateState: async () => ({}),
    end: async (state: string) => {
      if (fails-- > 0) throw noRoom();
      ended.push(state);
      return {record: {}, wrote: true};
    },
  } as unknown as JobHandle;
  const clock = new FakeClock();
  const log = createSilentLogger();
  const recorder = createJobRecorder(handle, log, {clock, signal: new AbortController().signal});
  const start = clock.now();
  await recorder.end({state: 'done', notified: true, waitedMs: 5});
  expect(ended).toEqual(['done']);
  expect(clock.now() - start).toBe(4_000);
  // Any other error is thrown at once; so is no room once the process is told to stop.
  fails = 1;
  const stop = new AbortController();
  stop.abort();
  const stopped = createJobRecorder(handle, log, {clock, signal: stop.signal});
  await expect(stopped.end({state: 'done', notified: true})).rejects.toThrow(/ENOSPC/);
});
