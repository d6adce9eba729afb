import {writeFileSync} from 'node:fs';
import type {Reporter, TestModule} from 'vitest/node';

/** Prints the plain closing line CI reads: "N passed, N failed, N skipped". Also writes it to
 * .vitest-summary so .ci/run can repeat it as the very last line. */
export default class PlainSummaryReporter implements Reporter {
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
  }
}
