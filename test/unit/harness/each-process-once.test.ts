// The bench's concurrency figure counts each process once: one waiter runs many jobs and each
// job's exit line carries the waiter's CPU so far; summed per job, fifty jobs counted one
// process up to fifty times (issue 65: 611 → 1950 ms "per job" as the shared total grew).
import {describe, expect, test} from 'vitest';
import {eachProcessOnce} from '../../harness/each-process-once.js';

const exit = (pid: number, cpuMs: number, maxRssKb = 40_960) => ({
  pid,
  cpuMs,
  maxRssKb,
  transport: 'control',
});

describe('eachProcessOnce', () => {
  test("a waiter's CPU is split over its jobs, its last figure being its total", () => {
    // Three jobs run by one waiter (its CPU so far at each job's end), one by a worker of its own.
    const counted = eachProcessOnce([exit(10, 300), exit(10, 600), exit(10, 900), exit(11, 200)]);
    expect(counted.cpuPerJob).toEqual([300, 300, 300, 200]);
    expect(counted.processes).toBe(2);
    // Summed, the samples are the CPU the processes used, once each.
    expect(counted.cpuPerJob.reduce((a, b) => a + b, 0)).toBe(900 + 200);
  });

  test('peak RSS is one sample a process, its largest', () => {
    const counted = eachProcessOnce([
      exit(10, 1, 20_480),
      exit(10, 2, 51_200),
      exit(11, 3, 10_240),
    ]);
    expect(counted.rssMb).toEqual([50, 10]);
  });
});
