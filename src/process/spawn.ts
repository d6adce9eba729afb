import type * as ChildProcesses from 'node:child_process';
import type {ChildProcess, SpawnOptions} from 'node:child_process';
import {createRequire} from 'node:module';

/**
 * The one place nudge starts processes. Every start takes an argv array: no shell ever sees
 * user text. (Only `startProcess('/bin/sh', ['-c', FIXED_SCRIPT, …])` runs a shell, with a
 * fixed script and arguments passed as "$1".)
 *
 * Plain node:child_process rather than execa for these: they run in the front end and in
 * every worker, where importing execa costs ~120 ms on the 2-core CI machine (more than the
 * whole front-end budget), and they need nothing execa adds (see docs/benchmarks.md).
 * node:child_process itself is loaded at the first start (it brings Node's sockets and
 * streams, ~4 ms): `nudge jobs` and `nudge status` start none on Linux.
 */

const load = createRequire(import.meta.url);
const childProcesses = () => load('node:child_process') as typeof ChildProcesses;

/** How a program run to its end went. */
export type FileResult =
  | {ok: true; stdout: string; stderr: string}
  | {
      ok: false;
      stdout: string;
      stderr: string;
      /** The spawn error code (`ENOENT`: not on PATH), or undefined for an exit status. */
      code: string | undefined;
      /** Killed by the timeout. */
      killed: boolean;
      message: string;
    };

/** Run `file` with `args` to its end, capturing stdout and stderr (UTF-8), killed after
 * `timeoutMs`. Never rejects: a failure is a result. */
export function runFile(
  file: string,
  args: readonly string[],
  o: {timeoutMs: number; maxBuffer: number; env?: NodeJS.ProcessEnv},
): Promise<FileResult> {
  return new Promise((resolve) => {
    childProcesses().execFile(
      file,
      args,
      {
        timeout: o.timeoutMs,
        maxBuffer: o.maxBuffer,
        encoding: 'utf8',
        ...(o.env ? {env: o.env} : {}),
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ok: true, stdout, stderr});
        const code = (error as NodeJS.ErrnoException).code;
        resolve({
          ok: false,
          stdout,
          stderr,
          code: typeof code === 'string' ? code : undefined,
          killed: error.killed === true,
          message: error.message,
        });
      },
    );
  });
}

/** How a program run synchronously went: its stdout, `gone` when it exited 1 having printed
 * nothing (ps's "no such process"), or `failed` when it could not start, timed out or failed
 * otherwise — it could not say. */
export type SyncResult = {ok: true; stdout: string} | {ok: false; reason: 'gone' | 'failed'};

/** Run `file` with `args` to its end (killed after `timeoutMs`). For the few facts a
 * synchronous caller needs (whether a recorded process still runs, read with `ps` where there
 * is no /proc). */
export function runFileSync(
  file: string,
  args: readonly string[],
  o: {timeoutMs: number; env?: NodeJS.ProcessEnv},
): SyncResult {
  try {
    const stdout = childProcesses().execFileSync(file, args, {
      timeout: o.timeoutMs,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      ...(o.env ? {env: o.env} : {}),
    });
    return {ok: true, stdout};
  } catch (error) {
    const e = error as {status?: number | null; signal?: string | null; stdout?: string};
    const gone = e.status === 1 && !e.signal && (e.stdout ?? '').trim() === '';
    return {ok: false, reason: gone ? 'gone' : 'failed'};
  }
}

/**
 * The environment of a process-view program (ps, lsof): the PATH to find it and the C locale
 * (English month names in `lstart`), nothing else. Built at each call: the worker's own
 * environment may hold what a person wrote (sink URLs, the caller's variables), and no
 * program nudge runs to read the process table needs it.
 */
export function viewEnv(): NodeJS.ProcessEnv {
  return {PATH: process.env.PATH ?? '/usr/bin:/bin:/usr/sbin:/sbin', LC_ALL: 'C'};
}

/** Start a long-lived child (a tmux control client, a detached worker, a guard). */
export function startProcess(
  file: string,
  args: readonly string[],
  options: SpawnOptions,
): ChildProcess {
  return childProcesses().spawn(file, args, options);
}
