import {execFileSync} from 'node:child_process';
import {closeSync, mkdirSync, openSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import {onTestFinished} from 'vitest';
import {useTempDir} from './temp-dir.js';

/** Mount a tmpfs of `size` at a new directory in a temp dir; undefined if mounting is not
 * allowed here (not root, no CAP_SYS_ADMIN). Unmounted (lazily: a killed worker may still
 * hold a file) after the test. */
export function useTmpfs(size: string): string | undefined {
  const dir = join(useTempDir('nudge-tmpfs-'), 'fs');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
  } catch {
    return undefined;
  }
  onTestFinished(() => {
    try {
      execFileSync('umount', ['-l', dir], {stdio: 'ignore'});
    } catch {
      // already gone
    }
  });
  return dir;
}

/** Fill the file system holding `dir` until writes fail with ENOSPC, to its last byte: the
 * file that holds it (closed: an open file keeps its room after it is removed). */
export function fillDisk(dir: string): string {
  const filler = join(dir, 'filler');
  const fd = openSync(filler, 'w');
  try {
    for (const size of [64 * 1024, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x66);
      try {
        for (;;) writeSync(fd, chunk);
      } catch {
        // full to the last `size` bytes; then in smaller writes
      }
    }
  } finally {
    closeSync(fd);
  }
  return filler;
}
