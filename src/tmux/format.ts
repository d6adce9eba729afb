/**
 * tmux formats that print several fields on one line, and their parsing.
 *
 * tmux rewrites the bytes a format prints, and not the same way in every version: a control
 * character such as 0x1f comes back raw from 3.3a and 3.8, as the four characters `\037` from
 * 3.4 and 3.5a, and as `_` from any version that thinks the terminal is not UTF-8 (no `-u`,
 * no LANG; some 3.6 builds). So fields are joined by a token of printable ASCII that no tmux
 * rewrites, and a line is split a fixed number of times: the last field keeps whatever it
 * holds, the token included.
 */

/** Between two fields of a format: printable ASCII, and `#` free (a format's own escape). */
export const FIELD_SEPARATOR = '|:nudge:|';

/** A format printing `fields` (format variable names such as `pane_id`) on one line. */
export function joinFormat(fields: readonly string[]): string {
  return fields.map((f) => `#{${f}}`).join(FIELD_SEPARATOR);
}

/** Split one printed line of a `joinFormat` of `count` fields. The last field is the rest of
 * the line. Undefined when the line has fewer than `count` fields. */
export function splitFields(line: string, count: number): string[] | undefined {
  const fields: string[] = [];
  let from = 0;
  while (fields.length < count - 1) {
    const at = line.indexOf(FIELD_SEPARATOR, from);
    if (at < 0) return undefined;
    fields.push(line.slice(from, at));
    from = at + FIELD_SEPARATOR.length;
  }
  fields.push(line.slice(from));
  return fields;
}
