import {constants} from 'node:fs';
import {access, lstat, mkdir} from 'node:fs/promises';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {NudgeError} from './errors.js';

/** Environment variables that choose the state directory. */
export interface StateEnv {
  NUDGE_HOME?: string | undefined;
  XDG_STATE_HOME?: string | undefined;
  HOME?: string | undefined;
}

/** `$NUDGE_HOME`, else `$XDG_STATE_HOME/tmux-nudge`, else `~/.local/state/tmux-nudge`. The
 * same rule in every context (shell, cron, launchd, systemd), so all of them share locks. */
export function resolveStateDir(env: StateEnv): string {
  if (env.NUDGE_HOME) return env.NUDGE_HOME;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'tmux-nudge');
  return join(env.HOME || homedir(), '.local', 'state', 'tmux-nudge');
}

/** Private directories (0700) and files (0600): the request holds what the user typed. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** The layout under the state directory. */
export const layout = {
  jobsDir: (stateDir: string) => join(stateDir, 'jobs'),
  jobDir: (stateDir: string, jobId: string) => join(stateDir, 'jobs', jobId),
  locksDir: (stateDir: string) => join(stateDir, 'locks'),
};

/**
 * Create (0700) and check the state directory: it must be a real directory (not a symlink),
 * owned by us and writable. Throws a NudgeError naming the directory and what to do.
 */
export async function ensureStateDir(stateDir: string): Promise<void> {
  try {
    await mkdir(stateDir, {recursive: true, mode: DIR_MODE});
    const st = await lstat(stateDir);
    if (st.isSymbolicLink() || !st.isDirectory()) {
      throw new NudgeError(
        'state-dir',
        `The state directory ${stateDir} is not a plain directory (a symlink or a file); remove it or set NUDGE_HOME to another path.`,
      );
    }
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
      throw new NudgeError(
        'state-dir',
        `The state directory ${stateDir} belongs to another user; set NUDGE_HOME to a directory of your own.`,
      );
    }
    await access(stateDir, constants.W_OK);
    await mkdir(layout.jobsDir(stateDir), {recursive: true, mode: DIR_MODE});
    await mkdir(layout.locksDir(stateDir), {recursive: true, mode: DIR_MODE});
  } catch (error) {
    if (error instanceof NudgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new NudgeError(
      'state-dir',
      `Cannot use the state directory ${stateDir} (${code}); make it writable or set NUDGE_HOME to a writable directory.`,
    );
  }
}
