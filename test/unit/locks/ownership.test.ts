/**
 * LockOwnership watches proper-lockfile's file operations on one lock: the lock directory is
 * created private, a refresh of its mtime confirms the lock as ours (dated from the check, not
 * the write), another writer's mtime makes it not ours, and a lock kept on release is not
 * removed. Real files in a temporary directory.
 */
import {existsSync, mkdirSync, readdirSync, rmdirSync, statSync, utimesSync} from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import {createRequire, syncBuiltinESMExports} from 'node:module';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {LockOwnership} from '../../../src/locks/ownership.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const call = (f: (cb: (err: NodeJS.ErrnoException | null) => void) => void) =>
  new Promise<void>((resolve, reject) => f((err) => (err ? reject(err) : resolve())));

describe('LockOwnership', () => {
  test('creates the lock directory 0700 whatever the umask', async () => {
    const lock = join(useTempDir(), 'pane.lock');
    const o = new LockOwnership(lock, 10_000);
    const umask = process.umask(0o022);
    try {
      await call((cb) => o.fs.mkdir(lock, cb as never));
    } finally {
      process.umask(umask);
    }
    expect(statSync(lock).mode & 0o777).toBe(0o700);
  });

  test('not ours until a refresh is seen; ours after it; not ours once someone else sets the mtime', async () => {
    const lock = join(useTempDir(), 'pane.lock');
    const o = new LockOwnership(lock, 10_000);
    await call((cb) => o.fs.mkdir(lock, cb as never));
    expect(await o.stillOurs()).toBe(false);
    const before = Date.now();
    await new Promise((resolve) => o.fs.stat(lock, resolve as never));
    const now = new Date();
    await call((cb) => o.fs.utimes(lock, now, now, cb));
    expect(await o.stillOurs()).toBe(true);
    // Dated from the stat's issue, never later than the write.
    expect(o.confirmedAt).toBeGreaterThanOrEqual(before);
    expect(o.confirmedAt).toBeLessThanOrEqual(Date.now());
    // Another worker took it over as stale and set its own mtime.
    utimesSync(lock, new Date(now.getTime() + 5_000), new Date(now.getTime() + 5_000));
    expect(await o.stillOurs()).toBe(false);
  });

  test('a confirmation older than the safe age no longer counts', async () => {
    const {o} = await agedLock();
    expect(await o.stillOurs()).toBe(false);
  });

  test('a lock gone is not ours', async () => {
    const lock = join(useTempDir(), 'pane.lock');
    const o = new LockOwnership(lock, 10_000);
    await call((cb) => o.fs.mkdir(lock, cb as never));
    const now = new Date();
    await call((cb) => o.fs.utimes(lock, now, now, cb));
    await call((cb) => o.fs.rmdir(lock, cb));
    expect(existsSync(lock)).toBe(false);
    expect(await o.stillOurs()).toBe(false);
  });

  test('with removeOnRelease off, the unlock leaves the lock directory (it may be another worker’s now)', async () => {
    const lock = join(useTempDir(), 'pane.lock');
    const o = new LockOwnership(lock, 10_000);
    await call((cb) => o.fs.mkdir(lock, cb as never));
    o.removeOnRelease = false;
    await call((cb) => o.fs.rmdir(lock, cb));
    expect(existsSync(lock)).toBe(true);
    o.removeOnRelease = true;
    await call((cb) => o.fs.rmdir(lock, cb));
    expect(existsSync(lock)).toBe(false);
  });

  test('removeIfOurs removes an old lock still ours, moved aside first; another mtime it leaves', async () => {
    const {dir, lock, o} = await agedLock();
    await o.removeIfOurs();
    expect(readdirSync(dir)).toEqual([]);
    // A taker's lock (its own, newer mtime) in its place is never touched.
    mkdirSync(lock);
    await o.removeIfOurs();
    expect(readdirSync(dir)).toEqual(['pane.lock']);
  });

  test('removeIfOurs puts back what it moved aside when that turns out another worker’s', async () => {
    const {dir, lock, o, old} = await agedLock();
    // A takeover lands between the look and the move: the first stat of the lock (the look)
    // sees ours; by the move the directory is a taker's, with its own mtime.
    const promises = createRequire(import.meta.url)('node:fs/promises') as typeof FsPromises;
    const stat = promises.stat;
    let taken = false;
    promises.stat = (async (...args: Parameters<typeof stat>) => {
      const st = await stat(...args);
      if (!taken && String(args[0]) === lock) {
        taken = true;
        rmdirSync(lock);
        mkdirSync(lock);
      }
      return st;
    }) as typeof stat;
    syncBuiltinESMExports();
    try {
      await o.removeIfOurs();
    } finally {
      promises.stat = stat;
      syncBuiltinESMExports();
    }
    expect(taken).toBe(true);
    expect(readdirSync(dir)).toEqual(['pane.lock']);
    expect(statSync(lock).mtimeMs).toBeGreaterThan(old.getTime() + 1_000);
  });
});

/** A lock of ours (one refresh seen) whose mtime is 5 s old, its safe age 1 s: ours, yet too
 * old for a look to say so. */
async function agedLock() {
  const dir = useTempDir();
  const lock = join(dir, 'pane.lock');
  const o = new LockOwnership(lock, 1_000);
  await call((cb) => o.fs.mkdir(lock, cb as never));
  const old = new Date(Date.now() - 5_000);
  await call((cb) => o.fs.utimes(lock, old, old, cb));
  return {dir, lock, o, old};
}
