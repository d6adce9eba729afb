/**
 * executeJob, a job with the real world wired in (its files, its pane's lock, tmux on its
 * socket), and recordWorkerFailure, a worker that could not run its job at all: a job ended
 * before its worker started is left as it ended and taken out of its pane's queue; a job whose
 * tmux server is gone fails with one sentence in its record; a worker's crash is recorded in
 * a job not yet ended, never over an ending. Real files in a temporary state directory; tmux
 * is run against a socket where no server listens.
 */
import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {ensureStateDir} from '../../../src/base/paths.js';
import {executeJob, recordWorkerFailure} from '../../../src/job-worker/execute.js';
import {JobStore} from '../../../src/jobs/store.js';
import {paneLockFor} from '../../../src/locks/pane-lock.js';
import {jobRequest} from '../../helpers/job-request.js';
import {useTempDir} from '../../helpers/temp-dir.js';

async function recorded() {
  const home = useTempDir('nudge-execute-');
  await ensureStateDir(home, {});
  const request = jobRequest({
    jobId: '0mwt00000-abcd',
    server: {socketPath: join(home, 'no-server.sock'), pid: 4242},
  });
  const handle = await new JobStore(home).create(request, 'detached');
  const ctx = {
    stateDir: home,
    pid: process.pid,
    signal: new AbortController().signal,
    env: {},
  };
  const lock = paneLockFor(home, {
    socketPath: request.server.socketPath,
    serverPid: request.server.pid,
    pane: request.pane,
  });
  return {home, request, handle, ctx, lock};
}

describe('executeJob', () => {
  test('a job cancelled before its worker started: left as it ended, out of the pane’s queue', async () => {
    const w = await recorded();
    await w.lock.enqueue(w.request.jobId, process.pid);
    await w.handle.end('cancelled', {reason: 'Cancelled while queued.', notified: false});
    const outcome = await executeJob(w.request, w.ctx);
    expect(outcome).toEqual({
      state: 'cancelled',
      notified: false,
      reason: 'Cancelled while queued.',
    });
    expect(await readdir(w.lock.queueDir).catch(() => [])).toEqual([]);
    expect((await w.handle.readState()).state).toBe('cancelled');
  });

  test('a job whose tmux server is gone ends lost with one sentence, recorded; nothing is left queued', async () => {
    const w = await recorded();
    const outcome = await executeJob(w.request, w.ctx);
    expect(outcome.state).toBe('lost');
    const record = await w.handle.readState();
    expect(record.state).toBe('lost');
    expect(record.reason).toMatch(/^The tmux server .*\.$/);
    expect(record.reason).not.toMatch(/\n| {4}at /);
    expect(await readdir(w.lock.queueDir).catch(() => [])).toEqual([]);
  }, 60_000);
});

describe('recordWorkerFailure', () => {
  test('a job not yet ended is failed with the reason', async () => {
    const w = await recorded();
    await recordWorkerFailure(w.home, w.request.jobId, 'The worker crashed: boom.');
    expect(await w.handle.readState()).toMatchObject({
      state: 'failed',
      reason: 'The worker crashed: boom.',
    });
  });

  test('an ending is never overwritten', async () => {
    const w = await recorded();
    await w.handle.end('done', {reason: 'Done.', notified: true});
    await recordWorkerFailure(w.home, w.request.jobId, 'The worker crashed: boom.');
    expect(await w.handle.readState()).toMatchObject({state: 'done', reason: 'Done.'});
  });

  test('no job to record into: nothing thrown', async () => {
    const home = useTempDir('nudge-execute-');
    await expect(recordWorkerFailure(home, '0mwt00000-zzzz', 'boom')).resolves.toBeUndefined();
  });
});
