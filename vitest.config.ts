import {defineConfig} from 'vitest/config';
import LongestFirst from './test/helpers/longest-first.js';

/** The integration files that spend their minutes waiting on real programs of their own — the
 * agent CLIs at the scripted model server, the stand-in ssh hosts: the at-model project, run
 * beside the rest (scripts/test.sh). Two at a time: three starved the machine (measured on the
 * 2-core CI machine: the integration lane 50% slower, opencode missing its Enters). */
const WAITING_FILES = [
  'test/integration/agents-at-model.test.ts',
  'test/integration/data-agents-at-model.test.ts',
  'test/integration/data-agents-2-at-model.test.ts',
  'test/integration/blocked-at-model.test.ts',
  'test/integration/doors-at-model.test.ts',
  'test/integration/stall-at-model.test.ts',
  'test/integration/settled-at-model.test.ts',
  'test/integration/recover-at-model.test.ts',
  'test/integration/many-sessions-at-model.test.ts',
  'test/integration/shell-mode-at-model.test.ts',
  'test/integration/ask-at-model.test.ts',
  'test/integration/messaging-at-model.test.ts',
  'test/integration/remote.test.ts',
  // Real agent CLIs offline, and `nudge run --agent` with them: here so that the two lanes of
  // `npm test` end together (CI run of 2026-11-29: the integration lane 35 min, this one 29).
  'test/integration/real-agents.test.ts',
  'test/integration/run-agents.test.ts',
  // `nudge install` with each real CLI at the model (CI run of 2026-12-03: the integration lane
  // 34 min, this one 31, with 4 of its minutes these two files).
  'test/integration/install-agents.test.ts',
  'test/integration/install-newer-agents.test.ts',
  // A watcher's cycle with a real agent at the model, and `nudge run`'s tasks (both lanes
  // near 28 min with them here, by the CI run of 2026-12-03).
  'test/integration/watch-at-model.test.ts',
  'test/integration/run.test.ts',
];

export default defineConfig({
  test: {
    // Set explicitly: under an AI agent vitest would otherwise pick a reporter without a summary.
    reporters: [
      'default',
      './test/helpers/plain-summary-reporter.ts',
      './test/helpers/verified-reporter.ts',
    ],
    restoreMocks: true,
    // The at-model project's files (two at a time): the longest start first. Not the fault
    // suite's: its two heaviest side by side beside the hog failed three tests (CI 2026-12-03).
    sequence: {sequencer: LongestFirst},
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: WAITING_FILES,
          // Real tmux servers and workers: one file at a time on a 2-core machine.
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 30_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // The real agent CLIs at the scripted model server: a project of its own, so its
        // minutes — mostly waiting on the agents and the model's held turns, every wait on a
        // signal — run beside the rest of the integration files instead of after them, two
        // files at a time.
        test: {
          name: 'at-model',
          include: WAITING_FILES,
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 90_000,
          hookTimeout: 30_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // `npm run test:faults` (not part of `npm test`): kills, stalls, collisions, load and
        // hostile input against the built CLI, real workers and private tmux servers.
        test: {
          name: 'faults',
          include: ['test/faults/**/*.test.ts'],
          pool: 'forks',
          // Two files at a time (each on private tmux servers of its own): most of a fault
          // test is waiting — on a stale lock, a stopped process, a takeover — and one at a
          // time it took 18 of CI's 59 minutes (2026-12-02).
          maxWorkers: 2,
          // Lock recovery waits out the 8 s stale time; load tests run a hundred workers.
          testTimeout: 240_000,
          hookTimeout: 60_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        // `npm run test:slow` (run by .ci/run after the faults): a real cron daemon firing a
        // schedule at the next minute boundary.
        test: {
          name: 'slow',
          include: ['test/slow/**/*.test.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 60_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
