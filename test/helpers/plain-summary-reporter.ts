import {writeFileSync} from 'node:fs';
import type {Reporter, TestModule, Vitest} from 'vitest/node';

/** Prints the plain closing line CI reads: "N passed, N failed, N skipped". Also writes it to
 * .vitest-summary (the latest run) and to .vitest-summary.<projects> (one file per set of
 * projects run, e.g. .vitest-summary.integration+unit and .vitest-summary.faults), so .ci/run
 * can add up `npm test` and `npm run test:faults`. */
export default class PlainSummaryReporter implements Reporter {
  #label = 'all';

  onInit(vitest: Vitest): void {
    const names = vitest.projects.map((p) => p.name).filter(Boolean);
    if (names.length > 0) this.#label = [...new Set(names)].sort().join('+');
    // A run of the version matrix names itself (.vitest-summary.matrix-tmux-3.5a).
    if (process.env.NUDGE_SUMMARY_LABEL) this.#label = process.env.NUDGE_SUMMARY_LABEL;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) failed++;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    failed += unhandledErrors.length;
    const line = `${passed} passed, ${failed} failed, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
    writeFileSync('.vitest-summary', `${line}\n`);
    writeFileSync(`.vitest-summary.${this.#label}`, `${line}\n`);
  }
}
