import type {Clock} from '../base/clock.js';
import {isRunning, type ProcessId, signalProcess} from '../process/identity.js';
import {stopGracefully} from '../process/stop.js';
import {describeAssessor} from './assessor.js';
import type {WatcherRecord} from './record.js';
import type {WatcherView} from './types.js';

/**
 * A watcher as commands show it (its cycle only while that process runs), and the stop of its
 * cycle worker.
 */

/** The record as shown: a cycle only while its process runs. */
export function viewOf(r: WatcherRecord): WatcherView {
  const running = r.cycle !== undefined && isRunning(processOf(r.cycle));
  return {
    name: r.name,
    state: r.state,
    pane: r.pane,
    paneTarget: r.paneTarget,
    socketPath: r.socketPath,
    plan: r.plan,
    assessor: describeAssessor(r.assessor),
    options: r.options,
    ...(r.pausedReason ? {pausedReason: r.pausedReason} : {}),
    ...(r.stalled ? {stalled: r.stalled} : {}),
    injections: r.injections ?? 0,
    pending: r.pending.length,
    ...(running ? {cycle: r.cycle?.pid} : {}),
    ...(r.cycle && !running
      ? {
          lostCycle: `its cycle worker (pid ${r.cycle.pid}) is gone without finishing; the next report starts a new one`,
        }
      : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    transcript: r.transcript,
  };
}

export function processOf(cycle: NonNullable<WatcherRecord['cycle']>): ProcessId {
  return {pid: cycle.pid, start: cycle.pidStart};
}

/** How long a cycle gets to stop after SIGTERM (an injection under way finishes first). */
export const STOP_GRACE_MS = 15_000;

export const STOP_POLL_MS = 50;

/** Stop a cycle worker and what it started (its process group): SIGTERM, then SIGKILL after
 * the grace period. Whether one was running. */
export async function stopCycle(worker: ProcessId, clock: Clock): Promise<boolean> {
  const how = await stopGracefully({
    send: (signal) => signalProcess(worker, signal, true),
    alive: () => isRunning(worker),
    clock,
    graceMs: STOP_GRACE_MS,
    pollMs: STOP_POLL_MS,
  });
  return how !== 'not-running';
}
