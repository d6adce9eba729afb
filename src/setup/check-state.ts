import {constants} from 'node:fs';
import {access, lstat, open, rm, stat} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {fsReason} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {type Check, fail, ok, warn} from './check.js';

/** `nudge doctor`'s state directory check: a plain folder of ours, private, and writable as a
 * job writes (data synced to the disk): a full or read-only disk fails with the reason. */
export async function checkState(env: Record<string, string | undefined>): Promise<Check> {
  const dir = resolveStateDir(env);
  const name = 'state-dir';
  try {
    const st = await lstat(dir);
    if (st.isSymbolicLink() || !st.isDirectory())
      return fail(
        name,
        `${dir} is not a plain directory.`,
        'Remove it, or set NUDGE_HOME to another path.',
      );
    if (thisProcess.uid !== undefined && st.uid !== thisProcess.uid)
      return fail(
        name,
        `${dir} belongs to another user (uid ${st.uid}).`,
        'Set NUDGE_HOME to a directory of your own.',
      );
    const mode = st.mode & 0o777;
    // What a job writes, as a job writes it: data, synced to the disk, then removed. An empty
    // file fits on a full disk; root writes into a folder whose mode says read-only.
    const probe = join(dir, `.doctor-${thisProcess.pid}`);
    try {
      const handle = await open(probe, 'w', 0o600);
      try {
        await handle.writeFile(Buffer.alloc(PROBE_BYTES, 0x6e));
        await handle.sync();
      } finally {
        await handle.close();
        await rm(probe, {force: true});
      }
    } catch (error) {
      return unwritable(`${dir} cannot be written`, error);
    }
    if (mode & 0o077)
      return warn(
        name,
        `${dir} is readable by others (mode ${mode.toString(8)}).`,
        `chmod 700 ${dir}`,
      );
    return ok(
      name,
      `${dir}, private (700) and writable (a ${PROBE_BYTES / 1024} KiB probe written, synced and removed).`,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    return checkToMake(dir);
  }
}

/** A state directory not made yet: ok only when the nearest folder that exists lets it be made
 * (a read-only file system, a file in the way, a folder of someone else's fail now, not at
 * the first job). */
async function checkToMake(dir: string): Promise<Check> {
  const name = 'state-dir';
  let at = dirname(dir);
  for (;;) {
    const st = await stat(at).catch((error: NodeJS.ErrnoException) => error.code ?? 'error');
    if (typeof st !== 'string') {
      if (!st.isDirectory())
        return fail(
          name,
          `${dir} cannot be made: ${at} is not a directory.`,
          'Set NUDGE_HOME to another path.',
        );
      break;
    }
    if (st !== 'ENOENT' || dirname(at) === at) break;
    at = dirname(at);
  }
  try {
    await access(at, constants.W_OK | constants.X_OK);
  } catch (error) {
    return unwritable(`${dir} does not exist yet and cannot be made in ${at}`, error);
  }
  return ok(name, `${dir} does not exist yet; nudge creates it (700) on first use.`);
}

/** The state directory's check failed on a file system error: what, the reason, the fix. */
function unwritable(what: string, error: unknown): Check {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return fail('state-dir', `${what}: ${fsReason(code)}.`, STATE_FIX[code] ?? STATE_FIX.other ?? '');
}

/** What the state directory's probe writes: about what a job's files take. */
const PROBE_BYTES = 64 * 1024;

/** The fix for a state directory that cannot be written, by the error's code. */
const STATE_FIX: Record<string, string> = {
  ENOSPC: 'Free some space on its disk, or set NUDGE_HOME to a directory on another one.',
  EDQUOT: 'Free some of your disk quota, or set NUDGE_HOME to a directory on another disk.',
  EROFS: 'Remount its file system read-write, or set NUDGE_HOME to a directory on a writable one.',
  other: 'Fix its permissions, or set NUDGE_HOME to a writable directory.',
};
