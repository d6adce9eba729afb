import {
  accessSync,
  constants,
  lstatSync,
  mkdirSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import {access, lstat, mkdir, rmdir} from 'node:fs/promises';
import {homedir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {fsReason, NudgeError} from './errors.js';
import {thisProcess} from './this-process.js';

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

/** Job ids: a base-36 millisecond timestamp (sorts by time) and four random characters. */
export const JOB_ID_PATTERN = /^[0-9a-z]{8,12}-[0-9a-z]{4}$/;

/** The wall time (ms since the epoch) a job id was made at: its base-36 prefix; NaN for a
 * word that has none. */
export function jobIdTime(jobId: string): number {
  return Number.parseInt(jobId.split('-')[0] ?? '', 36);
}

/** The layout under the state directory. */
export const layout = {
  jobsDir: (stateDir: string) => join(stateDir, 'jobs'),
  /** A job's directory. Throws for anything but a well-formed job id: an id comes from argv
   * or the environment, and `../x` must never name a path outside jobs/. */
  jobDir: (stateDir: string, jobId: string) => {
    if (!JOB_ID_PATTERN.test(jobId)) {
      throw new NudgeError(
        'bad-job',
        `${JSON.stringify(jobId)} is not a job id; run "nudge jobs" to list them.`,
      );
    }
    return join(stateDir, 'jobs', jobId);
  },
  locksDir: (stateDir: string) => join(stateDir, 'locks'),
};

/**
 * Create (0700) and check the state directory: it must be a real directory (not a symlink),
 * owned by us and writable, on a path no one else can change (stateDirProblem). Throws a
 * NudgeError naming the directory and what to do.
 */
export async function ensureStateDir(
  stateDir: string,
  env: {HOME?: string | undefined} = {},
): Promise<void> {
  // At once, as stateDirProblem looks: a few calls of microseconds each, where every
  // asynchronous one is a trip to Node's thread pool on the path of every submit.
  try {
    try {
      mkdirSync(stateDir, {recursive: true, mode: DIR_MODE});
    } catch (error) {
      throw await mkdirCause(stateDir, error);
    }
    const why = stateDirProblem(stateDir, env.HOME);
    if (why !== undefined) throw new NudgeError('state-dir', why);
    accessSync(stateDir, constants.W_OK);
    for (const dir of [layout.jobsDir(stateDir), layout.locksDir(stateDir)]) {
      mkdirSync(dir, {recursive: true, mode: DIR_MODE});
      const sub = lstatSync(dir);
      if (sub.isSymbolicLink() || !sub.isDirectory()) {
        throw new NudgeError(
          'state-dir',
          `${dir} in the state directory is not a plain directory (a symlink or a file); remove it and try again.`,
        );
      }
    }
  } catch (error) {
    if (error instanceof NudgeError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    throw new NudgeError(
      'state-dir',
      `Cannot use the state directory ${stateDir}: ${fsReason(code)}; ${code === 'ENOSPC' ? 'free some space, ' : ''}make it writable or set NUDGE_HOME to a writable directory.`,
    );
  }
}

/**
 * What really stopped a recursive mkdir: Node says ENOENT for a folder it could not make under
 * a read-only (or not writable) parent (issue 62: a read-only NUDGE_HOME was "a folder on its
 * path does not exist"). The first missing folder is made alone, which fails with the cause.
 */
async function mkdirCause(stateDir: string, error: unknown): Promise<unknown> {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  let missing = resolve(stateDir);
  for (let up = dirname(missing); up !== missing; up = dirname(up)) {
    const there = await lstat(up).then(
      () => true,
      () => false,
    );
    if (there) break;
    missing = up;
  }
  try {
    await mkdir(missing, {mode: DIR_MODE});
    await rmdir(missing);
    return error;
  } catch (cause) {
    return cause;
  }
}

/**
 * The state directory a command that only reads is to read (`jobs`, `status`, `logs`, `top`,
 * `wait`, `explain`, the trust store): the same walk as a writer's (stateDirProblem), so a
 * reader never follows what a writer refuses — another user's symlinked NUDGE_HOME, a folder
 * others can write. One not there yet is fine (there is nothing to read). Throws exit 1.
 */
export function readableStateDir(env: StateEnv): string {
  const stateDir = resolveStateDir(env);
  const why = stateDirProblem(stateDir, env.HOME);
  if (why !== undefined) throw new NudgeError('state-dir', why);
  return stateDir;
}

/** The state directory where it passes stateDirProblem, else undefined: for what only shows
 * what is there (doctor's lines, the trust store), which then reads nothing (`doctor`'s
 * state-dir line says why). */
export function soundStateDir(env: StateEnv): string | undefined {
  const stateDir = resolveStateDir(env);
  return stateDirProblem(stateDir, env.HOME) === undefined ? stateDir : undefined;
}

/** A folder of the state directory (`marks`, `install`) where it passes stateDirProblem. */
export function soundStateFolder(env: StateEnv, name: string): string | undefined {
  const stateDir = soundStateDir(env);
  return stateDir === undefined ? undefined : join(stateDir, name);
}

/**
 * Why the state directory may not be used, as one sentence, or undefined: it must be a plain
 * directory (not a symlink), ours, writable by no one else — others who can write there could
 * plant symlinks (jobs/ → anywhere) or fake queue entries; refused, as ssh does for ~/.ssh —
 * and so must the folders above it (parentProblem). A directory that is not there has none.
 * Synchronous: a few lstat calls, for readers that are (the trust store).
 */
export function stateDirProblem(stateDir: string, home: string | undefined): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(stateDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT') return linkProblem(stateDir);
    return `Cannot use the state directory ${stateDir}: ${fsReason(code)}; make it writable or set NUDGE_HOME to a writable directory.`;
  }
  if (st.isSymbolicLink() || !st.isDirectory())
    return `The state directory ${stateDir} is not a plain directory (a symlink or a file); remove it or set NUDGE_HOME to another path.`;
  if (thisProcess.uid !== undefined && st.uid !== thisProcess.uid)
    return `The state directory ${stateDir} belongs to another user; set NUDGE_HOME to a directory of your own.`;
  if ((st.mode & 0o022) !== 0)
    return `The state directory ${stateDir} is writable by others (mode ${(st.mode & 0o777).toString(8)}); run "chmod 700 ${stateDir}" or set NUDGE_HOME to a private directory.`;
  return linkProblem(stateDir) ?? parentProblem(stateDir, home);
}

/**
 * The folders above the state directory, as OpenSSH's StrictModes checks those above
 * ~/.ssh: each must belong to us or root and be writable by no one else — else another user
 * could rename the state directory away and put their own in its place (jobs that type what
 * they wrote, a trust file of their choosing). A root-owned folder with the sticky bit
 * (`/tmp`) lets no one rename what is ours in it, and passes. The walk stops at the home
 * folder (whose own mode is the person's) and at `/`.
 */
function parentProblem(stateDir: string, home: string | undefined): string | undefined {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return path;
    }
  };
  const top = home ? real(home) : undefined;
  let dir = dirname(real(stateDir));
  for (;;) {
    if (dir === top) return undefined;
    let st: Stats;
    try {
      st = statSync(dir);
    } catch (error) {
      return `Cannot use the state directory ${stateDir}: ${fsReason((error as NodeJS.ErrnoException).code ?? 'error')} (${dir}); set NUDGE_HOME to a directory under your home.`;
    }
    const owner = st.uid === 0 || thisProcess.uid === undefined || st.uid === thisProcess.uid;
    const sticky = (st.mode & 0o1000) !== 0 && st.uid === 0;
    if (!owner)
      return `${dir}, above the state directory ${stateDir}, belongs to another user; set NUDGE_HOME to a directory under your home.`;
    if ((st.mode & 0o022) !== 0 && !sticky)
      return `${dir}, above the state directory ${stateDir}, is writable by others (mode ${(st.mode & 0o777).toString(8)}); run "chmod go-w ${dir}" or set NUDGE_HOME to a directory under your home.`;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * The path as given, before links are followed: a folder on it that is a symbolic link must
 * be ours or root's, else its owner could point it elsewhere later (the walk above checks only
 * where it points now).
 */
function linkProblem(stateDir: string): string | undefined {
  let dir = dirname(resolve(stateDir));
  for (;;) {
    let st: Stats | undefined;
    try {
      st = lstatSync(dir);
    } catch {
      st = undefined;
    }
    if (
      st?.isSymbolicLink() &&
      st.uid !== 0 &&
      thisProcess.uid !== undefined &&
      st.uid !== thisProcess.uid
    )
      return `${dir}, on the way to the state directory ${stateDir}, is a symbolic link of another user; set NUDGE_HOME to a directory under your home.`;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Where `program` is on `env.PATH` (the first executable file of that name), if anywhere. */
export async function findOnPath(
  program: string,
  env: {PATH?: string | undefined},
): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(':').filter((d) => d.startsWith('/'))) {
    const file = join(dir, program);
    try {
      await access(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The longest socket path the platform binds, less its NUL: Linux 108 bytes, macOS/BSD 104. */
export function socketPathLimit(platform: NodeJS.Platform): number {
  return (platform === 'linux' ? 108 : 104) - 1;
}

/** Why a Unix socket cannot be made at `path` (its length), or undefined when it fits: a
 * longer path fails to bind, or binds a cut name elsewhere, on every system. */
export function socketPathProblem(path: string, platform: NodeJS.Platform): string | undefined {
  const bytes = Buffer.byteLength(path);
  const limit = socketPathLimit(platform);
  return bytes <= limit
    ? undefined
    : `the socket path ${path} is ${bytes} bytes, over the ${limit} a socket's path may have here; set NUDGE_HOME to a shorter path`;
}
