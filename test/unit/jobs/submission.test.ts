// A submit's job from what was given to its worker: its options decided once (with
// config.toml's defaults), its record and its place in the queue made together or not at all,
// and a submit sent twice answered by the job the first made.
import {mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {JobStore} from '../../../src/jobs/store.js';
import {madeBefore, recordJob, submitJobOptions} from '../../../src/jobs/submission.js';
import {paneLockFor} from '../../../src/locks/pane-lock.js';
import {paneRefOf} from '../../../src/pane/target.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {treeWith} from '../../helpers/fake-tree.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** An environment whose config.toml says `toml`. */
function configSaying(toml: string) {
  const home = useTempDir();
  mkdirSync(join(home, 'nudge'));
  writeFileSync(join(home, 'nudge', 'config.toml'), toml);
  return {XDG_CONFIG_HOME: home};
}

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
const TMUX = {} as Tmux;

describe('submitJobOptions', () => {
  test("config.toml's via, busy policy and sinks where none is given; the flags where they are", () => {
    const env = configSaying(
      '[submit]\nvia = "keys"\nif-busy = "wait"\n[notify]\nsinks = ["tmux"]\n',
    );
    const taken = submitJobOptions({text: 'npm test'}, env);
    expect(taken.ifBusy).toBe('wait');
    expect(taken.options).toMatchObject({via: 'keys', ifBusy: 'wait'});
    expect(taken.options.notifySinks).toHaveLength(1);
    const given = submitJobOptions({text: 'npm test', ifBusy: 'refuse', via: 'auto'}, env);
    expect(given.options).toMatchObject({via: 'auto', ifBusy: 'refuse'});
  });

  test('--if-busy now waits for nothing: no stall watchdog, and --stall with it is refused', () => {
    const env = configSaying('[submit]\nstall = "5m"\n');
    expect(submitJobOptions({text: 'hi', ifBusy: 'now'}, env).options.stall).toBeNull();
    expect(submitJobOptions({text: 'hi'}, env).options.stall).not.toBeNull();
    expect(() => submitJobOptions({text: 'hi', ifBusy: 'now', stall: '5m'}, env)).toThrow(
      /--stall watches the wait .* give one of them/,
    );
  });
});

/** The person outside tmux: no claim, no tmux server among its ancestors, no terminal. */
const PERSON = {env: {}, pid: 1000, tree: treeWith()};

describe('recordJob', () => {
  test('the record and the place in the queue, together', async () => {
    const store = await storeIn(useTempDir());
    const stateDir = store.stateDir;
    const request = jobRequest({jobId: '0mwr33g3x-k62r'});
    await recordJob(request, 'detached', {store, tmux: TMUX, info: INFO, caller: PERSON});
    expect(await store.ids()).toEqual(['0mwr33g3x-k62r']);
    expect(await paneLockFor(stateDir, paneRefOf(INFO)).liveEntries()).toEqual(['0mwr33g3x-k62r']);
  });

  test('a record that cannot be written leaves no place in the queue behind', async () => {
    const store = await storeIn(useTempDir());
    // Where its folder would go, a file: the record cannot be made (root or not).
    rmSync(store.jobsDir, {recursive: true, force: true});
    writeFileSync(store.jobsDir, '');
    const request = jobRequest({jobId: '0mwr33g3x-k62r'});
    await expect(
      recordJob(request, 'detached', {store, tmux: TMUX, info: INFO, caller: PERSON}),
    ).rejects.toThrow(/Cannot write to the state directory/);
    const stateDir = store.stateDir;
    expect(await paneLockFor(stateDir, paneRefOf(INFO)).liveEntries()).toEqual([]);
  });
});

describe('madeBefore', () => {
  test('a job id made before answers as that job; an unknown one is new; a bad one is refused', async () => {
    const store = await storeIn(useTempDir());
    await recordJob(jobRequest({jobId: '0mwr33g3x-k62r'}), 'detached', {
      store,
      tmux: TMUX,
      info: INFO,
      caller: PERSON,
    });
    expect(await madeBefore(store, '0mwr33g3x-k62r')).toMatchObject({pane: '%1'});
    expect(await madeBefore(store, '0mwr33g3x-zzzz')).toBeUndefined();
    await expect(madeBefore(store, '../x')).rejects.toThrow('"../x" is not a job id.');
  });
});
