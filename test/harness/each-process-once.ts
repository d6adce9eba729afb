/** What a job's `worker-exit` line says of the process that ran it (the bench reads it). */
export interface ProcessExit {
  pid: number;
  /** The process's CPU so far (a waiter's: over every job it ran until then). */
  cpuMs: number;
  childrenCpuMs?: number;
  maxRssKb: number;
}

/**
 * The jobs' exit lines with each process counted once: one waiter per server runs many jobs,
 * and each job's line carries the waiter's CPU so far, so summing them would add one process
 * up to fifty times. A process's CPU is its last (largest) figure, split evenly over the jobs
 * it ran (one sample a job); its peak RSS is one sample.
 */
export function eachProcessOnce(exits: readonly ProcessExit[]): {
  cpuPerJob: number[];
  rssMb: number[];
  processes: number;
} {
  const byPid = new Map<number, {jobs: number; cpuMs: number; rssKb: number}>();
  for (const e of exits) {
    const p = byPid.get(e.pid) ?? {jobs: 0, cpuMs: 0, rssKb: 0};
    p.jobs++;
    p.cpuMs = Math.max(p.cpuMs, e.cpuMs + (e.childrenCpuMs ?? 0));
    p.rssKb = Math.max(p.rssKb, e.maxRssKb);
    byPid.set(e.pid, p);
  }
  return {
    cpuPerJob: exits.map((e) => {
      const p = byPid.get(e.pid);
      return p ? Math.round(p.cpuMs / p.jobs) : 0;
    }),
    rssMb: [...byPid.values()].map((p) => p.rssKb / 1024),
    processes: byPid.size,
  };
}
