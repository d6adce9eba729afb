import {readFileSync} from 'node:fs';
import {describeError, EXIT_CODES, type ExitCode, fileSystemSentence} from '../base/errors.js';
import {statFields} from './proc-stat.js';

/**
 * The one entry of every detached worker (workers/*.ts hand it their kind): it reads what
 * the launch (src/process/launch-worker.ts) gave — the job's id (`--id`) and the state folder
 * (NUDGE_HOME), by which each kind reads its request from the store — turns SIGTERM and SIGINT into the stop signal,
 * records any failure the work did not record itself (bad input, a throw, an uncaught error)
 * in the kind's own record, and exits with the code of the one table (src/base/errors.ts).
 */
export interface WorkerStart {
  /** The job's id (a watcher's name), from `--id`. */
  id: string;
  /** The state folder (NUDGE_HOME). */
  stateDir: string;
  env: Record<string, string | undefined>;
  pid: number;
  uid: number;
  cwd: string;
  /** This node (to run nudge again). */
  node: string;
  /** Aborted by SIGTERM or SIGINT (`nudge cancel`, `watch pause`): end the work in order. */
  signal: AbortSignal;
  /** A line of the worker's log (its stdout and stderr are the log file). */
  log(line: string): void;
  /** CPU and peak memory so far (for the job's record). */
  usage(): WorkerUsage;
  /** Hear SIGUSR2: `nudge cancel` marked one of the jobs this process runs (a waiter's). */
  onCancelMarks(listener: () => void): () => void;
}

/** CPU and peak memory of a worker, and the CPU of its exited children where the system tells
 * it (Linux /proc). */
export interface WorkerUsage {
  cpuMs: number;
  childrenCpuMs?: number | undefined;
  maxRssKb: number;
}

/** A kind of worker: its work, and where a failure of it is recorded. */
export interface WorkerKind {
  name: 'job' | 'run' | 'watch' | 'relay' | 'takeover';
  /** What an id of this kind looks like: anything else names no record (`../x`) and is
   * refused before anything is read or written. */
  idPattern: RegExp;
  /** Set up what the kind reads before its work (the profile files the command read). */
  prepare?(env: Record<string, string | undefined>): void;
  /** The work; its exit code (the one table's, through exitCodeOfState where it ends a job). */
  run(start: WorkerStart): Promise<ExitCode>;
  /** Record `reason` as the failure of the work (never throws). */
  recordFailure(start: WorkerStart, reason: string): Promise<void>;
}

/** Run a worker of `kind` in this process: the only thing a file of workers/ does. */
export async function workerMain(kind: WorkerKind): Promise<void> {
  const signal = stopSignal();
  const env = process.env;
  const at = process.argv.indexOf('--id');
  const start: WorkerStart = {
    id: at < 0 ? '' : (process.argv[at + 1] ?? ''),
    stateDir: env.NUDGE_HOME ?? '',
    env,
    pid: process.pid,
    uid: process.getuid?.() ?? 0,
    cwd: process.cwd(),
    node: process.execPath,
    signal,
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
    usage,
    onCancelMarks: cancelMarks(),
  };
  const fail = async (reason: string): Promise<void> => {
    process.stderr.write(`nudge ${kind.name} worker: ${reason}\n`);
    await kind.recordFailure(start, `Worker failed: ${reason}.`).catch(() => {});
    process.exitCode = EXIT_CODES.failure;
  };
  const crash = (how: string) => (error: unknown) =>
    void fail(`${how} ${describeError(error)}`).finally(() => process.exit(EXIT_CODES.failure));
  process.on('uncaughtException', crash('uncaught'));
  process.on('unhandledRejection', crash('unhandled'));
  if (!kind.idPattern.test(start.id)) {
    process.stderr.write(
      `nudge ${kind.name} worker: ${JSON.stringify(start.id)} is not an id of a ${kind.name}.\n`,
    );
    process.exitCode = EXIT_CODES.failure;
    return;
  }
  if (!start.stateDir) return fail('NUDGE_HOME is not set');
  try {
    kind.prepare?.(env);
    process.exitCode = await kind.run(start);
  } catch (error) {
    // A file system error as one sentence naming the folder and what to do (issue 62).
    await fail(fileSystemSentence(error)?.message.replace(/\.$/, '') ?? describeError(error));
  }
}

/**
 * The worker's stop signal: SIGTERM or SIGINT aborts it, and the worker ends its work in
 * order. A hangup is ignored: the worker has no terminal (setsid), and the caller's terminal
 * closing must not end it.
 */
function stopSignal(): AbortSignal {
  const controller = new AbortController();
  process.on('SIGTERM', () => controller.abort());
  process.on('SIGINT', () => controller.abort());
  process.on('SIGHUP', () => {});
  return controller.signal;
}

/**
 * SIGUSR2, which `nudge cancel` sends a waiter after it marks one of its jobs: heard for the
 * whole life of the worker, so that one coming as the waiter leaves does not end the process
 * (SIGUSR2's default) with a job still recording its ending.
 */
function cancelMarks(): (listener: () => void) => () => void {
  const listeners = new Set<() => void>();
  process.on('SIGUSR2', () => {
    for (const listener of [...listeners]) listener();
  });
  return (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
}

function usage(): WorkerUsage {
  const own = process.resourceUsage();
  let childrenCpuMs: number | undefined;
  try {
    // cutime and cstime: fields 16 and 17, in clock ticks of 10 ms.
    const fields = statFields(readFileSync('/proc/self/stat', 'utf8'));
    childrenCpuMs = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // not Linux
  }
  return {
    cpuMs: Math.round((own.userCPUTime + own.systemCPUTime) / 1000),
    childrenCpuMs,
    maxRssKb: own.maxRSS,
  };
}
