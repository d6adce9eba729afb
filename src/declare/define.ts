import type {OptionsOf, OptionTable} from '../base/option-table.js';
import type {Dispatched, dispatch, HostChoice, HostOptions, Verb} from '../front/dispatch.js';
import type {Output} from '../render/render.js';
import type {CommandContext} from '../verbs/context.js';

/**
 * Each command declared once: the words and options a person types, the verb it runs (by its
 * name in src/front/verbs.ts, so dispatch decides where), how its result is printed, and
 * the MCP tool it is. The CLI (src/cli/declared.ts) and the MCP server (src/mcp/tools.ts) are
 * loops over these declarations; neither restates a table.
 */

/** A word of the command line before the flags (`<job>`, `[pane]`, `[text..]`), and the MCP
 * argument it is. */
export interface Positional {
  /** Its name on the command line (`nudge status <job>`). */
  name: string;
  /** Where it lands in the options object (default: `name`). */
  key?: string;
  describe: string;
  /** `<name>`: it must be given. */
  required?: boolean;
  /** `[name..]`: the rest of the words, and everything after `--` (a list of strings; an MCP
   * argument gives one string, the list of that one). */
  variadic?: boolean;
  /** The MCP argument it is, when it differs (the tool's own word, optional there); `list`: a
   * variadic one the tool also takes as a list of strings (`wait`'s panes). */
  mcp?: {name?: string; describe?: string; optional?: boolean; list?: boolean};
  /** The words it may be (`nudge install <agent>`); a function is asked only when the command
   * is parsed (the agents' profiles are read then, not for every command). */
  choices?: readonly string[] | (() => readonly string[]);
}

/** A job named on the command line. */
export const JOB: Positional = {name: 'job', required: true, describe: 'a job id, or HOST:ID'};

/** `[pane]`: a pane, default the caller's own. */
export const PANE: Positional = {
  name: 'pane',
  describe: 'pane: %N or session:window.pane (default $TMUX_PANE)',
};

/** An argument the MCP tool takes that is not a word or flag of the command line as such
 * (`no_notice`, said `--no-notice` there). */
export interface ToolArgument {
  name: string;
  key: string;
  type: 'boolean' | 'string' | 'boolean-or-string';
  describe: string;
}

/** How `nudge mcp` was started: what its tools may do beyond looking and typing. */
export interface McpPolicy {
  /** `--allow-exec`: the tools that run commands are offered. */
  allowExec: boolean;
  /** `--allow-close`: `expect` may close the pane it watched. */
  allowClose: boolean;
  /** The assessor a watcher made by `watch_me` gets. */
  assess: {
    assessCmd?: string | undefined;
    assessUrl?: string | undefined;
    assessModel?: string | undefined;
    assessKeyEnv?: string | undefined;
  };
}

/** What a tool is, as MCP's annotations say it (a client's "always allow" reads them). */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  openWorldHint: boolean;
  idempotentHint?: boolean;
}

/** Only looks. */
export const LOOKS: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  openWorldHint: false,
};
/** Acts on panes, and may make a program run a command (text typed into a shell). */
export const ACTS: Annotations = {readOnlyHint: false, destructiveHint: true, openWorldHint: true};
/** Changes nudge's own records only. */
export const KEEPS: Annotations = {
  readOnlyHint: false,
  destructiveHint: false,
  openWorldHint: false,
};

/** A tool's answer: the result as JSON, a sentence beside it, or an error with its sentence. */
export type ToolAnswer =
  | {value: object}
  | {text: string; value: object}
  | {error: string; value: object};

/** The MCP tool a command is. */
export interface ToolDeclaration<K extends Verb> {
  /** Its name (as declared: the verb's, `queue_move`, unless it says another). */
  name: string;
  title: string;
  description: string;
  annotations: Annotations | ((policy: McpPolicy) => Annotations);
  /** Arguments of the tool alone (beside the positionals and the table's `mcp` rows). */
  arguments?: readonly ToolArgument[];
  /** Listed only when the policy allows it (a tool that runs commands). */
  offered?: (policy: McpPolicy) => boolean;
  /** What the person's policy changes or refuses in a call (a NudgeError names the flag). */
  police?: (options: HostOptions<K> & HostChoice, policy: McpPolicy) => HostOptions<K> & HostChoice;
  /** The answer from the result (default: the result as JSON). */
  answer?: (result: Dispatched<K>) => ToolAnswer;
}

/** What the front end parsed: the positionals under their keys, the table's options under
 * their camelCase names, and the tool's own arguments. */
export type Given<T extends OptionTable> = OptionsOf<T> & Record<string, unknown>;

/** How a result is printed (with the options it was asked with); the number is the exit
 * code. */
export type Renderer<K extends Verb> = (
  result: Dispatched<K>,
  json: boolean,
  out: Output,
  options: HostOptions<K> & HostChoice,
) => number | Promise<number>;

export interface CommandDeclaration<K extends Verb, T extends OptionTable> {
  /** The verb dispatch runs (src/front/verbs.ts). */
  verb: K;
  /** The command line: `wait`, or `start` under `group` (`nudge watch start`). */
  name: string;
  group?: string;
  describe: string;
  positionals?: readonly Positional[];
  /** Every flag, each with its MCP argument where the tool takes it. */
  options: T;
  examples?: ReadonlyArray<readonly [string, string]>;
  /** The verb's options from what was parsed (default: as parsed). */
  toOptions?: (given: Given<T>) => HostOptions<K> & HostChoice;
  /** How the CLI runs it, where that is more than the verb (default: dispatch the verb). */
  cli?: (options: HostOptions<K> & HostChoice, kit: CliKit) => Promise<Dispatched<K>>;
  /** The group's command when the group is named alone (`nudge queue` is `queue show`). */
  groupDefault?: boolean;
  /** The renderer, loaded when the command runs. */
  render: () => Promise<Renderer<K>>;
  /** Its MCP tool, or why it has none. */
  mcp: ToolDeclaration<K> | {none: string};
}

/** What a command's own CLI step gets: the one dispatch, the context, the terminal, and
 * whether `--json` was asked for. */
export interface CliKit {
  dispatch: typeof dispatch;
  ctx: CommandContext;
  stdin: NodeJS.ReadableStream | undefined;
  stdout: NodeJS.WritableStream | undefined;
  json: boolean;
}

/**
 * A command of the command line alone — it runs here and is no verb of a pane or job
 * (`install`, `hook`, `explain`, `agents list`, `mcp` itself): its words, its table, its own
 * step and its renderer, and why it is no MCP tool.
 */
export interface LocalDeclaration<T extends OptionTable, O, R> {
  name: string;
  group?: string;
  describe: string;
  /** Not listed in `--help` (`nudge remote`, the far end of --host). */
  hidden?: boolean;
  positionals?: readonly Positional[];
  options: T;
  examples?: ReadonlyArray<readonly [string, string]>;
  toOptions: (given: Given<T>) => O;
  cli: (options: O, kit: CliKit) => Promise<R>;
  render: () => Promise<
    (result: R, json: boolean, out: Output, options: O) => number | Promise<number>
  >;
  mcp: {none: string};
}

/** A declaration as the loops see it: the verb's types erased (each was checked where it was
 * declared). */
export type AnyDeclaration = Omit<
  CommandDeclaration<Verb, OptionTable>,
  'verb' | 'toOptions' | 'cli' | 'render' | 'mcp'
> & {
  /** Absent: a command of the command line alone (its `cli` step runs it). */
  verb?: Verb;
  hidden?: boolean;
  toOptions?: (given: Loose) => Loose;
  cli?: (options: Loose, kit: CliKit) => Promise<Loose>;
  render: () => Promise<
    (result: Loose, json: boolean, out: Output, options: Loose) => number | Promise<number>
  >;
  mcp:
    | {none: string}
    | (Omit<ToolDeclaration<Verb>, 'police' | 'answer'> & {
        police?: (options: Loose, policy: McpPolicy) => Loose;
        answer?: (result: Loose) => ToolAnswer;
      });
};
// biome-ignore lint/suspicious/noExplicitAny: what a declaration's own types checked
type Loose = any;

/** A command as it is declared: its command-line name and its tool's name are the verb's
 * unless it says otherwise (`queue-move` of the group `queue` is `nudge queue move` and the
 * tool `queue_move`). */
export type CommandSpec<K extends Verb, T extends OptionTable> = Omit<
  CommandDeclaration<K, T>,
  'name' | 'mcp'
> & {
  name?: string;
  mcp: (Omit<ToolDeclaration<K>, 'name'> & {name?: string}) | {none: string};
};

/** Declare a command, typed (the verb's options and result check the rest), its names filled
 * in from the verb where it gives none. */
export function defineCommand<K extends Verb, T extends OptionTable>(
  spec: CommandSpec<K, T>,
): CommandDeclaration<K, T> {
  const {verb, group, mcp} = spec;
  const name =
    spec.name ?? (group && verb.startsWith(`${group}-`) ? verb.slice(group.length + 1) : verb);
  const tool = 'none' in mcp ? mcp : {...mcp, name: mcp.name ?? verb.replace(/-/g, '_')};
  return {...spec, name, mcp: tool};
}

/** Declare a command of the command line alone (the identity, typed). */
export function defineLocal<T extends OptionTable, O, R>(
  declaration: LocalDeclaration<T, O, R>,
): LocalDeclaration<T, O, R> {
  return declaration;
}

/** The command-line words of a declaration: `status <job>`, `submit [text..]`. */
export function usageOf(d: AnyDeclaration): string {
  const words = (d.positionals ?? []).map((p) => {
    const inner = `${p.name}${p.variadic ? '..' : ''}`;
    return p.required ? `<${inner}>` : `[${inner}]`;
  });
  return [d.name, ...words].join(' ');
}

/** The options object of a declaration from what a front end parsed. */
export function optionsOfGiven(d: AnyDeclaration, given: Record<string, unknown>): object {
  return d.toOptions ? d.toOptions(given) : given;
}
