import {readFileSync} from 'node:fs';
import type {Clock} from '../base/clock.js';
import {statFields} from './proc-stat.js';

/** Whether any process of group `pgid` is left (signal 0 probes without signalling). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
  signalGroup(pgid, 'SIGTERM');
  const deadline = clock.now() + graceMs;
  while (clock.now() < deadline) {
    await clock.sleep(50);
    if (!groupAlive(pgid)) return 'terminated';
  }
  signalGroup(pgid, 'SIGKILL');
  return 'killed';
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone meanwhile
  }
}

/** This process's group id (Linux /proc; undefined elsewhere). */
function getOwnGroup(): number | undefined {
  try {
    // Node has no getpgid; field 5 of /proc/self/stat is the process group.
    return Number(statFields(readFileSync('/proc/self/stat', 'utf8'))[2]);
  } catch {
    return undefined;
  }
}
