/**
 * The waiter's lock on a real folder: one holder at a time, seen as held by others, and free
 * again once released.
 */
import {mkdir, readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {takeWaiterLock, waiterLockHeld} from '../../../src/locks/waiter-lock.js';
import {afterStall} from '../../helpers/stalled.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('one holder at a time; free again once released', async () => {
  const dir = join(useTempDir('nudge-waiter-lock-'), 'w');
  await mkdir(dir);
  expect(await waiterLockHeld(dir)).toBe(false);
  const first = await takeWaiterLock(dir);
  expect(first).toBeDefined();
  expect(first?.lost.aborted).toBe(false);
  expect(await waiterLockHeld(dir)).toBe(true);
  expect(await takeWaiterLock(dir)).toBeUndefined();
  await first?.release();
  expect(await waiterLockHeld(dir)).toBe(false);
  const second = await takeWaiterLock(dir);
  expect(second).toBeDefined();
  await second?.release();
});

test('released after a stall nobody took over, the lock is gone: the next waiter need not wait for it to go stale', async () => {
  const dir = join(useTempDir('nudge-waiter-lock-'), 'w');
  await mkdir(dir);
  const held = await takeWaiterLock(dir);
  await afterStall(async () => held?.release());
  expect(await readdir(dir)).toEqual([]);
  const next = await takeWaiterLock(dir);
  expect(next).toBeDefined();
  await next?.release();
});
