import type {ChildProcess} from 'node:child_process';
import {startProcess} from './spawn.js';

/** The guard's whole program: wait for EOF on stdin (our end closes however we die), then
 * become the takeover worker. Only paths and a pid are passed, as "$0" and "$@"; no text of
 * ours reaches the shell. */
const GUARD_SCRIPT = 'read ignored; exec "$0" "$@"';

/**
 * Start a tiny `sh` that runs `node entry --id ID` when this process dies without stopping
 * it first: a waiter killed with -9 leaves its jobs to the takeover worker it starts
 * (src/jobs/waiter-takeover.ts). A waiter that ends in order stops the guard first. If
 * /bin/sh cannot start, the waiter runs without one (its jobs then show `lost`, as a killed
 * worker's do).
 */
export function startWaiterGuard(o: {
  node: string;
  entry: string;
  id: string;
  env: Record<string, string | undefined>;
}): {stop(): void} {
  let guard: ChildProcess;
  try {
    guard = startProcess('/bin/sh', ['-c', GUARD_SCRIPT, o.node, o.entry, '--id', o.id], {
      stdio: ['pipe', 'ignore', 'ignore'],
      env: o.env,
    });
  } catch {
    return {stop: () => {}};
  }
  guard.on('error', () => {});
  guard.stdin?.on('error', () => {});
  // Never keeps Node alive by itself.
  guard.unref();
  (guard.stdin as {unref?: () => void} | null)?.unref?.();
  return {stop: () => void guard.kill('SIGKILL')};
}
