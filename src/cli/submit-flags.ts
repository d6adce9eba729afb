import type {OptionTable} from '../base/option-table.js';
import {submitOptionsOf} from '../declare/panes.js';
import type {HostChoice} from '../front/dispatch.js';
import type {SubmitOptions} from '../job-options/table.js';
import {SUBMIT_OPTIONS} from '../verbs/options/submit.js';
import {optionsOfValues, parseFast} from './fast-flags.js';

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
  const given = optionsOfValues(values, SUBMIT_OPTIONS, false);
  const noNotice = values.notice === false || values['no-notice'] === true;
  return {...submitOptionsOf({...given, text: words.map(String), noNotice}), json: given.json};
}

/**
 * The fast path for `nudge submit`: parse with node's built-in parseArgs (src/cli/fast-flags.ts),
 * so the front end does not load yargs (~100 ms on the CI machine, more than the whole
 * front-end budget). Returns undefined for anything it does not accept exactly: the caller
 * then hands the command line to yargs, which prints help or the error message.
 */
export function parseSubmitFast(
  argv: readonly string[],
): (SubmitOptions & HostChoice & {json: boolean | undefined}) | undefined {
  if (argv[0] !== 'submit') return undefined;
  const parsed = parseFast(argv.slice(1), SUBMIT_FLAGS, ['no-notice']);
  if (!parsed) return undefined;
  const {values, positionals} = parsed;
  if (values.notice !== undefined && values['no-notice'] === true) return undefined;
  return toSubmitOptions(values, positionals);
}
