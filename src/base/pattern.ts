import {createRequire} from 'node:module';
import type * as Re2js from 're2js';

/**
 * A regular expression as nudge uses one: tested against a line or a screen. JavaScript's own
 * RegExp is one (the built-in profiles', which ship with nudge); every pattern that comes from
 * outside — `expect`, `--until regex:`/`prompt:REGEX`, `--ignore`, `--fail-pattern`, a user's
 * profile file — is a LinearPattern: RE2's engine (re2js, a pure-JavaScript port), which runs
 * in time linear in the text whatever the pattern, so `(a+)+$` cannot take the machine or hold
 * a pane's lock past its timeout (docs/security.md).
 */
export interface Pattern {
  readonly source: string;
  readonly flags: string;
  test(text: string): boolean;
  exec(text: string): RegExpExecArray | null;
}

const load = createRequire(import.meta.url);
let engine: typeof Re2js.RE2JS | undefined;

/** re2js, loaded on first use (a submit without a pattern never pays for it). */
function re2(): typeof Re2js.RE2JS {
  engine ??= (load('re2js') as typeof Re2js).RE2JS;
  return engine;
}

/** A pattern compiled by RE2. */
export class LinearPattern implements Pattern {
  readonly source: string;
  readonly flags: string;
  readonly #re: Re2js.RE2JS;

  constructor(source: string, flags = '') {
    const r = re2();
    let mask = 0;
    for (const f of flags) {
      if (f === 'i') mask |= r.CASE_INSENSITIVE;
      else if (f === 'm') mask |= r.MULTILINE;
      else if (f === 's') mask |= r.DOTALL;
      else if (f !== 'g' && f !== 'u') throw new SyntaxError(`the flag ${f} is not supported`);
    }
    this.source = source;
    this.flags = flags;
    this.#re = r.compile(toRe2Syntax(source), mask);
  }

  test(text: string): boolean {
    return this.#re.matcher(text).find();
  }

  exec(text: string): RegExpExecArray | null {
    const m = this.#re.matcher(text);
    if (!m.find()) return null;
    const groups: (string | undefined)[] = [];
    for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i) ?? undefined);
    const named = m.getNamedGroups();
    const result = Object.assign(groups, {
      index: m.start(),
      input: text,
      groups:
        Object.keys(named).length > 0
          ? Object.fromEntries(Object.entries(named).map(([k, v]) => [k, v ?? undefined]))
          : undefined,
    });
    return result as unknown as RegExpExecArray;
  }

  /** `text` with every match replaced by `by` (a literal string). */
  replaceAll(text: string, by: string): string {
    return this.#re.matcher(text).replaceAll(() => by);
  }
}

/** Every match of `pattern` in `text` replaced by `by` (literal). */
export function replaceEvery(pattern: Pattern, text: string, by: string): string {
  if (pattern instanceof LinearPattern) return pattern.replaceAll(text, by);
  const flags = pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`;
  return text.replace(new RegExp(pattern.source, flags), () => by);
}

/**
 * JavaScript's spellings that RE2 writes otherwise: `\uXXXX` and `\u{X…}` are `\x{…}` there.
 * Only an escape that is one (an odd number of backslashes before the `u`) is rewritten.
 */
function toRe2Syntax(source: string): string {
  return source.replace(
    /(\\+)u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/g,
    (whole, slashes: string, braced?: string, plain?: string) =>
      slashes.length % 2 === 1 ? `${slashes.slice(1)}\\x{${braced ?? plain}}` : whole,
  );
}

/** Compile a pattern from outside; the engine's own message when it cannot (a backreference,
 * a lookaround: what a linear-time engine cannot run). */
export function linearPattern(source: string, flags = ''): LinearPattern {
  try {
    return new LinearPattern(source, flags);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new SyntaxError(message.replace(/^error parsing regexp: /, ''));
  }
}

/** The first match of `pattern` in `text` replaced by `by` (literal). */
export function replaceFirst(pattern: Pattern, text: string, by: string): string {
  const m = pattern.exec(text);
  return m ? `${text.slice(0, m.index)}${by}${text.slice(m.index + (m[0]?.length ?? 0))}` : text;
}
