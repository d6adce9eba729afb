import {readFileSync} from 'node:fs';
import {expect, test} from 'vitest';
import {createJobLogger} from '../../../src/base/log.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {createJobRecorder} from '../../../src/jobs/recorder.js';
import {JobStore} from '../../../src/jobs/store.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('one call per step: the record, events.jsonl and the log agree; the ending is written once', async () => {
  const home = useTempDir('nudge-recorder-');
  await ensureStateDir(home, {});
  const handle = await new JobStore(home).create(jobRequest({jobId: '0mwt00000-abcd'}), 'detached');
  const recorder = createJobRecorder(handle, createJobLogger(handle.logPath, {job: handle.id}));
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
  expect(events).toEqual(['queued', 'locked', 'typing', 'enter-retry', 'done']);
  const log = readFileSync(handle.logPath, 'utf8');
  expect(log).toContain('"msg":"state typing"');
  expect(log).toContain('"recorded":false');
});
