/** Tables laid out for the person's terminal: cut to its width (prose is wrapped by
 * src/render/wrap.ts, which loads a wrapper only the commands that print prose need). */

/** Columns padded to their widest cell; the last one as it is. */
export function printTable(
  header: string[],
  rows: string[][],
  out: {stdout: (line: string) => void; width: number},
): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) {
    const line = row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ');
    // The last column (a text) is cut to the width with …; --json has it whole.
    out.stdout(cutTo(line, out.width));
  }
}

/** `line` in at most `width` characters, cut with `…`. */
function cutTo(line: string, width: number): string {
  const chars = [...line];
  return chars.length <= width ? line : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}
