import type {McpServer} from '@modelcontextprotocol/sdk/server/mcp.js';
import {z} from 'zod';
import {
  type AnyDeclaration,
  type McpPolicy,
  optionsOfGiven,
  type Positional,
  type ToolAnswer,
  type ToolArgument,
} from '../declare/define.js';
import {dispatch} from '../front/dispatch.js';
import type {CommandContext} from '../verbs/context.js';
import {optionsOf, shapeOf} from './schema.js';

/** A tool's answer as MCP carries it: the command's typed result as JSON (and as structured
 * content), with a sentence of its own where it has one. */
export type ToolResult = {
  content: Array<{type: 'text'; text: string}>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** How a tool call runs: its own abort signal, errors as tool errors, every call logged. */
export type ToolCall = <A>(
  tool: string,
  body: (args: A, c: CommandContext) => Promise<ToolResult>,
) => (args: A, extra: {signal: AbortSignal}) => Promise<ToolResult>;

/**
 * The MCP tool of a declared command (src/declare/): its arguments from the declaration's
 * positionals, its table's `mcp` rows and the tool's own arguments; a call maps them to the
 * verb's options as the CLI does, lets the person's policy (`nudge mcp --allow-exec`,
 * `--allow-close`) change or refuse them, and dispatches the verb.
 */
export function registerDeclared(
  server: McpServer,
  d: AnyDeclaration,
  policy: McpPolicy,
  call: ToolCall,
): void {
  const tool = d.mcp;
  const verb = d.verb;
  if ('none' in tool || !verb) return;
  const inputSchema = {
    ...positionalShape(d.positionals ?? []),
    ...shapeOf(d.options, new Set((tool.arguments ?? []).map((a) => a.key))),
    ...argumentShape(tool.arguments ?? []),
  };
  const annotations =
    typeof tool.annotations === 'function' ? tool.annotations(policy) : tool.annotations;
  const registered = server.registerTool(
    tool.name,
    {
      title: tool.title,
      // A tool that can take `host` reaches another machine: the open world (issue 61).
      annotations: 'host' in inputSchema ? {...annotations, openWorldHint: true} : annotations,
      description: tool.description,
      inputSchema,
    },
    call(tool.name, async (args: Record<string, unknown>, c) => {
      const given = {
        ...optionsOf(args, d.options),
        ...positionalsOf(args, d.positionals ?? []),
        ...argumentsOf(args, tool.arguments ?? []),
      };
      const options = optionsOfGiven(d, given);
      const policed = tool.police ? tool.police(options, policy) : options;
      const result = await dispatch(verb, policed as never, c);
      return resultOf(tool.answer ? tool.answer(result) : {value: result as object});
    }),
  );
  if (tool.offered && !tool.offered(policy)) registered.disable();
}

function toolName(p: Positional): string {
  return p.mcp?.name ?? p.name;
}

function positionalShape(positionals: readonly Positional[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const p of positionals) {
    const text =
      p.variadic && p.mcp?.list
        ? z.union([z.string(), z.array(z.string()).min(1).max(64)])
        : z.string();
    const optional = p.mcp?.optional === true || (!p.required && !p.variadic);
    shape[toolName(p)] = (optional ? text.optional() : text).describe(
      p.mcp?.describe ?? p.describe,
    );
  }
  return shape;
}

/** The positionals a call gave, under their keys (a variadic one as the list of its one). */
function positionalsOf(args: Record<string, unknown>, positionals: readonly Positional[]) {
  const out: Record<string, unknown> = {};
  for (const p of positionals) {
    const value = args[toolName(p)];
    if (value === undefined) continue;
    out[p.key ?? p.name] = !p.variadic
      ? String(value)
      : Array.isArray(value)
        ? value.map(String)
        : [String(value)];
  }
  return out;
}

function argumentShape(list: readonly ToolArgument[]): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const a of list) {
    const base =
      a.type === 'boolean'
        ? z.boolean()
        : a.type === 'string'
          ? z.string()
          : z.union([z.boolean(), z.string()]);
    shape[a.name] = base.optional().describe(a.describe);
  }
  return shape;
}

function argumentsOf(args: Record<string, unknown>, list: readonly ToolArgument[]) {
  const out: Record<string, unknown> = {};
  for (const a of list) if (args[a.name] !== undefined) out[a.key] = args[a.name];
  return out;
}

function resultOf(answer: ToolAnswer): ToolResult {
  const structuredContent = answer.value as Record<string, unknown>;
  if ('error' in answer)
    return {content: [{type: 'text', text: answer.error}], structuredContent, isError: true};
  const text = 'text' in answer ? answer.text : JSON.stringify(answer.value);
  return {content: [{type: 'text', text}], structuredContent};
}
