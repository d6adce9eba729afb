import {z} from 'zod';
import type {OptionSpec, OptionsOf, OptionTable} from '../base/option-table.js';
import {camelOf, helpOf, mapOptions, toolArgumentOf} from '../base/option-table.js';

/** A duration as a tool argument: text as on the command line, or milliseconds. */
export const duration = z
  .union([z.string(), z.number()])
  .describe('a duration with its unit ("250ms", "30s", "5m", "1h"), or a number of milliseconds');

/** The MCP tool arguments a command's options table gives (every option but those only the
 * CLI takes, and those the tool takes by an argument of its own: `own`, their keys), with the
 * same help and defaults as the CLI's flags. */
export function shapeOf(table: OptionTable, own: ReadonlySet<string>): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(table)) {
    const arg = own.has(camelOf(name)) ? undefined : toolArgumentOf(name, spec);
    if (arg !== undefined) shape[arg] = argument(spec);
  }
  return shape;
}

function argument(spec: OptionSpec): z.ZodType {
  const help = helpOf(spec, 'mcp');
  const base: z.ZodType = spec.mcp?.duration
    ? duration
    : spec.choices
      ? z.enum(spec.choices as [string, ...string[]])
      : spec.multiple
        ? z.array(z.string())
        : spec.type === 'boolean'
          ? z.boolean()
          : spec.type === 'number' || spec.mcp?.number
            ? z.number().int().positive()
            : z.string();
  const value = spec.type === 'number' || spec.mcp?.number ? Number(spec.default) : spec.default;
  const filled =
    spec.default === undefined || spec.type === 'boolean'
      ? base.optional()
      : (base as z.ZodType<unknown>).default(value);
  // Described last: a wrapper (optional, default) does not carry the inner description.
  return help ? filled.describe(help) : filled;
}

/** A tool call's arguments as the command's options object (camelCase names); what the tool
 * was not given is absent. */
export function optionsOf<T extends OptionTable>(
  args: Record<string, unknown>,
  table: T,
): OptionsOf<T> {
  return mapOptions(table, (name, spec) => {
    const arg = toolArgumentOf(name, spec);
    return arg === undefined ? undefined : args[arg];
  });
}
