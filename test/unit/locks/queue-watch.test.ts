import {rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {watchQueue} from '../../../src/locks/queue-watch.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('an entry that goes, then one that comes, each wakes the waiter once it is reset', async () => {
  const dir = useTempDir('nudge-queue-');
  const entry = join(dir, 'a.json');
  writeFileSync(entry, '{}');
  const watch = watchQueue(dir);
  expect(watch).toBeDefined();
  if (!watch) return;
  rmSync(entry);
  await watch.next;
  watch.reset();
  writeFileSync(join(dir, 'b.json'), '{}');
  await watch.next;
  expect(watch.broken).toBe(false);
  watch.close();
});

test('a folder that cannot be watched: undefined, and the caller polls', () => {
  expect(watchQueue(join(useTempDir('nudge-queue-'), 'missing'))).toBeUndefined();
});
