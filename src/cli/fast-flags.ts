import {parseArgs} from 'node:util';
import {
  mapOptions,
  type OptionSpec,
  type OptionsOf,
  type OptionTable,
} from '../base/option-table.js';

/**
 * A plain command line read with node's built-in parseArgs, from a command's one option table
 * (the one yargs and the MCP tool are built from), so the commands run on every agent turn
 * (`submit`) or a person's every glance (`jobs`, `status`) start without loading yargs.
 * Undefined for anything it does not take exactly as yargs would — an unknown or repeated flag,
 * `--help`, a camelCase spelling, a value not among a flag's choices, a table with a number:
 * the caller then hands the command line to yargs, which prints help or the error.
 */
export interface FastParse {
  /** By flag name, as parseArgs gives them (`no-X` apart where X is negatable). */
  values: Record<string, unknown>;
  positionals: string[];
}

type ParseOption = {type: 'string' | 'boolean'; short?: string; multiple?: boolean};

export function parseFast(
  args: readonly string[],
  table: OptionTable,
  extraBooleans: readonly string[] = [],
): FastParse | undefined {
  const options: Record<string, ParseOption> = {};
  for (const [name, spec] of Object.entries(table)) {
    if (spec.type === 'number') return undefined;
    options[name] = parseOption(spec);
    if (spec.negatable) options[`no-${name}`] = {type: 'boolean'};
  }
  for (const name of extraBooleans) options[name] = {type: 'boolean'};
  try {
    const {values, positionals, tokens} = parseArgs({
      args: attachDashValues(args, table),
      options,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
    // yargs refuses a non-repeatable flag given twice; so must we (let yargs say it).
    const seen = new Set<string>();
    for (const t of tokens) {
      if (t.kind !== 'option' || table[t.name]?.multiple) continue;
      if (seen.has(t.name)) return undefined;
      seen.add(t.name);
    }
    if (!withinChoices(values, table)) return undefined;
    return {values, positionals};
  } catch {
    return undefined;
  }
}

/** The values parsed as the table's options (camelCase, a list where repeatable), `--no-X`
 * read as X false; with `defaults`, a flag not given takes its default, as yargs fills it. */
export function optionsOfValues<T extends OptionTable>(
  values: Record<string, unknown>,
  table: T,
  defaults: boolean,
): OptionsOf<T> {
  return mapOptions(table, (name, spec) =>
    spec.negatable && values[`no-${name}`] === true
      ? false
      : (values[name] ?? (defaults ? spec.default : undefined)),
  );
}

function parseOption(spec: OptionSpec): ParseOption {
  // A number travels as text in a table the fast path takes (none has one).
  const option: ParseOption = {type: spec.type === 'boolean' ? 'boolean' : 'string'};
  if (spec.short) option.short = spec.short;
  if (spec.multiple) option.multiple = true;
  return option;
}

/** Every value of a flag with choices is one of them (else yargs says which it takes). */
function withinChoices(values: Record<string, unknown>, table: OptionTable): boolean {
  return Object.entries(table).every(([name, spec]) => {
    const value = values[name];
    if (!spec.choices || value === undefined) return true;
    return (Array.isArray(value) ? value : [value]).every((v) => spec.choices?.includes(String(v)));
  });
}

/**
 * `--lock-timeout -5s`: a value that starts with "-" is still the value of a string flag
 * (so the flag's own validation can say what is wrong with it), unless it is itself a flag
 * of ours or the `--` that starts the text.
 */
function attachDashValues(args: readonly string[], table: OptionTable): string[] {
  const out: string[] = [];
  const known = new Set(Object.keys(table).flatMap((n) => [`--${n}`, `--no-${n}`]));
  for (const spec of Object.values(table)) if (spec.short) known.add(`-${spec.short}`);
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
      table[name]?.type === 'string' &&
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
