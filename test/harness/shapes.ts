/**
 * Copies as a reader sees them: runs of lines of the same shape — the same code with other
 * names, strings and numbers — in two places. `npm run dupes` (scripts/dupes.ts) counts them
 * in src/ and test/ beside jscpd's identical runs, against the limits in .jscpd-limits.json.
 *
 * A line's shape keeps its keywords and punctuation and writes every other name as `I`, every
 * string as `S` and every number as `N`. Blank lines, comments, imports and lines of
 * punctuation alone are passed over. A run is `minLines` shapes in a row; a run found in more
 * than `maxPlaces` places is an idiom, not a copy; a run whose lines are mostly data (`I: S,`
 * rows of a table) is a table, not a copy. Places that overlap in one file are one place.
 */

/** The words a shape keeps (TypeScript's keywords a reader sees as structure). */
const KEYWORDS = new Set(
  (
    'async await break case catch class const continue default delete do else export extends ' +
    'false finally for function if import in instanceof interface let new null of return ' +
    'static super switch this throw true try type typeof undefined var void while yield as ' +
    'satisfies'
  ).split(' '),
);

/** A file as the finder reads it. */
export interface SourceText {
  path: string;
  text: string;
}

/** Where a run stands: its file and its first and last line (1-based). */
export interface Place {
  path: string;
  from: number;
  to: number;
}

/** Two places that share runs of lines (the longest first): how many windows of `minLines` they share. */
export interface ShapePair {
  a: Place;
  b: Place;
  windows: number;
}

/** The shape of each line of `text` (undefined: passed over), comments taken out. */
export function shapesOf(text: string): Array<string | undefined> {
  let inComment = false;
  let inImport = false;
  return text.split('\n').map((raw) => {
    // An import or re-export over several lines is passed over to its `from`.
    if (inImport || /^\s*(import|export)\s+(type\s+)?\{[^}]*$/.test(raw)) {
      inImport = !/\bfrom\s+['"]|['"];?\s*$/.test(raw);
      return undefined;
    }
    let out = '';
    let i = 0;
    while (i < raw.length) {
      const c = raw[i] ?? '';
      if (inComment) {
        const end = raw.indexOf('*/', i);
        if (end < 0) return lineShape(out);
        inComment = false;
        i = end + 2;
      } else if (raw.startsWith('/*', i)) {
        inComment = true;
        i += 2;
      } else if (raw.startsWith('//', i)) {
        break;
      } else if (c === "'" || c === '"' || c === '`') {
        i = stringEnd(raw, i);
        out += 'S';
      } else if (/[0-9]/.test(c)) {
        while (i < raw.length && /[0-9a-fA-FxXn_.]/.test(raw[i] ?? '')) i++;
        out += 'N';
      } else if (/[A-Za-z_$]/.test(c)) {
        let j = i;
        while (j < raw.length && /[\w$]/.test(raw[j] ?? '')) j++;
        const word = raw.slice(i, j);
        // A key (`type: 'string'`) is a name, whatever its word.
        const key = /^\s*\??:(?!:)/.test(raw.slice(j));
        out += KEYWORDS.has(word) && !key ? ` ${word} ` : 'I';
        i = j;
      } else {
        if (!/\s/.test(c)) out += c;
        i++;
      }
    }
    return lineShape(out);
  });
}

/** The index just past the string that opens at `i` (the line's end if it does not close). */
function stringEnd(line: string, i: number): number {
  const quote = line[i];
  for (let j = i + 1; j < line.length; j++) {
    if (line[j] === '\\') j++;
    else if (line[j] === quote) return j + 1;
  }
  return line.length;
}

function lineShape(shape: string): string | undefined {
  const s = shape.replace(/\s+/g, ' ').trim();
  if (s === '' || /^[{}()[\];,.]*$/.test(s)) return undefined;
  if (/^(import |export (type )?\{|\}? ?from )/.test(s) || /^import\b/.test(s)) return undefined;
  return s;
}

/** A line of data: a name, a string or a number and punctuation, no keyword or operator. */
const THIN = /^[ISN:;,.?|<>{}()[\]! ]*$/;

/** The pairs of places in `files` that share runs of `minLines` shapes. */
export function findShapePairs(
  files: readonly SourceText[],
  {minLines = 6, maxPlaces = 8}: {minLines?: number; maxPlaces?: number} = {},
): ShapePair[] {
  const runs = new Map<string, Place[]>();
  for (const file of files) {
    const kept = shapesOf(file.text)
      .map((shape, index) => ({shape, line: index + 1}))
      .filter((l): l is {shape: string; line: number} => l.shape !== undefined);
    for (let i = 0; i + minLines <= kept.length; i++) {
      const window = kept.slice(i, i + minLines);
      if (window.filter((l) => THIN.test(l.shape)).length * 2 > minLines) continue;
      const key = window.map((l) => l.shape).join('\n');
      const place = {path: file.path, from: window[0]?.line ?? 0, to: window.at(-1)?.line ?? 0};
      const list = runs.get(key) ?? [];
      list.push(place);
      runs.set(key, list);
    }
  }
  const pairs = new Map<string, ShapePair>();
  for (const places of runs.values()) {
    if (places.length < 2 || places.length > maxPlaces) continue;
    for (let i = 0; i < places.length; i++)
      for (let j = i + 1; j < places.length; j++) {
        const [a, b] = [places[i], places[j]] as [Place, Place];
        if (a.path === b.path && a.from <= b.to && b.from <= a.to) continue;
        const key = [a.path, b.path].sort().join(' ~ ');
        const pair = pairs.get(key);
        if (!pair) pairs.set(key, {a, b, windows: 1});
        else {
          pair.windows++;
          // Consecutive windows of one run widen it.
          if (a.path === pair.a.path) {
            pair.a = {...pair.a, to: Math.max(pair.a.to, a.to)};
            pair.b = {...pair.b, to: Math.max(pair.b.to, b.to)};
          }
        }
      }
  }
  return [...pairs.values()].sort((x, y) => y.a.to - y.a.from - (x.a.to - x.a.from));
}
