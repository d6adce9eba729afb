import type {Pattern} from '../base/pattern.js';

/**
 * tmux's own search as a wait's first sieve (issue 44): `#{C/r:ERE}` in a pane's format
 * subscription is the first visible row (1-based) on which the POSIX extended regular
 * expression matches, or 0. tmux evaluates it at its once-a-second check and reports only
 * when the value changes, so a wait for a pattern on a busy pane hears nothing until a row
 * that may hold a match shows (src/tmux/pane-hearing.ts).
 *
 * The ERE is a sieve, never the verdict: it must match every row on which the pattern could
 * match (more is fine; a row that matches only the ERE costs one look). So whatever is not
 * translated exactly is widened — an escape or class it cannot say becomes "any text", an
 * anchor or word boundary is dropped, a counted repetition becomes `*` or `+` (no large
 * repetition reaches tmux's regcomp) — and a pattern it cannot widen safely (`\Q…\E`, flag
 * groups), or one that could match an empty row, has no search at all. What it cannot see:
 * a match split across a wrapped row (tmux searches rows, nudge searches lines) — the wait's
 * own looks find those, later.
 */

/** A translated pattern: the ERE and whether it ignores case (`C/ri`). */
export interface TmuxSearch {
  ere: string;
  ignoreCase: boolean;
}

/** The longest ERE sent; a longer one is no search. */
const MAX_ERE = 400;

/** `pattern` as a search that matches every row it could match on; undefined when it cannot
 * be said (see the module comment). */
export function tmuxSearch(pattern: Pattern): TmuxSearch | undefined {
  if (/[^gimsu]/.test(pattern.flags)) return undefined;
  try {
    const node = new Translator(pattern.source).run();
    if (node.nullable || node.ere.length > MAX_ERE) return undefined;
    return {ere: node.ere, ignoreCase: pattern.flags.includes('i')};
  } catch (error) {
    if (error instanceof Untranslatable) return undefined;
    throw error;
  }
}

/** The format that evaluates `search` (`#`, `,` and `}` escaped for tmux's format parser,
 * which expands the argument: no text of the pattern can start a format of its own). */
export function searchFormat(search: TmuxSearch): string {
  const arg = search.ere.replace(/[#,}]/g, (c) => `#${c}`);
  return `#{C/r${search.ignoreCase ? 'i' : ''}:${arg}}`;
}

class Untranslatable extends Error {}

/** A translated piece: its ERE, whether it can match nothing, and what a quantifier may
 * follow directly (one character, a class, or any text). */
interface Node {
  ere: string;
  nullable: boolean;
  kind: 'char' | 'any' | 'group' | 'empty';
}

const EMPTY: Node = {ere: '', nullable: true, kind: 'empty'};
/** Any text (at least one character): a JavaScript character may be several bytes to a
 * regcomp that is not in a UTF-8 locale. */
const ANY: Node = {ere: '.+', nullable: false, kind: 'any'};
/** Characters ERE gives a meaning to, said with a backslash. */
const ERE_SPECIAL = new Set('^.[$()|*+?{\\'.split(''));

function literal(c: string): Node {
  const code = c.charCodeAt(0);
  // The subscription is sent inside single quotes; other bytes may differ by locale.
  if (code < 0x20 || code > 0x7e || c === "'") return ANY;
  if (c === '}') return {ere: '[}]', nullable: false, kind: 'char'};
  return {ere: ERE_SPECIAL.has(c) ? `\\${c}` : c, nullable: false, kind: 'char'};
}

/** A class of printable ASCII characters as a bracket expression (no ranges: their meaning
 * follows the locale), or ANY. */
function bracket(chars: Set<string>): Node {
  if (chars.size === 0 || chars.has("'") || chars.has('\\')) return ANY;
  if (chars.size === 1) return literal([...chars][0] ?? '');
  const rest = [...chars].filter((c) => !']^[-'.includes(c)).sort();
  const body = [
    chars.has(']') ? ']' : '',
    ...rest,
    chars.has('^') ? '^' : '',
    chars.has('[') ? '[' : '',
    chars.has('-') ? '-' : '',
  ].join('');
  // `^` first would negate: only when nothing else precedes it, and then it is not alone.
  if (body.startsWith('^')) return {ere: `[${body.slice(1)}^]`, nullable: false, kind: 'char'};
  return {ere: `[${body}]`, nullable: false, kind: 'char'};
}

const DIGITS = '0123456789';
const WORD = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;

/** A recursive-descent reader of RE2's syntax that writes the widened ERE. */
class Translator {
  #i = 0;
  constructor(private readonly src: string) {}

  run(): Node {
    const node = this.#alternation();
    if (this.#i < this.src.length) throw new Untranslatable('unbalanced');
    return node;
  }

  #peek(): string | undefined {
    return this.src[this.#i];
  }

  #alternation(): Node {
    const branches = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#i++;
      branches.push(this.#sequence());
    }
    if (branches.length === 1) return branches[0] ?? EMPTY;
    const solid = branches.filter((b) => b.ere !== '');
    if (solid.length === 0) return EMPTY;
    const inner = solid.map((b) => b.ere).join('|');
    const nullable = branches.some((b) => b.nullable);
    // An empty branch is written as the whole being optional (no empty alternative in ERE).
    return {ere: nullable ? `(${inner})?` : `(${inner})`, nullable, kind: 'group'};
  }

  #sequence(): Node {
    let ere = '';
    let nullable = true;
    let last: Node | undefined;
    for (;;) {
      const c = this.#peek();
      if (c === undefined || c === '|' || c === ')') break;
      const node = this.#quantified(this.#atom());
      // Two "any text" in a row say no more than one.
      if (node.kind === 'any' && last?.kind === 'any' && last.ere === node.ere) continue;
      ere += node.ere;
      nullable &&= node.nullable;
      if (node.ere !== '') last = node;
    }
    if (ere === '') return EMPTY;
    return {ere, nullable, kind: last && ere === last.ere ? last.kind : 'group'};
  }

  #quantified(atom: Node): Node {
    const q = this.#quantifier();
    if (!q) return atom;
    if (this.#peek() === '?') this.#i++; // lazy: the same rows match
    if (atom.kind === 'empty') return EMPTY;
    const op = q === 'optional' ? '*' : '+';
    if (atom.kind === 'any') {
      return op === '*' ? {ere: '.*', nullable: true, kind: 'any'} : atom;
    }
    const base = atom.kind === 'char' ? atom.ere : `(${atom.ere})`;
    return {
      ere: `${base}${op}`,
      nullable: op === '*' || atom.nullable,
      kind: 'group',
    };
  }

  /** A quantifier here: 'optional' (it may repeat zero times) or 'some' (at least once). */
  #quantifier(): 'optional' | 'some' | undefined {
    const c = this.#peek();
    if (c === '*' || c === '?') {
      this.#i++;
      return 'optional';
    }
    if (c === '+') {
      this.#i++;
      return 'some';
    }
    if (c !== '{') return undefined;
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(this.src.slice(this.#i));
    if (!m) return undefined; // a literal `{` (RE2 reads it so)
    this.#i += m[0].length;
    return Number(m[1]) === 0 ? 'optional' : 'some';
  }

  #atom(): Node {
    const c = this.src[this.#i++] ?? '';
    switch (c) {
      case '(':
        return this.#group();
      case '[':
        return this.#class();
      case '.':
        return ANY;
      case '\\':
        return this.#escape();
      case '^':
      case '$':
        return EMPTY;
      case '*':
      case '+':
      case '?':
        throw new Untranslatable('a quantifier with nothing before it');
      default:
        return literal(c);
    }
  }

  #group(): Node {
    if (this.#peek() === '?') {
      const head = /^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(this.src.slice(this.#i));
      if (!head) throw new Untranslatable('flags or a group kind ERE has not');
      this.#i += head[0].length;
    }
    const inner = this.#alternation();
    if (this.src[this.#i++] !== ')') throw new Untranslatable('unbalanced');
    if (inner.ere === '') return EMPTY;
    return {...inner, kind: inner.kind === 'empty' ? 'empty' : 'group'};
  }

  /** `\` and what follows it, outside a class. */
  #escape(): Node {
    const c = this.src[this.#i++];
    if (c === undefined) throw new Untranslatable('a trailing backslash');
    if (c === 'Q') throw new Untranslatable('\\Q…\\E');
    if (c === 'd') return bracket(new Set(DIGITS));
    if (c === 'w') return bracket(new Set(WORD));
    if ('bBAz'.includes(c)) return EMPTY;
    if (/[A-Za-z0-9]/.test(c)) {
      this.#skipEscapeTail(c);
      return ANY;
    }
    return literal(c);
  }

  /** What an escape reads after its letter: `\p{Greek}`, `\x{263a}`, `\x41`, `\123`. */
  #skipEscapeTail(c: string): void {
    const rest = this.src.slice(this.#i);
    const tail =
      c === 'p' || c === 'P'
        ? /^(?:\{[^}]*\}|[A-Za-z])/.exec(rest)
        : c === 'x'
          ? /^(?:\{[0-9A-Fa-f]*\}|[0-9A-Fa-f]{2})/.exec(rest)
          : /^[0-9]/.test(c)
            ? /^[0-7]{0,2}/.exec(rest)
            : undefined;
    this.#i += tail?.[0].length ?? 0;
  }

  /** A class `[…]`, read to its end: the printable ASCII characters it names, or ANY. */
  #class(): Node {
    const chars = new Set<string>();
    let exact = true;
    if (this.#peek() === '^') {
      this.#i++;
      exact = false; // what it leaves out is not said: any character
    }
    let first = true;
    for (;;) {
      let c = this.src[this.#i++];
      if (c === undefined) throw new Untranslatable('an unclosed class');
      if (c === ']' && !first) break;
      first = false;
      if (c === '[' && this.#peek() === ':') {
        const end = this.src.indexOf(':]', this.#i);
        if (end < 0) throw new Untranslatable('an unclosed class');
        this.#i = end + 2;
        exact = false;
        continue;
      }
      if (c === '\\') {
        c = this.src[this.#i++];
        if (c === undefined) throw new Untranslatable('a trailing backslash');
        if (c === 'd') {
          for (const d of DIGITS) chars.add(d);
          continue;
        }
        if (c === 'w') {
          for (const w of WORD) chars.add(w);
          continue;
        }
        if (/[A-Za-z0-9]/.test(c)) {
          this.#skipEscapeTail(c);
          exact = false;
          continue;
        }
      }
      const to = this.src[this.#i + 1];
      if (this.#peek() === '-' && to !== undefined && to !== ']' && to !== '\\') {
        this.#i += 2;
        for (let code = c.charCodeAt(0); code <= to.charCodeAt(0); code++) {
          if (code < 0x20 || code > 0x7e || chars.size > 95) exact = false;
          else chars.add(String.fromCharCode(code));
        }
        continue;
      }
      const code = c.charCodeAt(0);
      if (code < 0x20 || code > 0x7e) exact = false;
      else chars.add(c);
    }
    return exact ? bracket(chars) : ANY;
  }
}
