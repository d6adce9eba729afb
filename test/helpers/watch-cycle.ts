/** The transcript of one whole watcher cycle that ends by typing the next instruction: the
 * agent's report, the wait it ran and that wait's output, the idle spin, the assessor's decision,
 * the injection (src/watch/cycle.ts; docs/watch.md). */
export const ONE_CYCLE_ROLES: readonly string[] = [
  'status',
  'wait',
  'wait_output',
  'idle_spin',
  'decision',
  'injection',
];
