// The lease on a pane lock: the lock directory is private, a holder can check it still owns
// the lock before every key, and releasing never removes a lock another worker took over.
import {mkdirSync, rmdirSync, statSync, utimesSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {LeaseReleased, PaneLock} from '../../../src/locks/pane-lock.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A signal nothing aborts. */
const never = () => new AbortController().signal;

/** The lock as job `jobId` (this process), within 5 s. */
async function take(lock: PaneLock, jobId: string) {
  const r = await lock.acquire({jobId, pid: process.pid, timeoutMs: 5_000, signal: never()});
  if (!r.ok) throw new Error('lock timeout');
  return r.value;
}

describe('PaneLease', () => {
  test('the lock directory is created 0700, and assertHeld passes while it is ours', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    expect(statSync(lock.lockPath).mode & 0o777).toBe(0o700);
    expect(() => lease.assertHeld?.()).not.toThrow();
    expect(lease.signal.aborted).toBe(false);
    await lease.release();
    expect(() => statSync(lock.lockPath)).toThrow();
  });

  test('once released (even while the release is under way), assertHeld refuses every key', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    const releasing = lease.release();
    expect(() => lease.assertHeld()).toThrow(LeaseReleased);
    await releasing;
    expect(() => lease.assertHeld()).toThrow(/released the pane's lock/);
  });

  test('release leaves a lock that another worker took over (after a stall) in place', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    // What a second worker does once our lock looks stale: remove it and make its own,
    // with a newer mtime.
    rmdirSync(lock.lockPath);
    mkdirSync(lock.lockPath, {mode: 0o700});
    await expectReleaseLeavesTheirs(lock, lease);
  });

  test('a release after the lock was compromised does not remove it either', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    await expectReleaseLeavesTheirs(lock, lease);
  });
});

/** Another holder's lock (a newer mtime) is where the lease's was: releasing the lease
 * leaves it. */
async function expectReleaseLeavesTheirs(lock: PaneLock, lease: {release(): Promise<void>}) {
  const theirs = new Date(Date.now() + 10_000);
  utimesSync(lock.lockPath, theirs, theirs);
  await lease.release();
  expect(statSync(lock.lockPath).isDirectory()).toBe(true);
}
