import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {withRecordLock} from '../../../src/locks/record-lock.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test("a record's read-modify-write: changes made under the lock are never lost to each other", async () => {
  const target = join(useTempDir('nudge-record-'), 'watcher');
  let value = 0;
  const bump = () =>
    withRecordLock(target, 10_000, async () => {
      const seen = value;
      await new Promise((r) => setTimeout(r, 5));
      value = seen + 1;
    });
  await Promise.all(Array.from({length: 8}, bump));
  expect(value).toBe(8);
  expect(existsSync(`${target}.lock`)).toBe(false);
});

test('the lock is given back when the change throws', async () => {
  const target = join(useTempDir('nudge-record-'), 'watcher');
  await expect(
    withRecordLock(target, 10_000, async () => {
      throw new Error('bad record');
    }),
  ).rejects.toThrow('bad record');
  expect(existsSync(`${target}.lock`)).toBe(false);
});
