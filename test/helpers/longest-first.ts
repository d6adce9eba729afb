import {BaseSequencer, type TestSpecification} from 'vitest/node';

/**
 * The order a project's files start in when two run at a time: the longest first, so that no
 * long file starts last and runs alone while the other worker idles. Vitest orders by the
 * durations it cached on an earlier run, and on a fresh clone (CI) by file size, largest first:
 * the 8-line data-agents files, 17 minutes between them, started last and ran alone for the
 * last minutes of `npm test` (CI run of 2026-12-03, the machine half idle meanwhile). So the
 * files whose minutes are known are ordered by them (seconds on the CI machine, from
 * `.ci/run`'s logs; a rough figure is enough), ahead of the rest, which keep vitest's order.
 */
const SECONDS: Record<string, number> = {
  // The at-model project (scripts/test.sh runs it beside the integration files).
  'test/integration/data-agents-at-model.test.ts': 850,
  'test/integration/agents-at-model.test.ts': 600,
  'test/integration/data-agents-2-at-model.test.ts': 420,
  'test/integration/ask-at-model.test.ts': 217,
  'test/integration/remote.test.ts': 159,
  'test/integration/real-agents.test.ts': 157,
  'test/integration/install-newer-agents.test.ts': 156,
  'test/integration/doors-at-model.test.ts': 143,
  'test/integration/shell-mode-at-model.test.ts': 125,
  'test/integration/blocked-at-model.test.ts': 119,
  'test/integration/stall-at-model.test.ts': 109,
  'test/integration/install-agents.test.ts': 98,
  'test/integration/many-sessions-at-model.test.ts': 89,
  'test/integration/recover-at-model.test.ts': 82,
  'test/integration/run.test.ts': 88,
  'test/integration/run-agents.test.ts': 81,
  'test/integration/watch-at-model.test.ts': 34,
};

/** Seconds a file is known to take, or undefined. */
function secondsOf(spec: TestSpecification): number | undefined {
  const path = spec.moduleId.replaceAll('\\', '/');
  const known = Object.keys(SECONDS).find((file) => path.endsWith(`/${file}`));
  return known === undefined ? undefined : SECONDS[known];
}

/** Vitest's order, then within a project the files of known length longest first. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const position = new Map(base.map((spec, i) => [spec, i]));
    return [...base].sort((a, b) => {
      if (a.project.name !== b.project.name) return position.get(a)! - position.get(b)!;
      const sa = secondsOf(a);
      const sb = secondsOf(b);
      if (sa !== undefined || sb !== undefined) return (sb ?? -1) - (sa ?? -1);
      return position.get(a)! - position.get(b)!;
    });
  }
}
