import {defineConfig} from 'vitest/config';

export default defineConfig({
  test: {
    // Set explicitly: under an AI agent vitest would otherwise pick a reporter without a summary.
    reporters: ['default', './test/helpers/plain-summary-reporter.ts'],
    restoreMocks: true,
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
          // Real tmux servers and workers: one file at a time on a 2-core machine.
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 30_000,
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
    ],
  },
});
