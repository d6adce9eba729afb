import {parseArgs} from 'node:util';
import {mapOptions, type OptionTable} from '../base/option-table.js';
import {submitOptionsOf} from '../declare/panes.js';
import type {HostChoice} from '../front/dispatch.js';
import type {SubmitOptions} from '../job-options/table.js';
import {SUBMIT_OPTIONS} from '../verbs/options/submit.js';

/** The flags of `nudge submit`: both parsers (yargs for help and errors, node's parseArgs for
 * the fast path) are built from this one table, as the MCP tool's schema is. */
export const SUBMIT_FLAGS: OptionTable = SUBMIT_OPTIONS;

/** Parsed flag values (by flag name, as parseArgs gives them) and the words to type, as
 * SubmitOptions: the table's one mapper (src/base/option-table.ts), `--no-X` read as X
 * false where parseArgs leaves it apart, then the submit declaration's own step
 * (src/declare/panes.ts), as yargs and the MCP tool take it. */
export function toSubmitOptions(
  values: Record<string, unknown>,
  words: readonly unknown[],
): SubmitOptions & HostChoice & {json: boolean | undefined} {
  const given = mapOptions(SUBMIT_OPTIONS, (name, spec) =>
    spec.negatable && values[`no-${name}`] === true ? false : values[name],
  );
  const noNotice = values.notice === false || values['no-notice'] === true;
  return {...submitOptionsOf({...given, text: words.map(String), noNotice}), json: given.json};
}

/**
 * The fast path for `nudge submit`: parse with node's built-in parseArgs, so the front end
 * does not load yargs (~100 ms on the CI machine, more than the whole front-end budget).
 * Returns undefined for anything it does not accept exactly (unknown or repeated flags,
 * --help, camelCase spellings): the caller then hands the command line to yargs, which
 * prints help or the error message.
 */
export function parseSubmitFast(
  argv: readonly string[],
): (SubmitOptions & HostChoice & {json: boolean | undefined}) | undefined {
  if (argv[0] !== 'submit') return undefined;
  const options: Record<string, {type: 'string' | 'boolean'; short?: string; multiple?: boolean}> =
    {};
  for (const [name, spec] of Object.entries(SUBMIT_FLAGS)) {
    // Every submit flag is a string or a boolean (numbers travel as text, checked later).
    const option: {type: 'string' | 'boolean'; short?: string; multiple?: boolean} = {
      type: spec.type === 'boolean' ? 'boolean' : 'string',
    };
    if (spec.short) option.short = spec.short;
    if (spec.multiple) option.multiple = true;
    options[name] = option;
    if (spec.negatable) options[`no-${name}`] = {type: 'boolean'};
  }
  options['no-notice'] = {type: 'boolean'};
  try {
    const {values, positionals, tokens} = parseArgs({
      args: attachDashValues(argv.slice(1)),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
    // yargs refuses a non-repeatable flag given twice; so must we (let yargs say it).
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.kind !== 'option' || SUBMIT_FLAGS[t.name]?.multiple) continue;
      if (seen.has(t.name)) return undefined;
      seen.add(t.name);
    }
    if (values.notice !== undefined && values['no-notice'] === true) return undefined;
    return toSubmitOptions(values, positionals);
  } catch {
    return undefined;
  }
}

/**
 * `--lock-timeout -5s`: a value that starts with "-" is still the value of a string flag
 * (so the flag's own validation can say what is wrong with it), unless it is itself a flag
 * of ours or the `--` that starts the text.
 */
function attachDashValues(args: readonly string[]): string[] {
  const out: string[] = [];
  const known = new Set(Object.keys(SUBMIT_FLAGS).flatMap((n) => [`--${n}`, `--no-${n}`]));
  for (const spec of Object.values(SUBMIT_FLAGS)) if (spec.short) known.add(`-${spec.short}`);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    const next = args[i + 1];
    if (
      name &&
      SUBMIT_FLAGS[name]?.type === 'string' &&
      next?.startsWith('-') &&
      next !== '--' &&
      !known.has(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}
