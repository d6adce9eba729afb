import {readFileSync} from 'node:fs';
import {statFields} from './proc-stat.js';

/**
 * A process as nudge records it: its pid and, where the system tells it (Linux /proc), its
 * start time. Pids are reused (quickly after a reboot); pid and start time together name one
 * process, so a record's process is alive only if both still match.
 */
export interface ProcessId {
  pid: number;
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot); absent where unknown. */
  start?: string | undefined;
}

/** The state (field 3) and start time (field 22) of `pid`, where /proc says them. */
function statOf(pid: number): {state: string; start: string} | undefined {
  try {
    const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return {state: fields[0] ?? '', start: fields[19] ?? ''};
  } catch {
    return undefined;
  }
}

function startOf(pid: number): string | undefined {
  return statOf(pid)?.start;
}

/** The identity of the running process `pid` (this process, or a child just started). */
export function processId(pid: number): ProcessId {
  const start = startOf(pid);
  return start === undefined ? {pid} : {pid, start};
}

/** Whether process `pid` exists (signal 0 probes without signalling). */
export function isPidAlive(pid: number | undefined): boolean {
  if (!pid || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process `id` names is still running: its pid is alive, not a zombie and,
 * where its start time was recorded and can be read, started then. Without a recorded start
 * time a live pid is trusted (records from other systems). */
export function isRunning(id: ProcessId): boolean {
  if (!isPidAlive(id.pid)) return false;
  const now = statOf(id.pid);
  // A live pid whose /proc cannot be read: not Linux, or it just exited.
  if (now === undefined) return process.platform !== 'linux';
  // An exited process not yet reaped (a detached worker's parent is gone, and not every
  // init reaps at once) still answers signal 0: it is not running.
  if (now.state === 'Z' || now.state === 'X') return false;
  return id.start === undefined || now.start === id.start;
}

/**
 * Send `signal` to the process `id` names, or to its whole process group (a detached worker
 * leads its own: what it started goes too). Never to a pid that is no longer that process.
 * Returns whether it was sent.
 */
export function signalProcess(id: ProcessId, signal: NodeJS.Signals, group: boolean): boolean {
  if (!isRunning(id)) return false;
  try {
    process.kill(group ? -id.pid : id.pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}
