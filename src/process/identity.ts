import {readFileSync} from 'node:fs';

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

/** The start time of `pid`, where /proc says it. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces or ")":
    // they start at field 3, so field 22 (starttime) is the 20th.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
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

/** Whether the process `id` names is still running: its pid is alive and, where its start
 * time was recorded and can be read, started then. Without a recorded start time a live pid
 * is trusted (records from other systems). */
export function isRunning(id: ProcessId): boolean {
  if (!isPidAlive(id.pid)) return false;
  if (id.start === undefined) return true;
  const now = startOf(id.pid);
  // A live pid whose /proc cannot be read: not Linux, or it just exited.
  return now === undefined ? process.platform !== 'linux' : now === id.start;
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
