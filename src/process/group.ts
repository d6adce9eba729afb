import {readFileSync} from 'node:fs';
import type {Clock} from '../base/clock.js';
import {statFields} from './proc-stat.js';
import {psGroupSync} from './ps.js';
import {stopGracefully} from './stop.js';
import {processView} from './view.js';

/** Whether any process of group `pgid` is left (signal 0 probes without signalling). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** SIGINT to one process (a pane's shell, src/job-worker/stop-command.ts): never this process, nor
 * pid 0 or 1; a process gone already is no error. */
export function interruptProcess(pid: number): void {
  if (!Number.isSafeInteger(pid) || pid <= 1 || pid === process.pid) return;
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    // gone
  }
}

/**
 * End the process group `pgid` — what runs in the foreground of a pane nudge opened for
 * `nudge run`: SIGTERM, up to `graceMs` for it to go, then SIGKILL. Never this process's own
 * group, and never a group of one (0, 1). Returns how it ended: `gone` (nothing was left),
 * `terminated` or `killed`.
 */
export async function endProcessGroup(
  pgid: number,
  clock: Clock,
  graceMs = 2_000,
): Promise<'gone' | 'terminated' | 'killed'> {
  if (!Number.isSafeInteger(pgid) || pgid <= 1 || pgid === process.pid) return 'gone';
  if (pgid === getOwnGroup()) return 'gone';
  if (!groupAlive(pgid)) return 'gone';
  const how = await stopGracefully({
    send: (signal) => signalGroup(pgid, signal),
    alive: () => groupAlive(pgid),
    clock,
    graceMs,
  });
  return how === 'not-running' ? 'gone' : how;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // gone meanwhile
  }
}

/** This process's group id, from the process view in use. */
function getOwnGroup(): number | undefined {
  if (processView() === 'ps') return psGroupSync(process.pid);
  try {
    // Node has no getpgid; field 5 of /proc/self/stat is the process group.
    return Number(statFields(readFileSync('/proc/self/stat', 'utf8'))[2]);
  } catch {
    return undefined;
  }
}
