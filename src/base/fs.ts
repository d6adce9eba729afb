import {readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import {appendFile, open, rename, rm} from 'node:fs/promises';
import {fsReason, fsRemedy, NudgeError} from './errors.js';
import {FILE_MODE} from './paths.js';
import {thisProcess} from './this-process.js';

let written = 0;
/** A suffix no other write, in this process or another, uses at the same time (pid and a
 * counter; no node:crypto, which costs the front end ~8 ms to load). */
export function uniqueSuffix(): string {
  written++;
  return `${thisProcess.pid}-${written}`;
}

/** Write `data` to `path` atomically (temp file + rename), mode 0600. Readers never see a
 * half-written file. `durable: false` skips the fsync, for a record that means nothing after
 * a crash (the pid of a process the crash ended). */
export async function writeFileAtomic(
  path: string,
  data: string,
  o: {durable: boolean} = {durable: true},
): Promise<void> {
  const tmp = `${path}.${uniqueSuffix()}.tmp`;
  const handle = await open(tmp, 'w', FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    if (o.durable) await handle.sync();
  } catch (error) {
    // Not written (the disk full): no half file left behind.
    await handle.close().catch(() => {});
    await rm(tmp, {force: true});
    throw withPath(error, tmp);
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, {force: true});
    throw error;
  }
}

/** Write a small record that means nothing after a crash (the pid of a process the crash
 * ended) atomically, at once: no fsync, and no trips through Node's thread pool (four, for
 * the front end's last write before it exits). */
export function writeNow(path: string, data: string): void {
  const tmp = `${path}.${uniqueSuffix()}.tmp`;
  try {
    writeFileSync(tmp, data, {encoding: 'utf8', mode: FILE_MODE});
    renameSync(tmp, path);
  } catch (error) {
    rmSync(tmp, {force: true});
    throw withPath(error, tmp);
  }
}

/** Append lines in one write (O_APPEND: concurrent appenders never interleave within it). */
export async function appendLine(path: string, ...lines: string[]): Promise<void> {
  const text = lines.map((line) => `${line}\n`).join('');
  await appendFile(path, text, {encoding: 'utf8', mode: FILE_MODE, flag: 'a'}).catch(
    (error: unknown) => {
      throw withPath(error, path);
    },
  );
}

/** A write's error names the file it failed on (a write to an open file, ENOSPC, names
 * none), so its sentence can name the folder (fileSystemSentence in src/base/errors.ts). */
function withPath(error: unknown, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (e !== null && typeof e === 'object' && typeof e.code === 'string' && e.path === undefined)
    e.path = path;
  return error;
}

/** A failed write under the state dir as a one-sentence NudgeError (exit 1). */
export function stateWriteError(stateDir: string, error: unknown): NudgeError {
  if (error instanceof NudgeError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return new NudgeError(
    'state-dir',
    `Cannot write to the state directory ${stateDir} (${fsReason(code)}); ${fsRemedy(code)}, or set NUDGE_HOME to a writable directory.`,
  );
}

/** A small file's text, read at once, or `fallback` where it cannot be read. */
export function readTextOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
}
