import yargs from 'yargs';
import {NudgeError} from '../base/errors.js';
import {nudgeVersion} from '../base/version.js';
import type {Output} from '../render/render.js';
import type {CommandContext} from '../verbs/context.js';
import type {submit} from '../verbs/submit.js';
import type {CliEnv, McpStdio} from './command.js';
import {ALL_DECLARED, declaredCommand} from './declared.js';

export type {McpStdio} from './command.js';

/** The commands and groups, in the order --help lists them: each declared once (src/declare/,
 * shared with the MCP tools; the CLI's own in local.ts and local-groups.ts), a group where its
 * first command stands. */
const COMMANDS: readonly string[] = [...new Set(ALL_DECLARED.map((d) => d.group ?? d.name))];

/**
 * The yargs definition of the CLI. Each handler calls one command function with a typed
 * options object and stores its exit code in `result`; errors propagate to the caller, which
 * maps them to exit codes in one place.
 */
/** Flags renamed, by command: the old spelling keeps its meaning, with a word on stderr. */
const RENAMED: Record<string, Record<string, string>> = {
  run: {'--no-notify': '--no-notice'},
};

/**
 * The command line as yargs should read it: a negative value after an option (`--timeout
 * -1s`) is that option's value, so the option's own check says what is wrong with it (yargs
 * would read `-1s` as the flags -1 and -s); a renamed flag is its new spelling. Nothing after
 * `--` (the text to type) is touched.
 */
export function normalizeArgv(argv: readonly string[], out: Output): string[] {
  const renamed = RENAMED[argv[0] ?? ''] ?? {};
  const result: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') {
      result.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const now = renamed[word];
    if (now !== undefined) {
      out.stderr(`nudge: ${word} is now ${now}; the old spelling still works, for now.`);
      result.push(now);
    } else if (/^--[a-z][\w-]*$/.test(word) && next !== undefined && /^-\d/.test(next)) {
      result.push(`${word}=${next}`);
      i++;
    } else result.push(word);
  }
  return result;
}

export function buildCli(
  argv: string[],
  ctx: CommandContext,
  out: Output,
  result: {exitCode: number},
  local: {submit?: typeof submit} = {},
  stdio: McpStdio = {stdin: undefined, stdout: undefined},
) {
  const env: CliEnv = {
    ctx,
    stdio,
    local,
    run: async (command, render) => {
      result.exitCode = await render(await command, out);
    },
  };
  let cli = yargs(normalizeArgv(argv, out))
    .scriptName('nudge')
    .usage(
      '$0 <command> [options]\n\nHand a job to a tmux pane without blocking; be woken when it is done.',
    );
  for (const name of COMMANDS) cli = cli.command(declaredCommand(name)(env));
  return cli
    .completion('completion', 'print a bash or zsh completion script (zsh when $SHELL is zsh)')
    .parserConfiguration({'populate--': true})
    .demandCommand(1, 'Give a command; see nudge --help.')
    .strict()
    .recommendCommands()
    .help()
    .version(nudgeVersion())
    .wrap(Math.min(110, (stdio.stdout as {columns?: number} | undefined)?.columns || 100))
    .showHelpOnFail(false)
    .exitProcess(false)
    .fail((msg, error) => {
      if (error) throw error;
      // recommendCommands() reports an unknown command only as "Did you mean …?".
      // One line: yargs puts a list of choices on lines of their own.
      const line = msg.replace(/\s*\n\s*/g, ' ');
      const text = line.startsWith('Did you mean') ? `Unknown command. ${line}` : line;
      throw new NudgeError('bad-usage', `${text} See nudge --help.`);
    });
}
