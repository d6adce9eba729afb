// A job put in its place: its record and its place in the pane's queue made together or not at
// all, and a submit sent twice answered by the job the first made.
import {rmSync, writeFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {madeBefore, recordJob} from '../../../src/jobs/enqueue.js';
import {JobStore} from '../../../src/jobs/store.js';
import {paneLockFor} from '../../../src/locks/pane-lock.js';
import {paneRefOf} from '../../../src/pane/target.js';
import type {PaneInfo} from '../../../src/tmux/tmux.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** The store of a state folder made as submit makes it. */
async function storeIn(stateDir: string): Promise<JobStore> {
  await ensureStateDir(stateDir);
  return new JobStore(stateDir);
}

const INFO = {
  paneId: '%1',
  sessionId: '$0',
  socketPath: '/tmp/fake.sock',
  serverPid: 42,
} as PaneInfo;

describe('recordJob', () => {
  test('the record and the place in the queue, together', async () => {
    const store = await storeIn(useTempDir());
    const stateDir = store.stateDir;
    const request = jobRequest({jobId: '0mwr33g3x-k62r'});
    await recordJob(request, {store, info: INFO, from: undefined});
    expect(await store.ids()).toEqual(['0mwr33g3x-k62r']);
    expect(await paneLockFor(stateDir, paneRefOf(INFO)).liveEntries()).toEqual(['0mwr33g3x-k62r']);
  });

  test('a record that cannot be written leaves no place in the queue behind', async () => {
    const store = await storeIn(useTempDir());
    // Where its folder would go, a file: the record cannot be made (root or not).
    rmSync(store.jobsDir, {recursive: true, force: true});
    writeFileSync(store.jobsDir, '');
    const request = jobRequest({jobId: '0mwr33g3x-k62r'});
    await expect(recordJob(request, {store, info: INFO, from: undefined})).rejects.toThrow(
      /Cannot write to the state directory/,
    );
    const stateDir = store.stateDir;
    expect(await paneLockFor(stateDir, paneRefOf(INFO)).liveEntries()).toEqual([]);
  });
});

describe('madeBefore', () => {
  test('a job id made before answers as that job; an unknown one is new; a bad one is refused', async () => {
    const store = await storeIn(useTempDir());
    await recordJob(jobRequest({jobId: '0mwr33g3x-k62r'}), {store, info: INFO, from: undefined});
    expect(await madeBefore(store, '0mwr33g3x-k62r')).toMatchObject({pane: '%1'});
    expect(await madeBefore(store, '0mwr33g3x-zzzz')).toBeUndefined();
    await expect(madeBefore(store, '../x')).rejects.toThrow('"../x" is not a job id.');
  });
});
