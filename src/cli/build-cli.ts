import yargs from 'yargs';
import {NudgeError} from '../base/errors.js';
import {nudgeVersion} from '../base/version.js';
import type {Output} from '../render/render.js';
import {wrapped} from '../render/wrap.js';
import type {CommandContext} from '../verbs/context.js';
import type {submit} from '../verbs/submit.js';
import {cliEnv, type McpStdio} from './command.js';
import {ownCompletion} from './complete.js';
import {ALL_DECLARED, declaredCommand} from './declared.js';
import {checkFlagValues, checkWords, commandOf, helpWords, usageSentence} from './words.js';

export type {McpStdio} from './command.js';

/** The commands and groups, in the order --help lists them: each declared once (src/declare/,
 * shared with the MCP tools; the CLI's own in local.ts and local-groups.ts), a group where its
 * first command stands. */
const COMMANDS: readonly string[] = [...new Set(ALL_DECLARED.map((d) => d.group ?? d.name))];

/** `nudge completion --help`: what the command does and how to use its script. */
const COMPLETION_HELP = [
  'nudge completion',
  '',
  'Print a completion script for nudge: nudge completion bash|zsh|fish',
  '(without a shell: the one $SHELL names).',
  '',
  'Load it in your shell, one line in ~/.bashrc or ~/.zshrc:',
  '  eval "$(nudge completion bash)"   (zsh: nudge completion zsh)',
  'or for fish, in ~/.config/fish/config.fish:',
  '  nudge completion fish | source',
].join('\n');

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

/**
 * The yargs definition of the CLI. Each handler calls one command function with a typed
 * options object and stores its exit code in `result`; errors propagate to the caller, which
 * maps them to exit codes in one place.
 */
export function buildCli(
  given: string[],
  ctx: CommandContext,
  out: Output,
  result: {exitCode: number},
  local: {submit?: typeof submit} = {},
  stdio: McpStdio = {stdin: undefined, stdout: undefined},
) {
  const env = cliEnv(ctx, out, result, stdio, local);
  // A job or a pane being completed: nudge's own values (yargs completes every other word).
  const completing = ownCompletion(given, ctx, out);
  if (completing) return {parseAsync: completing};
  const argv = helpWords(given);
  checkFlagValues(argv);
  checkWords(argv);
  // `completion --help` is help, not the script (yargs prints the script for it).
  if (argv[0] === 'completion' && argv.some((w) => w === '--help' || w === '-h')) {
    out.stdout(COMPLETION_HELP);
    return {parseAsync: async () => undefined};
  }
  // A bare `nudge` lists the commands, as gh does.
  const args = argv.length === 0 ? ['--help'] : normalizeArgv(argv, out);
  let cli = yargs(args)
    .scriptName('nudge')
    .usage(
      '$0 <command> [options]\n\nHand a job to a tmux pane without blocking; be woken when it is done.',
    );
  for (const name of COMMANDS) cli = cli.command(declaredCommand(name)(env));
  const parser = cli
    .completion('completion', 'print a completion script: completion bash|zsh|fish')
    .parserConfiguration({'populate--': true})
    .demandCommand(1, 'Give a command')
    .strict()
    .recommendCommands()
    .help()
    .alias('help', 'h')
    .version(nudgeVersion())
    .wrap(helpWidth(out))
    .showHelpOnFail(false)
    .exitProcess(false)
    .fail((msg, error) => {
      if (error) throw error;
      throw new NudgeError('bad-usage', usageSentence(msg, argv));
    });
  // What yargs would print (help, the version, the completion script) comes to the callback:
  // printed here, a command's help with its examples after it.
  return {
    parseAsync: () =>
      parser.parseAsync(args, {}, (_error, _parsed, output) => {
        if (output) out.stdout(withExamples(output, args, helpWidth(out)));
      }),
  };
}

/** The width help is wrapped to: the terminal's (or `$COLUMNS`) up to 100; 80 into a pipe. */
const helpWidth = (out: Output) => (Number.isFinite(out.width) ? Math.min(100, out.width) : 80);

/** A command's help and its examples, each on a line of its own as the person would paste it
 * (yargs would wrap a long one mid-command), its description under it. */
function withExamples(output: string, args: readonly string[], width: number): string {
  const examples = commandOf(args)?.d.examples ?? [];
  if (examples.length === 0 || !args.some((w) => w === '--help' || w === '-h')) return output;
  const lines = examples.flatMap(([example, description]) => [
    // Indented when it fits; a longer line to paste starts at the margin rather than wraps.
    ((line) => (line.length + 2 <= width ? `  ${line}` : line))(example.replace(/^\$0\b/, 'nudge')),
    ...(description ? wrapped(description, width, 6, '      ') : []),
  ]);
  return `${output.replace(/\n+$/, '')}\n\nExamples:\n${lines.join('\n')}`;
}
