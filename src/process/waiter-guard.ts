import type {ChildProcess} from 'node:child_process';
import {startProcess} from './spawn.js';

/** The guard's whole program: wait for EOF on stdin (our end closes however we die), then
 * become the takeover worker. Only paths and a pid are passed, as "$0" and "$@"; no text of
 * ours reaches the shell. */
const GUARD_SCRIPT = 'read ignored; exec "$0" "$@"';

/**
 * Start a tiny `sh` that runs `node entry --id ID` when this process dies without stopping
 * it first: a waiter killed with -9 leaves its jobs to the takeover worker it starts
 * (src/waiter/waiter-takeover.ts). A waiter that ends in order stops the guard first. If
 * /bin/sh cannot start, the waiter runs without one (its jobs then show `lost`, as a killed
 * worker's do).
 */
export function startWaiterGuard(o: {
  node: string;
  entry: string;
  id: string;
  env: Record<string, string | undefined>;
}): {stop(): void} {
  const guard = startPipeGuard(GUARD_SCRIPT, [o.node, o.entry, '--id', o.id], o.env);
  return {stop: () => void guard?.kill('SIGKILL')};
}

/**
 * A tiny `sh -c SCRIPT ARG0 ARGS…` whose stdin is a pipe from this process, so that it reads
 * EOF however this process ends: the one way nudge leaves something to happen after its own
 * death (the control client's guard, the waiter's). Never keeps Node alive; undefined when
 * /bin/sh cannot start.
 */
export function startPipeGuard(
  script: string,
  args: readonly string[],
  env?: Record<string, string | undefined>,
): ChildProcess | undefined {
  let guard: ChildProcess;
  try {
    guard = startProcess('/bin/sh', ['-c', script, ...args], {
      stdio: ['pipe', 'ignore', 'ignore'],
      ...(env ? {env} : {}),
    });
  } catch {
    return undefined;
  }
  guard.on('error', () => {});
  guard.stdin?.on('error', () => {});
  guard.unref();
  (guard.stdin as {unref?: () => void} | null)?.unref?.();
  return guard;
}
