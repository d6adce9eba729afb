/**
 * The job doors (issue 42), on a real store in a temporary folder: a job on a pane of another
 * session is refused to a caller inside a pane (status, cancel, queue edit… all pass here) and
 * left out of its lists; the person outside tmux reaches every job.
 */
import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {checkJobReach, jobsInReach} from '../../../src/jobs/job-reach.js';
import {JobStore} from '../../../src/jobs/store.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {paneRow, treeWith} from '../../helpers/fake-tree.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SOCKET = '/tmp/fake.sock';
const SESSIONS: Record<string, string> = {'%1': '$0', '%2': '$0', '%9': '$3'};
const tmux = () =>
  ({
    describePane: async (pane: string) =>
      SESSIONS[pane] ? ({paneId: pane, sessionId: SESSIONS[pane]} as PaneInfo) : undefined,
    paneStates: async () => Object.entries(SESSIONS).map(([p, s]) => paneRow(p, s)),
  }) as unknown as Tmux;
/** The caller: no tmux server among its ancestors, no terminal (its claims are all it has). */
const caller = {pid: 1000, tree: treeWith([{pid: 1000, command: 'node nudge'}])};

async function world() {
  const home = useTempDir('nudge-reach-');
  await ensureStateDir(home);
  const store = new JobStore(home);
  const server = {socketPath: SOCKET, pid: 42};
  await store.create(jobRequest({jobId: 'a0000000-0001', pane: '%2', server}), 'detached');
  await store.create(jobRequest({jobId: 'a0000000-0002', pane: '%9', server}), 'detached');
  const inside = {
    NUDGE_HOME: home,
    TMUX: `${SOCKET},42,0`,
    TMUX_PANE: '%1',
    XDG_CONFIG_HOME: '/no',
  };
  return {home, store, inside};
}

describe('the job doors', () => {
  test("inside a pane: its session's job passes, another session's is refused in one sentence", async () => {
    const {inside} = await world();
    await checkJobReach('a0000000-0001', {...caller, env: inside, tmux});
    await expect(
      checkJobReach('a0000000-0002', {...caller, env: inside, tmux}),
    ).rejects.toMatchObject({
      code: 'out-of-reach',
      message: `Job a0000000-0002 (pane %9) is out of reach: it is in another session than the pane nudge runs in (%1), and config.toml's [submit] panes is not "server".`,
    });
  });

  test('a list keeps only the jobs in reach; the person outside tmux sees all', async () => {
    const {home, store, inside} = await world();
    const records = await store.list();
    expect((await jobsInReach(records, {...caller, env: inside, tmux})).map((r) => r.id)).toEqual([
      'a0000000-0001',
    ]);
    expect(await jobsInReach(records, {...caller, env: {NUDGE_HOME: home}, tmux})).toHaveLength(2);
    await checkJobReach('a0000000-0002', {...caller, env: {NUDGE_HOME: home}, tmux});
  });

  test('a job that does not exist is left to the command', async () => {
    const {inside} = await world();
    await checkJobReach('nope', {...caller, env: inside, tmux});
  });
});
