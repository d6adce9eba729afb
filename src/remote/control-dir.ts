import {lstat, mkdir} from 'node:fs/promises';
import {connect} from 'node:net';
import {join} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {DIR_MODE, socketPathLimit} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';

/**
 * Where a host's ssh control socket lives: a private folder (0700, ours) whose path fits the
 * platform's socket path once ssh adds its suffix.
 */

/** What ssh adds to ControlPath while it binds: `.` and 16 random characters (mux.c). */
export const SSH_TEMP_SUFFIX = 17;

/**
 * The folder of a host's control socket (`<folder>/<key>.sock`): the state dir's `ssh`, else
 * (a path too long for the platform once ssh adds its suffix) a private folder under the temp
 * folder, else under /tmp; a NudgeError when even that does not fit.
 */
export function controlDir(o: {
  stateDir: string;
  key: string;
  platform: NodeJS.Platform;
  tmp: string;
  uid: number | undefined;
}): string {
  const mine = `nudge-ssh-${o.uid ?? 'user'}`;
  const candidates = [join(o.stateDir, 'ssh'), join(o.tmp, mine), join('/tmp', mine)];
  const fits = (dir: string) =>
    Buffer.byteLength(join(dir, `${o.key}.sock`)) + SSH_TEMP_SUFFIX <= socketPathLimit(o.platform);
  const dir = candidates.find(fits);
  if (dir === undefined)
    throw new NudgeError(
      'state-dir',
      `ssh's control socket does not fit in ${socketPathLimit(o.platform)} bytes under ${candidates.join(', ')}; set NUDGE_HOME to a shorter path.`,
    );
  return dir;
}

/** Whether a master answers on the control socket (a leftover socket file refuses). */
export function socketAlive(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A folder only we can use (0700, ours, not a symlink): it holds the control socket. */
export async function ensurePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, {recursive: true, mode: DIR_MODE});
  const st = await lstat(dir);
  if (
    !st.isDirectory() ||
    (thisProcess.uid !== undefined && st.uid !== thisProcess.uid) ||
    (st.mode & 0o077) !== 0
  ) {
    throw new NudgeError(
      'state-dir',
      `${dir} must be a folder of your own that only you can open (mode 0700): it holds the ssh connections to your hosts.`,
    );
  }
}
