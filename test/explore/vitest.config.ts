import {defineConfig} from 'vitest/config';

/**
 * Explorations of the real agent CLIs (not part of `npm test`): they record screens into
 * test/fixtures/screens/ and measurements into test/fixtures/screens/measurements/, for
 * docs/agent-screens.md. Run after `bash scripts/install-agents.sh`:
 *
 *     npx vitest run -c test/explore/vitest.config.ts                    # everything
 *     NUDGE_EXPLORE_AGENTS=codex npx vitest run -c test/explore/vitest.config.ts screens
 */
export default defineConfig({
  test: {
    include: ['test/explore/**/*.explore.ts'],
    root: new URL('../..', import.meta.url).pathname,
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 30 * 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
