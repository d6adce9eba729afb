import {mkdirSync, readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {appendLine, writeNow} from '../../../src/base/fs.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const folder = () => useTempDir('nudge-fs-');

test('writeNow replaces a file whole, private to its owner, and leaves no temporary file', () => {
  const dir = folder();
  const path = join(dir, 'worker.pid');
  writeNow(path, '123 456\n');
  writeNow(path, '789\n');
  expect(readFileSync(path, 'utf8')).toBe('789\n');
  expect(statSync(path).mode & 0o777).toBe(0o600);
  expect(readdirSync(dir)).toEqual(['worker.pid']);
});

test('writeNow that cannot replace the file throws naming it and leaves no temporary file', () => {
  const dir = folder();
  // A directory where the file would go: the rename fails.
  mkdirSync(join(dir, 'worker.pid'));
  expect(() => writeNow(join(dir, 'worker.pid'), '1\n')).toThrow(/worker\.pid/);
  expect(readdirSync(dir)).toEqual(['worker.pid']);
});

test('appendLine writes its lines in one write, in order, after what was there', async () => {
  const path = join(folder(), 'events.jsonl');
  await appendLine(path, '{"event":"queued"}', '{"event":"receipt"}');
  await appendLine(path, '{"event":"typing"}');
  expect(readFileSync(path, 'utf8')).toBe(
    '{"event":"queued"}\n{"event":"receipt"}\n{"event":"typing"}\n',
  );
});
