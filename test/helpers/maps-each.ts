import {expect, test} from 'vitest';

/** A table of cases: each input gives its output under `fn`, one test a row, named by both. */
export function eachMapsTo<I, O>(
  fn: (input: I) => O,
  rows: readonly (readonly [I, O])[],
  name = '%j → %j',
): void {
  test.each(rows as (readonly [I, O])[])(name, (input, output) => {
    expect(fn(input)).toBe(output);
  });
}
