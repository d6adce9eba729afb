import {expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {claimJob} from '../../../src/job-worker/claim.js';
import {JobStore} from '../../../src/jobs/store.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

async function recorded() {
  const home = useTempDir('nudge-claim-');
  await ensureStateDir(home, {});
  const request = jobRequest({jobId: '0mwt00000-abcd'});
  const handle = await new JobStore(home).create(request, 'detached');
  return {home, request, handle};
}

test('a worker claims its job: the record names this process as its worker', async () => {
  const {home, request} = await recorded();
  const claimed = await claimJob(home, request, process.pid);
  expect(claimed.ended).toBe(false);
  const record = await claimed.handle.readState();
  expect(record.pid).toBe(process.pid);
  expect(record.state).toBe('queued');
});

test('a job cancelled before its worker started is left as it ended, and the worker has nothing to do', async () => {
  const {home, request, handle} = await recorded();
  await handle.end('cancelled', {reason: 'Cancelled while queued.', notified: false});
  const claimed = await claimJob(home, request, process.pid);
  expect(claimed.ended).toBe(true);
  expect((await claimed.handle.readState()).pid).toBeUndefined();
});
