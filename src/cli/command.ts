import type {ArgumentsCamelCase, CommandModule} from 'yargs';
import type {Verb} from '../front/dispatch.js';
import type {CommandFn} from '../front/run-on.js';
import type {Output} from '../render/render.js';
import type {CommandContext} from '../verbs/context.js';

/** The streams `nudge mcp` speaks the protocol on (the entry passes process.stdin/stdout). */
export interface McpStdio {
  stdin: NodeJS.ReadableStream | undefined;
  stdout: NodeJS.WritableStream | undefined;
}

/** What every CLI command gets: the command context, where output goes, and how to run a
 * command function and render its typed result (storing the exit code). */
export interface CliEnv {
  ctx: CommandContext;
  run: <R>(
    command: Promise<R>,
    // A number: `submit --wait --until exit` exits with the command's own status.
    render: (r: R, out: Output) => number | Promise<number>,
  ) => Promise<void>;
  stdio: McpStdio;
  /** Commands run in place of the verbs here (tests pass a `submit` that records what the
   * parser produced). */
  local: {[K in Verb]?: CommandFn<K>};
}

/** The environment of a command line's commands: each result printed to `out`, its exit code
 * kept in `result`. */
export function cliEnv(
  ctx: CommandContext,
  out: Output,
  result: {exitCode: number},
  stdio: McpStdio,
  local: CliEnv['local'] = {},
): CliEnv {
  return {
    ctx,
    stdio,
    local,
    run: async (command, render) => {
      result.exitCode = await render(await command, out);
    },
  };
}

/** Parsed arguments as a handler sees them. */
export type Args = ArgumentsCamelCase<Record<string, unknown>>;

/** One command of the CLI: its yargs module, built for an environment. Handlers load the
 * command they run (and its renderer) when called, so a command pays only for itself. */
export type CliCommand = (env: CliEnv) => CommandModule<object, Record<string, unknown>>;

/** The words of a variadic positional plus everything after `--`. */
export function wordsOf(a: Args, positional: string): string[] {
  return [
    ...((a[positional] as unknown[] | undefined) ?? []),
    ...((a['--'] as unknown[] | undefined) ?? []),
  ].map(String);
}
