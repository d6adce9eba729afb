// Reading a file a repository or a flag names (src/base/bounded-read.ts): a FIFO no writer
// holds, /dev/zero and a folder are refused before a byte is read; a file over the limit is
// refused having read one byte past it; a file within it arrives whole.
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {
  ReadRefused,
  readCapped,
  readCappedSync,
  readFailure,
  sizeText,
} from '../../../src/base/bounded-read.js';
import {useTempDir} from '../../helpers/temp-dir.js';

function fifo(): string {
  const path = join(useTempDir('nudge-fifo-'), 'pipe.toml');
  execFileSync('mkfifo', [path]);
  return path;
}

describe('a capped read', () => {
  test('a regular file within the limit arrives whole, sync and async', async () => {
    const path = join(useTempDir('nudge-read-'), 'f');
    writeFileSync(path, 'x'.repeat(100));
    expect(readCappedSync(path, 100).toString()).toBe('x'.repeat(100));
    expect((await readCapped(path, 100)).toString()).toBe('x'.repeat(100));
  });

  test('a file over the limit is refused (too-big), sync and async', async () => {
    const path = join(useTempDir('nudge-read-'), 'f');
    writeFileSync(path, 'x'.repeat(101));
    expect(() => readCappedSync(path, 100)).toThrow(ReadRefused);
    await expect(readCapped(path, 100)).rejects.toMatchObject({why: 'too-big'});
  });

  test.each([
    ['a FIFO no writer holds', fifo, 'is a FIFO, not a regular file'],
    ['/dev/zero', () => '/dev/zero', 'is a character device, not a regular file'],
    ['a folder', () => useTempDir('nudge-dir-'), 'is a folder, not a regular file'],
  ])('%s is refused before a byte is read (no hang)', async (_what, make, detail) => {
    const path = make();
    expect(() => readCappedSync(path, 1024)).toThrow(detail);
    await expect(readCapped(path, 1024)).rejects.toMatchObject({why: 'not-a-file', detail});
  });

  test('a missing file is the file system error, as a sentence end', async () => {
    const dir = useTempDir('nudge-read-');
    mkdirSync(join(dir, 'd'));
    const error = await readCapped(join(dir, 'none'), 10).catch((e: unknown) => e);
    expect(readFailure(error)).toBe('cannot be read (ENOENT)');
  });

  test('sizes read as people write them', () => {
    expect(sizeText(64 * 1024)).toBe('64 KiB');
    expect(sizeText(1024 * 1024)).toBe('1 MiB');
    expect(sizeText(1000)).toBe('1000 bytes');
  });
});
