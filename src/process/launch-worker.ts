import {closeSync, openSync} from 'node:fs';
import {NudgeError} from '../base/errors.js';
import {FILE_MODE} from '../base/paths.js';
import type {Undo} from '../base/undo.js';
import {type ProcessId, processId} from './identity.js';
import {startProcess} from './spawn.js';

/**
 * Start the detached worker of a job, a run, a watcher's cycle or a relay, and return its
 * identity (pid and start time): the one launch of every worker kind (src/process/
 * worker-main.ts is the other end). What a failed start leaves behind is taken back in
 * reverse through `undo` (the job record, the pane, the worktree), and the error goes on.
 *
 * - `detached: true` calls setsid(): the worker gets its own session and process group and
 *   no controlling terminal, so the caller's exit, a SIGHUP to the caller's group and the
 *   caller's pane closing do not reach it (test/integration/detach.test.ts).
 * - stdio is /dev/null in and the log file out: no pipe to the caller stays open, so an
 *   agent's Bash tool (which waits for its pipes to close) returns at once.
 * - The worker is named its job (`--id`) and nothing more: every kind reads its request from
 *   the store by that id (a job's request.json, a relay's record, a run's, a watcher's), the
 *   one carrier of a request — never argv (`ps` shows it to everyone) or the environment.
 * - plain spawn (startProcess) rather than execa: nothing here needs execa's piping, and the
 *   detached fire-and-forget case is simplest (and fastest) with spawn + unref.
 */
export async function launchWorker(opts: {
  /** The worker script (dist/workers/job-worker.js, …). */
  entry: string;
  /** The job's id, or the watcher's name. */
  id: string;
  stateDir: string;
  logPath: string;
  env: Record<string, string | undefined>;
  /** What to take back, in reverse, if the worker cannot be started. */
  undo?: Undo;
}): Promise<ProcessId> {
  try {
    return launchDetached({
      entry: opts.entry,
      args: ['--id', opts.id],
      cwd: opts.stateDir,
      logPath: opts.logPath,
      env: {...opts.env, NUDGE_HOME: opts.stateDir},
    });
  } catch (error) {
    await opts.undo?.run();
    throw error;
  }
}

/**
 * Node's flags for a worker:
 * - a young generation of 1 MB a half-space (V8's default grows to 16): a worker allocates
 *   little and often (a screen read, a record), and a big nursery is memory held for garbage.
 *   Measured on fifty jobs waiting in one waiter: 88 MB against 140, and one job 74 MB against
 *   87 (docs/benchmarks.md);
 * - no memory reducer: V8's reducer starts three full collections 8 s after the process goes
 *   quiet, and again whenever the heap grew since, which is what a waiter does all day (a
 *   screen read a second). On a pane printing twice a second it was 40% of the waiting job's
 *   CPU (issue 44: 190 → 115 ms over 60 s, on-CPU time from /proc/<pid>/task/∗/schedstat); the
 *   heap is still collected as it fills.
 */
const WORKER_NODE_FLAGS = ['--max-semi-space-size=1', '--no-memory-reducer'];

/** Start a detached node process (`entry` with `args`): its own session, /dev/null in,
 * `logPath` out, `env` as given. */
function launchDetached(opts: {
  entry: string;
  args: readonly string[];
  cwd: string;
  logPath: string;
  env: Record<string, string | undefined>;
}): ProcessId {
  const fd = openSync(opts.logPath, 'a', FILE_MODE);
  try {
    const child = startProcess(process.execPath, [...WORKER_NODE_FLAGS, opts.entry, ...opts.args], {
      detached: true,
      stdio: ['ignore', fd, fd],
      cwd: opts.cwd,
      env: opts.env,
    });
    // Spawn errors arrive asynchronously; the worker's pid is what proves it started.
    child.on('error', () => {});
    if (child.pid === undefined) {
      throw new NudgeError(
        'spawn-failed',
        `Could not start the worker (${process.execPath}); check that node can run.`,
      );
    }
    child.unref();
    return processId(child.pid);
  } finally {
    closeSync(fd);
  }
}
