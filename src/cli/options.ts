import type {Argv} from 'yargs';
import {
  camelOf,
  helpOf,
  mapOptions,
  type OptionSpec,
  type OptionsOf,
  type OptionTable,
  SERVER_OPTIONS,
} from '../base/option-table.js';

/** Add a table's options to a yargs command. Help shows each default: yargs prints a default
 * it fills in; an implied one (the command's, not filled in) goes into the description. */
export function withOptions<A>(y: Argv<A>, table: OptionTable): Argv<A> {
  let b = y;
  for (const [name, spec] of Object.entries(table)) b = b.option(name, yargsOption(spec));
  return b;
}

/** A command about one pane, `[pane]` (default $TMUX_PANE), with the server options and the
 * command's own table. */
export function paneCommand<A>(y: Argv<A>, table: OptionTable): Argv<A> {
  return withOptions(
    y.positional('pane', {
      type: 'string',
      describe: 'pane: %N or session:window.pane (default $TMUX_PANE)',
    }) as unknown as Argv<A>,
    {...SERVER_OPTIONS, ...table},
  );
}

function yargsOption(spec: OptionSpec) {
  return {
    type: spec.type,
    describe: spec.implied !== undefined ? helpOf(spec) : spec.describe,
    ...(spec.short ? {alias: spec.short} : {}),
    ...(spec.default !== undefined ? {default: spec.default} : {}),
    ...(spec.multiple
      ? {array: true}
      : // Given twice, the last one counts (yargs would make "5s,6s" of them).
        {coerce: (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v)}),
    ...(spec.choices ? {choices: [...spec.choices]} : {}),
    ...(spec.hidden ? {hidden: true} : {}),
  };
}

/** What yargs parsed, as the options object of a command (absent when not given and without
 * a default). */
export function optionsFrom<T extends OptionTable>(
  args: Record<string, unknown>,
  table: T,
): OptionsOf<T> {
  return mapOptions(table, (name) => args[camelOf(name)]);
}
