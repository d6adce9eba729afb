/**
 * takeOver on a real store in a temporary folder: of a killed waiter's jobs, one still queued
 * is started again in its caller's environment (and is its new worker's, never shown lost);
 * one that had its pane is ended lost with the reason; one handed to an agent's door is never
 * started again; another process's jobs, and ended ones, are left alone.
 */
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {writeFileAtomic} from '../../../src/base/fs.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import type {JobHandle} from '../../../src/jobs/store.js';
import {JobStore} from '../../../src/jobs/store.js';
import {takeOver} from '../../../src/waiter/waiter-takeover.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A pid no process has (above any pid_max). */
const DEAD = 2_147_483_000;

test("a killed waiter's jobs: queued ones start again, the others end lost", async () => {
  const home = useTempDir('nudge-takeover-');
  await ensureStateDir(home);
  const store = new JobStore(home);
  const make = async (
    id: string,
    state: 'queued' | 'waiting',
    o: {pid?: number; door?: boolean; waiter?: boolean} = {},
  ) => {
    const handle = await store.create(
      jobRequest({jobId: id, exact: o.door ? {ifBusy: 'now'} : {}}),
      'detached',
    );
    await handle.updateState({pid: o.pid ?? DEAD, waiter: o.waiter ?? true, state} as never);
    return handle;
  };
  const queued = await make('a0000000-0001', 'queued');
  await writeFileAtomic(
    join(queued.dir, 'caller.json'),
    JSON.stringify({TMUX_PANE: '%7', X: 'no'}),
  );
  await make('a0000000-0002', 'waiting');
  await make('a0000000-0003', 'queued', {door: true});
  await make('a0000000-0004', 'waiting', {pid: process.pid});
  await make('a0000000-0005', 'queued', {waiter: false});
  const launched: {id: string; env: Record<string, string | undefined>}[] = [];
  const done = await takeOver(DEAD, {
    stateDir: home,
    env: {HOME: '/home/a', TMUX_PANE: '%1'},
    launch: async (handle: JobHandle, env) => {
      launched.push({id: handle.id, env});
      return {pid: process.pid, start: undefined};
    },
    lost: {env: {}, clock: realClock, tmux: () => ({}) as never},
    log: () => {},
  });
  expect(done).toEqual({restarted: ['a0000000-0001'], lost: ['a0000000-0002', 'a0000000-0003']});
  // In its own caller's place; nothing but the PER_CALLER values taken from the kept file.
  expect(launched).toEqual([{id: 'a0000000-0001', env: {HOME: '/home/a', TMUX_PANE: '%7'}}]);
  expect(await queued.readState()).toMatchObject({
    state: 'queued',
    pid: process.pid,
    waiter: false,
  });
  const lost = await (await store.open('a0000000-0002')).readState();
  expect(lost.state).toBe('lost');
  expect(lost.reason).toMatch(
    /Its waiter \(process 2147483000\) was killed while the job was waiting/,
  );
  expect((await (await store.open('a0000000-0004')).readState()).state).toBe('waiting');
  expect((await (await store.open('a0000000-0005')).readState()).state).toBe('queued');
});
