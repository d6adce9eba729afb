import {TRANSCRIPT_ROLES} from '../../src/watch/record.js';

/** The transcript of one whole watcher cycle that ends by typing the next instruction: every
 * role in the order a cycle writes them (the agent's report, the wait it ran and that wait's
 * output, the idle spin, the assessor's decision, the injection), all but `error`
 * (src/watch/cycle.ts; docs/watch.md). */
export const ONE_CYCLE_ROLES: readonly string[] = TRANSCRIPT_ROLES.filter((r) => r !== 'error');
