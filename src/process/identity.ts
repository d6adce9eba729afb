import {readFileSync} from 'node:fs';
import {statFields} from './proc-stat.js';
import {psStat} from './ps.js';
import {processView} from './view.js';

/**
 * A process as nudge records it: its pid and its start time, from the process view in use
 * (src/process/view.ts). Pids are reused (quickly after a reboot); pid and start time together
 * name one process, so a record's process is running only if both still match — a pid whose
 * start time cannot be read, or was never recorded, is not the recorded process.
 */
export interface ProcessId {
  pid: number;
  /** From /proc: field 22 of /proc/<pid>/stat (clock ticks since boot). From ps: `@` and the
   * seconds since the epoch (`lstart`). Absent where it could not be read. */
  start?: string | undefined;
}

/** The state and start time of `pid`, from the process view in use; `gone` when it lists no
 * such process, `unreadable` when it could not say (ps timed out or failed). */
function statOf(pid: number): {state: string; start: string} | 'gone' | 'unreadable' {
  return processView() === 'ps' ? psStat(pid) : procStatOf(pid);
}

/** The state (field 3) and start time (field 22) of `pid`, where /proc says them. */
function procStatOf(pid: number): {state: string; start: string} | 'gone' {
  try {
    const fields = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return {state: fields[0] ?? '', start: fields[19] ?? ''};
  } catch {
    // Gone between the signal probe and the read (or hidden from us: not ours either way).
    return 'gone';
  }
}

function startOf(pid: number): string | undefined {
  const stat = statOf(pid);
  return typeof stat === 'string' ? undefined : stat.start;
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

/** Whether the process `id` names is still running, as far as anyone can tell: its pid is
 * alive, not a zombie, and started when it was recorded to — or alive while the process view
 * could not say (`unknown`: a job is not called lost because ps was slow). A pid whose start
 * time was not recorded, or is another's, cannot be tied to the record: not running. */
export function isRunning(id: ProcessId): boolean {
  const how = identify(id);
  return how === 'running' || how === 'unknown';
}

/** Whether `id`'s process runs, is gone, is a live pid that cannot be tied to it (`other`:
 * reused, or its start time never recorded), or is alive and the process view could not say
 * more (`unknown`: ps timed out or failed). */
export function identify(id: ProcessId): 'running' | 'gone' | 'other' | 'unknown' {
  if (!isPidAlive(id.pid)) return 'gone';
  const now = statOf(id.pid);
  if (now === 'unreadable') return 'unknown';
  // A live pid the view does not list: not one we can tie to the record.
  if (now === 'gone') return 'other';
  // An exited process not yet reaped (a detached worker's parent is gone, and not every
  // init reaps at once) still answers signal 0: it is not running.
  if (now.state === 'Z' || now.state === 'X') return 'gone';
  return id.start !== undefined && now.start === id.start ? 'running' : 'other';
}

/**
 * Send `signal` to the process `id` names, or to its whole process group (a detached worker
 * leads its own: what it started goes too). Never to a pid that is no longer that process.
 * Returns whether it was sent.
 */
export function signalProcess(id: ProcessId, signal: NodeJS.Signals, group: boolean): boolean {
  // Only a process known to be the one recorded: not one the process view could not read.
  if (identify(id) !== 'running') return false;
  try {
    process.kill(group ? -id.pid : id.pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}
