import {spawnSync} from 'node:child_process';
import {mkdir, readdir, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {layout} from '../../../src/base/paths.js';
import {
  ControlMutexTimeout,
  controlMutexFor,
  controlMutexPath,
} from '../../../src/locks/control-mutex.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const server = {socketPath: '/tmp/nudge-test.sock', serverPid: 4242};

/** A pid that certainly belongs to no running process: one that has just exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid ?? 0;
}

describe('controlMutexFor', () => {
  test('sections of one server never overlap', async () => {
    const state = useTempDir('nudge-mutex-');
    const mutex = controlMutexFor(state, server, {pid: process.pid});
    const log: string[] = [];
    await Promise.all(
      Array.from({length: 8}, (_, i) =>
        mutex.run(async () => {
          log.push(`in ${i}`);
          await new Promise((resolve) => setTimeout(resolve, 3));
          log.push(`out ${i}`);
        }),
      ),
    );
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i]?.replace('in', 'out')).toBe(log[i + 1]);
    }
    // Nothing left behind.
    expect(await readdir(layout.locksDir(state))).toEqual([]);
  });

  test('a section that throws releases the mutex', async () => {
    const state = useTempDir('nudge-mutex-');
    const mutex = controlMutexFor(state, server, {pid: process.pid});
    await expect(mutex.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(mutex.run(async () => 'next')).resolves.toBe('next');
  });

  test("a dead holder's mutex is taken over; a live holder's is waited for, then given up on", async () => {
    const state = useTempDir('nudge-mutex-');
    const holdBy = async (pid: number) => {
      const dir = controlMutexPath(state, server);
      await mkdir(dir, {recursive: true});
      await writeFile(join(dir, 'owner'), String(pid));
    };

    await holdBy(deadPid());
    const mutex = controlMutexFor(state, server, {pid: process.pid, waitMs: 2_000});
    await expect(mutex.run(async () => 'taken over')).resolves.toBe('taken over');

    // Our parent (the test runner) is alive and is not us.
    await holdBy(process.ppid);
    const impatient = controlMutexFor(state, server, {pid: process.pid, waitMs: 50});
    await expect(impatient.run(async () => 'never')).rejects.toBeInstanceOf(ControlMutexTimeout);
  });

  test('a holder caught between creating its owner file and writing its pid is waited for', async () => {
    const state = useTempDir('nudge-mutex-');
    const dir = controlMutexPath(state, server);
    const dead = String(deadPid());
    for (const owner of [undefined, '', dead]) {
      await rm(dir, {recursive: true, force: true});
      await mkdir(dir, {recursive: true});
      if (owner !== undefined) await writeFile(join(dir, 'owner'), owner);
      const mutex = controlMutexFor(state, server, {pid: process.pid, waitMs: 100});
      if (owner === dead) {
        // A complete pid (of a process that is not running here) is a dead holder.
        await expect(mutex.run(async () => 'taken')).resolves.toBe('taken');
      } else {
        await expect(mutex.run(async () => 'never')).rejects.toBeInstanceOf(ControlMutexTimeout);
      }
    }
  });
});
