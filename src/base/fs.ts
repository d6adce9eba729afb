import {randomBytes} from 'node:crypto';
import {appendFile, open, rename, rm} from 'node:fs/promises';
import {NudgeError} from './errors.js';
import {FILE_MODE} from './paths.js';

/** Write `data` to `path` atomically (temp file + rename), mode 0600. Readers never see a
 * half-written file. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tmp, 'w', FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, {force: true});
    throw error;
  }
}

/** Append one line (O_APPEND: concurrent appenders never interleave within a line). */
export async function appendLine(path: string, line: string): Promise<void> {
  await appendFile(path, `${line}\n`, {encoding: 'utf8', mode: FILE_MODE, flag: 'a'});
}

/** A failed write under the state dir as a one-sentence NudgeError (exit 1). */
export function stateWriteError(stateDir: string, error: unknown): NudgeError {
  if (error instanceof NudgeError) return error;
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'the disk is full'
      : code === 'EROFS'
        ? 'the file system is read-only'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code;
  return new NudgeError(
    'state-dir',
    `Cannot write to the state directory ${stateDir} (${why}); free some space or fix it, or set NUDGE_HOME to a writable directory.`,
  );
}
