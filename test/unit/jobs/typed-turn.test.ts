import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {JobStore} from '../../../src/jobs/store.js';
import {paneTypedWith} from '../../../src/jobs/typed-turn.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A job store in a fresh state dir. */
async function freshStore(): Promise<JobStore> {
  const dir = useTempDir();
  await ensureStateDir(dir);
  return new JobStore(dir);
}

/** A job `id` (0mwr33g3x-ID) that typed `text` into `pane` with this delivery, in `state`. */
async function typedJob(
  store: JobStore,
  [id, pane, text, delivery, state]: [string, string, string, string, ('waiting' | 'done')?],
) {
  const o = {id: `0mwr33g3x-${id}`, pane, text, delivery, state};
  const handle = await store.create(
    jobRequest({jobId: o.id, pane: o.pane, text: o.text}),
    'detached',
  );
  await handle.appendEvent('typed', {chars: o.text.length, enter: true, delivery: o.delivery});
  await handle.updateState({state: o.state ?? 'waiting'});
}

describe("a turn's pane, proven by what nudge typed there", () => {
  test('one waiting job typed exactly the input, delivered: its pane, with its server', async () => {
    const store = await freshStore();
    await typedJob(store, ['aaaa', '%3', 'run the tests', 'submitted']);
    expect(await paneTypedWith(store.stateDir, ['run the tests'], Date.now())).toEqual({
      where: {socketPath: '/tmp/fake.sock', serverPid: 42, pane: '%3'},
      job: '0mwr33g3x-aaaa',
    });
  });

  test('a job that ended a moment ago still proves it (its screen may show the end before the hook runs); ten minutes on, no more', async () => {
    const store = await freshStore();
    await typedJob(store, ['cccc', '%5', 'c', 'submitted', 'done']);
    expect((await paneTypedWith(store.stateDir, ['c'], Date.now()))?.where.pane).toBe('%5');
    expect(await paneTypedWith(store.stateDir, ['c'], Date.now() + 11 * 60_000)).toBeUndefined();
  });

  test('nothing proven: another text, a delivery not read back, two panes with the same text', async () => {
    const store = await freshStore();
    await typedJob(store, ['aaaa', '%3', 'a', 'submitted']);
    await typedJob(store, ['bbbb', '%4', 'b', 'unconfirmed']);
    await typedJob(store, ['cccc', '%5', 'c', 'submitted', 'done']);
    expect(await paneTypedWith(store.stateDir, ['z'], Date.now())).toBeUndefined();
    expect(await paneTypedWith(store.stateDir, ['b'], Date.now())).toBeUndefined();
    expect(await paneTypedWith(store.stateDir, [], Date.now())).toBeUndefined();
    await typedJob(store, ['dddd', '%6', 'a', 'submitted']);
    expect(await paneTypedWith(store.stateDir, ['a'], Date.now())).toBeUndefined();
  });
});
