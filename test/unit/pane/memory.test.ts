import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {paneMemory} from '../../../src/pane/memory.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test("a pane's agent is remembered while the same process runs in it, forgotten for another", async () => {
  const memory = paneMemory(useTempDir('nudge-memory-'), {socketPath: '/tmp/s', serverPid: 7});
  expect(await memory.recall('%1', 100)).toBeUndefined();
  await memory.remember('%1', 100, 'codex');
  expect(await memory.recall('%1', 100)).toBe('codex');
  expect(await memory.recall('%1', 101)).toBeUndefined();
  expect(await memory.recall('%2', 100)).toBeUndefined();
});

test('a memory that cannot be written is only a hint: nothing throws', async () => {
  // The state folder's place is a file: no folder can be made there.
  const file = join(useTempDir('nudge-memory-'), 'a-file');
  writeFileSync(file, '');
  const memory = paneMemory(join(file, 'state'), {socketPath: '/tmp/s', serverPid: 7});
  await expect(memory.remember('%1', 100, 'codex')).resolves.toBeUndefined();
  expect(await memory.recall('%1', 100)).toBeUndefined();
});
