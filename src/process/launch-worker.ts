import {closeSync, openSync} from 'node:fs';
import {NudgeError} from '../base/errors.js';
import {FILE_MODE} from '../base/paths.js';
import {type ProcessId, processId} from './identity.js';
import {startProcess} from './spawn.js';

/**
 * Start the detached worker for a job and return its identity (pid and start time). This is the only place that
 * spawns workers.
 *
 * - `detached: true` calls setsid(): the worker gets its own session and process group and
 *   no controlling terminal, so the caller's exit, a SIGHUP to the caller's group and the
 *   caller's pane closing do not reach it (test/integration/detach.test.ts).
 * - stdio is /dev/null in and the job's log file out: no pipe to the caller stays open, so
 *   an agent's Bash tool (which waits for its pipes to close) returns at once.
 * - The request travels in the environment, not argv: /proc/<pid>/environ is readable only
 *   by the same user, argv by everyone (`ps`).
 * - plain spawn (startProcess) rather than execa: nothing here needs execa's piping, and the
 *   detached fire-and-forget case is simplest (and fastest) with spawn + unref.
 */
export function launchWorker(opts: {
  /** The worker script (dist/workers/job-worker.js). */
  entry: string;
  jobId: string;
  stateDir: string;
  encodedRequest: string;
  logPath: string;
  env: Record<string, string | undefined>;
}): ProcessId {
  return launchDetached({
    entry: opts.entry,
    args: ['--job', opts.jobId],
    cwd: opts.stateDir,
    logPath: opts.logPath,
    env: {...opts.env, NUDGE_REQUEST: opts.encodedRequest, NUDGE_HOME: opts.stateDir},
  });
}

/** Start a detached node worker (`entry` with `args`) as launchWorker does: its own session,
 * /dev/null in, `logPath` out, `env` as given. Used for job workers and watcher cycles. */
export function launchDetached(opts: {
  entry: string;
  args: readonly string[];
  cwd: string;
  logPath: string;
  env: Record<string, string | undefined>;
}): ProcessId {
  const fd = openSync(opts.logPath, 'a', FILE_MODE);
  try {
    const child = startProcess(process.execPath, [opts.entry, ...opts.args], {
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
