import {describe, expect, test} from 'vitest';
import {realClock} from '../../../src/base/clock.js';
import {paneKey} from '../../../src/locks/key.js';
import {PaneLock} from '../../../src/locks/pane-lock.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** Wait up to `timeoutMs` (5 s) for the lock as job `jobId` (this process), until `signal`. */
const take = (
  lock: PaneLock,
  jobId: string,
  timeoutMs = 5_000,
  signal = new AbortController().signal,
) => lock.acquire({jobId, pid: process.pid, timeoutMs, signal});

/** A lock in a fresh folder with three jobs queued, as submit queues them. */
async function threeQueued() {
  const lock = new PaneLock(useTempDir(), 'k', realClock);
  const ids = ['a0000000-0001', 'a0000000-0002', 'a0000000-0003'];
  for (const id of ids) await lock.enqueue(id);
  return {lock, ids};
}

describe('PaneLock', () => {
  test('keys differ per server socket, server pid and pane', () => {
    const k = paneKey({socketPath: '/tmp/a', serverPid: 10, pane: '%1'});
    expect(k).toMatch(/^[0-9a-f]{12}-10-p1$/);
    expect(paneKey({socketPath: '/tmp/b', serverPid: 10, pane: '%1'})).not.toBe(k);
    expect(paneKey({socketPath: '/tmp/a', serverPid: 11, pane: '%1'})).not.toBe(k);
    expect(paneKey({socketPath: '/tmp/a', serverPid: 10, pane: '%2'})).not.toBe(k);
  });

  test('waiters take the pane in queue order, one at a time', async () => {
    const {lock, ids} = await threeQueued();
    const order: string[] = [];
    let holders = 0;
    // Start in reverse order: the queue, not the start order, decides.
    await Promise.all(
      [...ids].reverse().map(async (jobId) => {
        const r = await take(lock, jobId, 20_000);
        if (!r.ok) throw new Error('lock timeout');
        holders++;
        expect(holders).toBe(1);
        order.push(jobId);
        await new Promise((resolve) => setTimeout(resolve, 50));
        holders--;
        await r.value.release();
      }),
    );
    expect(order).toEqual(ids);
  });

  test('gives up after the lock timeout and leaves the queue', async () => {
    const dir = useTempDir();
    const lock = new PaneLock(dir, 'k', realClock);
    const first = await take(lock, 'a0000000-0001', 1000);
    expect(first.ok).toBe(true);
    const second = await take(lock, 'a0000000-0002', 300);
    expect(second).toEqual({ok: false, error: {reason: 'lock-timeout', holder: 'a0000000-0001'}});
    expect(await lock.liveEntries()).toEqual(['a0000000-0001']);
    if (first.ok) await first.value.release();
    expect(await lock.liveEntries()).toEqual([]);
  });

  test('entries of dead processes are dropped from the queue', async () => {
    const dir = useTempDir();
    const lock = new PaneLock(dir, 'k', realClock);
    await lock.enqueue('a0000000-0001', 2 ** 22 + 12345); // no such pid
    await lock.enqueue('a0000000-0002', process.pid);
    expect(await lock.liveEntries()).toEqual(['a0000000-0002']);
  });

  test('a cancelled waiter rejects with an AbortError', async () => {
    const dir = useTempDir();
    const lock = new PaneLock(dir, 'k', realClock);
    const held = await take(lock, 'a0000000-0001', 1000);
    const controller = new AbortController();
    const waiting = take(lock, 'a0000000-0002', 10_000, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await expect(waiting).rejects.toMatchObject({name: 'AbortError'});
    if (held.ok) await held.value.release();
  });

  test("the person's order: a job moved first takes the pane before the older ones", async () => {
    const {lock} = await threeQueued();
    await lock.withQueue(async (entries) => {
      const last = entries.find((e) => e.jobId === 'a0000000-0003');
      if (last) await lock.writeEntry({...last, rank: 0});
    });
    expect(await lock.liveEntries()).toEqual(['a0000000-0003', 'a0000000-0001', 'a0000000-0002']);
    // The worker's claim (its pid) keeps the place the person gave it.
    await lock.enqueue('a0000000-0003', process.pid);
    expect((await lock.liveEntries())[0]).toBe('a0000000-0003');
    const r = await take(lock, 'a0000000-0003');
    expect(r.ok).toBe(true);
    // Taken: it stays first whatever the others' ranks, marked as at work.
    expect((await lock.entries()).find((e) => e.jobId === 'a0000000-0003')?.taken).toBe(true);
    if (r.ok) await r.value.release();
    expect(await lock.liveEntries()).toEqual(['a0000000-0001', 'a0000000-0002']);
  });

  test('a dropped job never takes the pane: its wait ends "dropped", the next one goes', async () => {
    const dir = useTempDir();
    const lock = new PaneLock(dir, 'k', realClock);
    await lock.enqueue('a0000000-0001', process.pid);
    await lock.enqueue('a0000000-0002', process.pid);
    await lock.withQueue(async (entries) => {
      const head = entries.find((e) => e.jobId === 'a0000000-0001');
      if (head) await lock.writeEntry({...head, dropped: true});
    });
    // Gone from everyone's view but its own.
    expect(await lock.liveEntries()).toEqual(['a0000000-0002']);
    const dropped = await take(lock, 'a0000000-0001');
    expect(dropped).toEqual({ok: false, error: {reason: 'dropped'}});
    const next = await take(lock, 'a0000000-0002');
    expect(next.ok).toBe(true);
    if (next.ok) await next.value.release();
  });

  test('hold keeps a place that would go stale, until it stops', async () => {
    const dir = useTempDir();
    const lock = new PaneLock(dir, 'k', realClock);
    await lock.enqueue('a0000000-0001');
    await lock.withQueue(async ([e]) => {
      if (e) await lock.writeEntry({...e, rank: 7});
    });
    const held = await lock.hold('a0000000-0001', process.pid);
    const [entry] = await lock.entries();
    expect(entry).toMatchObject({jobId: 'a0000000-0001', pid: process.pid, rank: 7});
    held.stop();
  });
});
