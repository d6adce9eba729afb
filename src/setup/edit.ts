import {parse as parseToml, patch as patchToml} from '@decimalturn/toml-patch';
import {
  applyEdits,
  type FormattingOptions,
  type JSONPath,
  modify,
  type ParseError,
  parse as parseJsonc,
  printParseErrorCode,
} from 'jsonc-parser';
import {NudgeError} from '../base/errors.js';

/**
 * Edits of the users' configuration files that keep what is there: their keys, order,
 * comments and indentation (JSON with comments through jsonc-parser, TOML through
 * toml-patch). Each edit is a function of the file's text; undefined text is a file that does
 * not exist yet.
 */

/** Where a value sits in a JSON or TOML document. */
export type KeyPath = readonly string[];

export type Format = 'json' | 'toml';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of JSON-like values (key order ignored). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/** The document as a value; a file that does not exist (or is blank) is an empty object. */
export function readDocument(format: Format, file: string, text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  if (format === 'json') {
    const errors: ParseError[] = [];
    const value: unknown = parseJsonc(text, errors, {allowTrailingComma: true});
    if (errors.length > 0) {
      const e = errors[0]!;
      throw new NudgeError(
        'bad-config',
        `${file} is not valid JSON (${printParseErrorCode(e.error)} at offset ${e.offset}); fix it and run install again.`,
      );
    }
    if (!isObject(value))
      throw new NudgeError(
        'bad-config',
        `${file} does not hold a JSON object; nothing was changed.`,
      );
    return value;
  }
  try {
    return parseToml(text) as unknown;
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new NudgeError(
      'bad-config',
      `${file} is not valid TOML (${first}); fix it and run install again.`,
    );
  }
}

export function valueAt(doc: unknown, path: KeyPath): unknown {
  let v: unknown = doc;
  for (const key of path) {
    if (!isObject(v)) return undefined;
    v = v[key];
  }
  return v;
}

/** The indentation a JSON text already uses (two spaces when it has none). */
function formattingOf(text: string): FormattingOptions {
  const m = /\n([ \t]+)"/.exec(text);
  const indent = m?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

function ensureEol(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** The text with `value` at `path` (undefined removes it). */
export function setValue(
  format: Format,
  text: string | undefined,
  path: KeyPath,
  value: unknown,
): string {
  if (format === 'json') {
    const base = text === undefined || text.trim() === '' ? '{}\n' : text;
    const edits = modify(base, [...path] as JSONPath, value, {
      formattingOptions: formattingOf(base),
    });
    return ensureEol(applyEdits(base, edits));
  }
  const base = text ?? '';
  const doc = readDocument('toml', 'config.toml', base) as Record<string, unknown>;
  let parent: Record<string, unknown> = doc;
  for (const key of path.slice(0, -1)) {
    if (!isObject(parent[key])) parent[key] = {};
    parent = parent[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  const out = patchToml(base, doc);
  return out === '' || out.endsWith('\n') ? out : `${out}\n`;
}

/** Remove the objects along `path` (deepest first) that are empty and were not there before
 * install (`created`, the prefixes of `path` install made). */
export function pruneCreated(format: Format, text: string, created: readonly KeyPath[]): string {
  let out = text;
  for (const path of [...created].sort((a, b) => b.length - a.length)) {
    const v = valueAt(readDocument(format, 'file', out), path);
    const empty =
      (isObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);
    if (empty) out = setValue(format, out, path, undefined);
  }
  return out;
}

/** The prefixes of `path` (not `path` itself) that do not exist in `doc`. */
export function missingParents(doc: unknown, path: KeyPath): KeyPath[] {
  const out: KeyPath[] = [];
  for (let n = 1; n < path.length; n += 1) {
    if (valueAt(doc, path.slice(0, n)) === undefined) out.push(path.slice(0, n));
  }
  return out;
}

/** The JSON text with `item` appended to the array at `path` (created when missing). */
export function appendItem(text: string | undefined, path: KeyPath, item: unknown): string {
  const base = text === undefined || text.trim() === '' ? '{}\n' : text;
  const list = valueAt(readDocument('json', 'file', base), path);
  if (!Array.isArray(list)) return setValue('json', base, path, [item]);
  const edits = modify(base, [...path, list.length] as JSONPath, item, {
    formattingOptions: formattingOf(base),
    isArrayInsertion: true,
  });
  return ensureEol(applyEdits(base, edits));
}

/** The JSON text without the items of the array at `path` that `drop` picks. */
export function removeItems(text: string, path: KeyPath, drop: (item: unknown) => boolean): string {
  let out = text;
  const list = valueAt(readDocument('json', 'file', out), path);
  if (!Array.isArray(list)) return out;
  for (let i = list.length - 1; i >= 0; i -= 1) {
    if (!drop(list[i])) continue;
    out = applyEdits(
      out,
      modify(out, [...path, i] as JSONPath, undefined, {formattingOptions: formattingOf(out)}),
    );
  }
  return out;
}
