/** Two texts in the order of their UTF-16 code units: ids, ISO times and profile names sort
 * as they read. Not `localeCompare`, whose first call starts ICU's collator (about 5 ms of a
 * command that starts in 30: docs/benchmarks.md). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
