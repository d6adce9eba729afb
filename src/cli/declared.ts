import type {Argv} from 'yargs';
import {type AnyDeclaration, usageOf} from '../declare/define.js';
import {DECLARED, GROUPS} from '../declare/registry.js';
import type {Args, CliCommand, CliEnv} from './command.js';
import {wordsOf} from './command.js';
import {LOCAL} from './local.js';
import {LOCAL_GROUPED, LOCAL_GROUPS} from './local-groups.js';
import {optionsFrom, withOptions} from './options.js';
import {runDeclared} from './run-declared.js';

/**
 * The yargs modules of the declared commands (src/declare/, and the CLI's own in local.ts and
 * local-groups.ts): each a loop step over its declaration — its words, its table's flags, its
 * examples — whose handler runs the verb (or the command's own step) and prints the result
 * with the declaration's renderer.
 */

/** Every command the command line has. */
export const ALL_DECLARED: readonly AnyDeclaration[] = [...DECLARED, ...LOCAL, ...LOCAL_GROUPED];
const ALL_GROUPS = {...GROUPS, ...LOCAL_GROUPS};

/** The yargs module of a command, or of a group and its commands. */
export function declaredCommand(name: string): CliCommand {
  const group = ALL_GROUPS[name];
  if (group) return groupCommand(name, group);
  const d = ALL_DECLARED.find((c) => c.group === undefined && c.name === name);
  if (!d) throw new Error(`No declared command ${name}`);
  return (env) => ({
    command: usageOf(d),
    describe: d.hidden ? false : d.describe,
    builder: (y) => build(y, d),
    handler: (a) => handle(d, a, env),
  });
}

function groupCommand(name: string, group: {describe: string; demand?: string}): CliCommand {
  const members = ALL_DECLARED.filter((d) => d.group === name);
  return (env) => ({
    command: name,
    describe: group.describe,
    builder: (y) => {
      let b = y;
      for (const d of members) {
        const usage = usageOf(d);
        const words = d.groupDefault ? [usage, usage.replace(d.name, '$0')] : usage;
        b = b.command(
          words,
          d.describe,
          (c) => build(c, d),
          (a) => handle(d, a, env),
        );
      }
      return group.demand ? b.demandCommand(1, group.demand) : b.demandCommand(0);
    },
    handler: () => {},
  });
}

function build<A>(y: Argv<A>, d: AnyDeclaration): Argv<A> {
  let b = y;
  for (const p of d.positionals ?? [])
    b = b.positional(p.name, {
      type: 'string',
      describe: p.describe,
      ...(p.variadic ? {array: true} : {}),
      ...(p.required ? {demandOption: true} : {}),
      ...(p.choices
        ? {choices: [...(typeof p.choices === 'function' ? p.choices() : p.choices)]}
        : {}),
    }) as unknown as Argv<A>;
  b = withOptions(b, d.options);
  // Examples: printed by build-cli after yargs' help, one command a line, never wrapped.
  return b;
}

/** What yargs parsed as the declaration's `Given`: the table's options, each positional under
 * its key (a variadic one with the words after `--`). */
export function givenOf(d: AnyDeclaration, a: Args): Record<string, unknown> {
  const given: Record<string, unknown> = {...optionsFrom(a, d.options)};
  for (const p of d.positionals ?? []) {
    const value = p.variadic ? wordsOf(a, p.name) : a[p.name];
    if (value !== undefined) given[p.key ?? p.name] = p.variadic ? value : String(value);
  }
  return given;
}

function handle(d: AnyDeclaration, a: Args, env: CliEnv): Promise<void> {
  return runDeclared(d, givenOf(d, a), a.json === true, env);
}
