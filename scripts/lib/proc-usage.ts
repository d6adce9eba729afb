/**
 * CPU time of a process tree from /proc (Linux), for the benchmark: a process, every live
 * descendant, and the children they have already reaped (cutime/cstime), so a worker's tmux
 * client and a poller's short-lived capture processes all count. Clock ticks are 10 ms.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {statFields} from '../../src/process/proc-stat.js';

const TICK_MS = 10;

interface ProcStat {
  /** utime + stime + cutime + cstime, in ms. */
  cpuMs: number;
  /** utime + stime: the process alone. */
  ownCpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const f = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    const tick = (i: number) => Number(f[i] ?? 0) * TICK_MS;
    return {ownCpuMs: tick(11) + tick(12), cpuMs: tick(11) + tick(12) + tick(13) + tick(14)};
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (text) out.push(...text.split(' ').map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

/** `read` of `pid` and of each live descendant, summed; undefined if `pid` is gone. */
function treeSum(pid: number, read: (pid: number) => number | undefined): number | undefined {
  const root = read(pid);
  if (root === undefined) return undefined;
  let total = root;
  const seen = new Set([pid]);
  const queue = childrenOf(pid);
  while (queue.length > 0) {
    const child = queue.shift()!;
    if (seen.has(child)) continue;
    seen.add(child);
    total += read(child) ?? 0;
    queue.push(...childrenOf(child));
  }
  return total;
}

/** CPU ms used so far by `pid` and its descendants (live ones, and reaped ones through
 * their parents); undefined if `pid` is gone. */
export function treeCpuMs(pid: number): number | undefined {
  return treeSum(pid, (p) => readStat(p)?.cpuMs);
}

/** CPU ms used so far by `pid` alone, without its children (a tmux server: its children
 * are the programs in its panes); undefined if gone. */
export function processCpuMs(pid: number): number | undefined {
  return readStat(pid)?.ownCpuMs;
}

/** Resident memory (VmRSS) of one process, in kB; undefined if gone. */
function rssKb(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return undefined;
  }
}

/** Summed resident memory of `pid` and its live descendants, in kB (shared pages counted in
 * each process, as `ps` and `top` show RSS); undefined if `pid` is gone. */
export function treeRssKb(pid: number): number | undefined {
  return treeSum(pid, rssKb);
}
