// The lease on a pane lock: the lock directory is private, a holder can check it still owns
// the lock before every key, and releasing never removes a lock another worker took over.
import {mkdirSync, readdirSync, rmdirSync, statSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {LEASE_SAFE_AGE_MS, LOCK_UPDATE_MS, leaseWatchdog} from '../../../src/locks/lease.js';
import {LeaseReleased, PaneLock} from '../../../src/locks/pane-lock.js';
import {afterStall} from '../../helpers/stalled.js';
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

  test('a release after a stall nobody took over removes the lock: the next job need not wait for it to go stale', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    await afterStall(async () => {
      expect(() => lease.assertHeld()).toThrow(/stalled/);
      await lease.release();
    });
    expect(readdirSync(lock.locksDir).filter((n) => !n.endsWith('.queue'))).toEqual([]);
  });

  test('a release after the lock was compromised does not remove it either', async () => {
    const lock = new PaneLock(useTempDir(), 'k', realClock);
    const lease = await take(lock, 'a0000000-0001');
    await expectReleaseLeavesTheirs(lock, lease);
  });
});

describe('upkeep rides on the refresh', () => {
  test(
    "each refresh of the lock touches the holder's queue entry (no heartbeat timer of its own)",
    async () => {
      const lock = new PaneLock(useTempDir(), 'k', realClock);
      const lease = await take(lock, 'a0000000-0001');
      const [name] = readdirSync(lock.queueDir).filter((n) => n.endsWith('.json'));
      const entry = join(lock.queueDir, name ?? '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(entry, old, old);
      // The next refresh (LOCK_UPDATE_MS on) touches it again.
      const deadline = Date.now() + LOCK_UPDATE_MS + 3_000;
      while (statSync(entry).mtimeMs < Date.now() - 30_000 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statSync(entry).mtimeMs).toBeGreaterThan(Date.now() - 30_000);
      await lease.release();
    },
    LOCK_UPDATE_MS + 10_000,
  );
});

describe('leaseWatchdog', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('checks once the last confirmation comes of age, and each refresh moves it on', () => {
    vi.useFakeTimers({now: 1_000_000});
    let confirmed = Date.now();
    const checks: number[] = [];
    const dog = leaseWatchdog(
      () => confirmed,
      () => {
        checks.push(Date.now());
      },
    );
    // Refreshes every 4 s: the watchdog never fires.
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(LOCK_UPDATE_MS);
      confirmed = Date.now();
      dog.moveOn();
    }
    expect(checks).toEqual([]);
    // A late refresh: it fires once the confirmation is LEASE_SAFE_AGE_MS old.
    vi.advanceTimersByTime(LEASE_SAFE_AGE_MS + 1);
    expect(checks).toEqual([confirmed + LEASE_SAFE_AGE_MS + 1]);
    dog.stop();
  });

  test('a check that throws (compromised, released) ends it; stop ends it too', () => {
    vi.useFakeTimers({now: 1_000_000});
    let calls = 0;
    const confirmed = Date.now();
    leaseWatchdog(
      () => confirmed,
      () => {
        calls++;
        throw new Error('compromised');
      },
    );
    vi.advanceTimersByTime(10 * LEASE_SAFE_AGE_MS);
    expect(calls).toBe(1);
    let stoppedCalls = 0;
    const dog = leaseWatchdog(
      () => confirmed,
      () => {
        stoppedCalls++;
      },
    );
    dog.stop();
    vi.advanceTimersByTime(10 * LEASE_SAFE_AGE_MS);
    expect(stoppedCalls).toBe(0);
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
