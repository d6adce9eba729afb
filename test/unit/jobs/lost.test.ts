import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {ensureStateDir} from '../../../src/base/paths.js';
import {
  believedRecord,
  endJobsOfGoneServers,
  tellingLostOnce,
  tellLost,
} from '../../../src/jobs/lost.js';
import {JobStore} from '../../../src/jobs/store.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test("a lost job's sinks are told once, by the first command that finds it so", async () => {
  const home = useTempDir('nudge-lost-');
  await ensureStateDir(home, {});
  const told = join(useTempDir('nudge-told-'), 'told.jsonl');
  const request = jobRequest({
    jobId: '0mwt00000-abcd',
    exact: {notifySinks: [`cmd:/usr/bin/tee -a ${told}`]},
  });
  const handle = await new JobStore(home).create(request, 'detached');
  const record = await handle.readState();
  const deps = {
    env: {},
    clock: realClock,
    // No tmux sink here: its client is made, never called.
    tmux: () => ({}) as Tmux,
  };
  await tellLost(handle, record, deps);
  await tellLost(handle, record, deps);
  const lines = readFileSync(told, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({event: 'lost', state: 'lost'});
  expect((await handle.readEvents()).filter((e) => e.event === 'notify-sent')).toHaveLength(1);
});

test("a gone server's live jobs end lost at once, told once; an ended job and a live server's are left", async () => {
  const home = useTempDir('nudge-lost-');
  await ensureStateDir(home, {});
  const told = join(useTempDir('nudge-told-'), 'told.jsonl');
  const store = new JobStore(home);
  const sinks = {notifySinks: [`cmd:/usr/bin/tee -a ${told}`]};
  // pid 2^22+1 runs nowhere: that server is gone; the live server answers with its own pid.
  const gone = {socketPath: '/tmp/gone.sock', pid: 4_194_305};
  const live = {socketPath: '/tmp/live.sock', pid: process.pid};
  const a = await store.create(
    jobRequest({jobId: '0mwt00000-aaaa', server: gone, exact: sinks}),
    'detached',
  );
  const b = await store.create(
    jobRequest({jobId: '0mwt00001-bbbb', server: live, exact: sinks}),
    'detached',
  );
  const c = await store.create(
    jobRequest({jobId: '0mwt00002-cccc', server: gone, exact: sinks}),
    'detached',
  );
  await c.end('done', {notified: true});
  const deps = {
    env: {},
    clock: realClock,
    tmux: (spec: {kind: string; path?: string}) =>
      ({
        describePane: async () => ({socketPath: spec.path, serverPid: process.pid}),
      }) as unknown as Tmux,
  };
  const ended = await endJobsOfGoneServers(store, deps);
  expect(ended.map((r) => r.id)).toEqual(['0mwt00000-aaaa']);
  expect(await a.readState()).toMatchObject({
    state: 'lost',
    reason: expect.stringContaining('/tmp/gone.sock (pid 4194305) is gone'),
  });
  expect((await b.readState()).state).toBe('queued');
  expect((await c.readState()).state).toBe('done');
  // A second sweep finds nothing more; the person was told once.
  expect(await endJobsOfGoneServers(store, deps)).toEqual([]);
  const lines = readFileSync(told, 'utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).event)).toEqual(['lost']);
  expect(JSON.parse(lines[0] ?? '{}').reason).toContain('nudge recover');
});

test('the worker that finds its server gone tells once, and a command after it does not again', async () => {
  const home = useTempDir('nudge-lost-');
  await ensureStateDir(home, {});
  const handle = await new JobStore(home).create(jobRequest(), 'detached');
  const sent: string[] = [];
  const tell = tellingLostOnce(handle.dir, async (c) => void sent.push(c.event));
  await tell({event: 'lost', state: 'lost'});
  await tell({event: 'lost', state: 'lost'});
  await tell({event: 'stalled', state: 'waiting'});
  expect(sent).toEqual(['lost', 'stalled']);
});

test('a record read before its worker wrote its ending and exited is read again, not called lost', async () => {
  const home = useTempDir('nudge-lost-');
  await ensureStateDir(home, {});
  const handle = await new JobStore(home).create(jobRequest(), 'detached');
  // Its worker: a process that ran and is gone (pid 1's start time is never this one's).
  await handle.updateState({state: 'waiting', pid: 1, pidStart: '1'});
  const stale = await handle.readState();
  await handle.end('done', {reason: 'matched'});
  const now = Date.now();
  expect(await believedRecord(handle, now, stale)).toMatchObject({
    shown: 'done',
    record: {state: 'done'},
  });
  // Still not ended when read again: lost.
  const other = await new JobStore(home).create(jobRequest({jobId: '0mwt00000-dead'}), 'detached');
  await other.updateState({state: 'waiting', pid: 1, pidStart: '1'});
  expect(await believedRecord(other, now)).toMatchObject({shown: 'lost'});
});
