import {writeFileSync} from 'node:fs';
import type {Reporter, TestModule, Vitest} from 'vitest/node';

/** Prints the plain closing line CI reads: "N passed, N failed, N skipped". Also writes it to
 * .vitest-summary (the latest run) and to .vitest-summary.<projects> (one file per set of
 * projects run, e.g. .vitest-summary.integration+unit and .vitest-summary.faults), so .ci/run
 * can add up `npm test` and `npm run test:faults`. Each failed test (file, name, the first
 * line of its error) goes to .vitest-failures.<projects>, which .ci/run prints above its own
 * closing line: CI's output is often seen only by its tail. */
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
    const failures: string[] = [];
    for (const m of modules) {
      if (m.state() === 'failed' && [...m.children.allTests()].length === 0) {
        failed++;
        failures.push(`${m.moduleId}: ${firstLine(m.errors()[0])}`);
      }
      for (const t of m.children.allTests()) {
        const result = t.result();
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          failures.push(`${t.module.moduleId} > ${t.fullName}: ${firstLine(result.errors[0])}`);
        } else skipped++;
      }
    }
    failed += unhandledErrors.length;
    for (const e of unhandledErrors) failures.push(`unhandled: ${firstLine(e)}`);
    const line = `${passed} passed, ${failed} failed, ${skipped} skipped`;
    process.stdout.write(`\n${line}\n`);
    writeFileSync('.vitest-summary', `${line}\n`);
    writeFileSync(`.vitest-summary.${this.#label}`, `${line}\n`);
    const relative = failures.map((f) => f.replaceAll(`${process.cwd()}/`, ''));
    writeFileSync(`.vitest-failures.${this.#label}`, relative.map((f) => `${f}\n`).join(''));
  }
}

/** The first line of an error as vitest reports it (its message), or what it is. */
function firstLine(error: unknown): string {
  const message =
    error && typeof error === 'object' && 'message' in error
      ? String(error.message)
      : String(error);
  return message.split('\n')[0]?.slice(0, 300) ?? '';
}
