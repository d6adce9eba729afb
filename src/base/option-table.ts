/**
 * A command's options as one table: the CLI builds its flags from it (src/cli), the MCP server
 * its tool schemas (src/mcp), and both show the same help and defaults. Pure data, so the
 * front ends can read a table without loading the command behind it.
 */
export interface OptionSpec {
  type: 'string' | 'boolean' | 'number';
  describe?: string;
  /** One-letter flag (`-t`). */
  short?: string;
  default?: string | boolean | number;
  /** What the command uses when the option is absent, where a front end must not fill it in
   * (`watch start` on an existing watcher changes only what it is given): shown in help only. */
  implied?: string | number;
  /** Repeatable (`--ignore A --ignore B`); the value is a list. */
  multiple?: boolean;
  /** A boolean that defaults to true and is turned off with --no-NAME. */
  negatable?: boolean;
  choices?: readonly string[];
  /** Left out of --help (an option for tests and tuning). */
  hidden?: boolean;
  /** A string flag that may also stand alone (`--worktree` alone: a branch name of nudge's
   * choosing); every other string flag given no value is refused (src/cli/build-cli.ts). */
  valueOptional?: boolean;
  /** How the MCP tool of its command takes it: under its snake_case name (`--idle-timeout` is
   * `idle_timeout`) unless `name` says another; `duration: true` there also accepts a number
   * of milliseconds; `number: true` takes a number where the CLI takes the digits as text. */
  mcp?: {name?: string; duration?: boolean; number?: boolean; describe?: string};
  /** Why the MCP tool does not take it, where the command has a tool (every other option is
   * an argument of the tool). */
  cliOnly?: string;
  /** What a job stores of it (src/job-options/stored.ts): the fields of request.json it gives,
   * their stored types, and how the value given, or the default, becomes them. */
  job?: {stored: object; read: (value: never, at: never) => object};
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

/**
 * A duration option, alike in every table: text on the CLI (`90s`, `5m`, `1h`), text or a
 * number of milliseconds for the MCP tool. `shown`: its default, or what the command uses when
 * it is absent (`implied`).
 */
export function durationOption<
  const S extends {default: string} | {implied: string} | NoDefault = NoDefault,
>(describe: string, shown?: S): DurationSpec & S {
  return {type: 'string', describe, ...shown, mcp: {duration: true}} as DurationSpec & S;
}

type NoDefault = Record<never, never>;
type DurationSpec = {
  readonly type: 'string';
  readonly describe: string;
  readonly mcp: {readonly duration: true};
};

/** The name the MCP tool of its command takes option `name` under; undefined where only the
 * CLI takes it (`cliOnly`). */
export function toolArgumentOf(name: string, spec: OptionSpec): string | undefined {
  if (spec.cliOnly !== undefined) return undefined;
  return spec.mcp?.name ?? name.replace(/-/g, '_');
}

/** The help line of an option: its description and, where it has one, its default. */
export function helpOf(spec: OptionSpec, front: 'cli' | 'mcp' = 'cli'): string {
  const text = (front === 'mcp' ? spec.mcp?.describe : undefined) ?? spec.describe ?? '';
  const shown = spec.default ?? spec.implied;
  if (shown === undefined || spec.type === 'boolean') return text;
  return text ? `${text} (default ${shown})` : `default ${shown}`;
}

/** `stable-checks` → `stableChecks`: the key of an option in a command's options object. */
export function camelOf(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * A command's options object from what a front end parsed: `given(name, spec)` is the value
 * the option was given under its flag name (undefined: not given), and each lands under its
 * camelCase name, a repeatable one as a list of strings. The one mapper of every front end:
 * yargs (src/cli/options.ts), the fast path of submit (src/cli/submit-flags.ts) and the MCP
 * tools (src/mcp/schema.ts).
 */
export function mapOptions<T extends OptionTable>(
  table: T,
  given: (name: string, spec: OptionSpec) => unknown,
): OptionsOf<T> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(table)) {
    const value = given(name, spec);
    if (value === undefined) continue;
    out[camelOf(name)] = spec.multiple
      ? (Array.isArray(value) ? value : [value]).map(String)
      : value;
  }
  return out as OptionsOf<T>;
}

const ON_ITS_SERVER = 'nudge mcp serves the tmux server its own pane is on';

/** The tmux server flags every tmux-facing command takes. */
export const SERVER_OPTIONS = {
  'socket-name': {
    type: 'string',
    short: 'L',
    describe: 'tmux server socket name (as tmux -L)',
    cliOnly: ON_ITS_SERVER,
  },
  'socket-path': {
    type: 'string',
    short: 'S',
    describe: 'tmux server socket path (as tmux -S)',
    cliOnly: ON_ITS_SERVER,
  },
} as const satisfies OptionTable;

/** `--host`: run the command on another host, over ssh (docs/remote.md). */
export const HOST_OPTION = {
  host: {
    type: 'string',
    describe:
      'run it on another host over ssh: an alias of ~/.ssh/config or user@host (default $NUDGE_HOST; local: this machine)',
    mcp: {
      describe:
        'the host it runs on, as ssh takes it (an alias or user@host); default: this machine',
    },
  },
} as const satisfies OptionTable;

/** `--json`: print the typed result as JSON. */
export const JSON_OPTION = {
  json: {
    type: 'boolean',
    default: false,
    describe: 'print the result as JSON',
    cliOnly: 'a tool answers JSON always',
  },
} as const satisfies OptionTable;

/** `stable-checks` → `stableChecks`, as a type. */
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/** The value an option gives a command: a list if repeatable, else by its type. */
/** (An MCP argument that takes a number, or milliseconds, arrives as one.) */
type ValueOf<O> = O extends {mcp: {duration: true}} | {mcp: {number: true}}
  ? string | number
  : O extends {multiple: true}
    ? string[]
    : O extends {type: 'boolean'}
      ? boolean
      : O extends {type: 'number'}
        ? number
        : O extends {choices: readonly (infer C)[]}
          ? C
          : string;

/** The options object a table gives a command: each option under its camelCase name. */
export type OptionsOf<T extends OptionTable> = {
  -readonly [K in keyof T as Camel<K & string>]?: ValueOf<T[K]>;
};
