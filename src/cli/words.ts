import {NudgeError} from '../base/errors.js';
import {ALL_DECLARED} from './declared.js';

/**
 * The words of a command line as a person reads them, before and after yargs does: which
 * command they name, `help CMD`, a flag given no value, a word a command takes none of, and
 * yargs' complaints as one sentence with the fix (git's and gh's way).
 */

type Declared = (typeof ALL_DECLARED)[number];

/** The command `argv` names (a command, or a group's member), if any: its declaration and
 * its words (`queue edit`). */
export function commandOf(argv: readonly string[]) {
  const d =
    ALL_DECLARED.find((c) => c.group !== undefined && c.group === argv[0] && c.name === argv[1]) ??
    ALL_DECLARED.find((c) => c.group === undefined && c.name === argv[0]) ??
    // A group's default member (`nudge queue` is `nudge queue show`).
    ALL_DECLARED.find((c) => c.group === argv[0] && c.groupDefault);
  return d && {d, words: d.group === undefined ? d.name : `${d.group} ${d.name}`};
}

/**
 * A flag that takes a value, given none (`--timeout -- hi`, `--pane --until exit`, a last
 * `--pane`: followed by `--`, by another of the command's flags, or by nothing): one
 * sentence, exit 2, instead of yargs' empty string that a command would read as "not given"
 * and fill with its default. Nothing after `--` is looked at.
 */
export function checkFlagValues(argv: readonly string[]): void {
  const command = commandOf(argv);
  if (!command) return;
  const {flags, takesValue} = flagsOf(command.d);
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const word = argv[i] ?? '';
    const next = argv[i + 1];
    if (!takesValue.has(word)) continue;
    if (next === undefined || next === '--' || flags.has(next.split('=')[0] ?? ''))
      throw new NudgeError(
        'bad-usage',
        `${word} needs a value (${word} VALUE); see nudge ${command.words} --help.`,
      );
  }
}

/** A command's flags (`--help` among them), and those of them that take a value. */
function flagsOf(d: Declared): {flags: Set<string>; takesValue: Set<string>} {
  const takesValue = new Set<string>();
  // The command's own flags: a value that is one of them is the next flag, not a value
  // (`--ignore -x` keeps its pattern).
  const flags = new Set<string>(['--help', '-h']);
  for (const [name, spec] of Object.entries(d.options)) {
    flags.add(`--${name}`).add(`--no-${name}`);
    if (spec.short) flags.add(`-${spec.short}`);
    if (spec.type === 'boolean' || spec.valueOptional) continue;
    takesValue.add(`--${name}`);
    if (spec.short) takesValue.add(`-${spec.short}`);
  }
  return {flags, takesValue};
}

/** The words of `argv` that are no flag nor a flag's value, before `--`. */
function bareWords(argv: readonly string[], d: Declared): string[] {
  const {takesValue} = flagsOf(d);
  const words: string[] = [];
  for (let i = 0; i < argv.length && argv[i] !== '--'; i++) {
    const word = argv[i] ?? '';
    if (takesValue.has(word)) i++;
    else if (!word.startsWith('-')) words.push(word);
  }
  return words;
}

/**
 * `nudge help CMD…` as gh and git read it: that command's help (`nudge help` alone: the list).
 */
export function helpWords(argv: readonly string[]): string[] {
  return argv[0] === 'help' ? [...argv.slice(1), '--help'] : [...argv];
}

/**
 * A word of a group that names none of its commands, where its default command cannot take
 * it either (`nudge queue frob x`: `queue show` takes one pane): one sentence naming the word
 * and the group's commands, rather than yargs' complaint about the word after it.
 */
export function checkWords(argv: readonly string[]): void {
  const command = commandOf(argv);
  if (!command?.d.groupDefault || command.d.name === argv[1]) return;
  const group = argv[0] ?? '';
  const given = bareWords(argv.slice(1), command.d);
  const takes = command.d.positionals ?? [];
  if (given.length <= takes.length || takes.some((p) => p.variadic)) return;
  const members = ALL_DECLARED.filter((c) => c.group === group).map((c) => c.name);
  throw new NudgeError(
    'bad-usage',
    `nudge ${group} has no command ${given[0]}; its commands are ${members.join(', ')} (see nudge ${group} --help).`,
  );
}

/** yargs' wording of a usage error as one sentence with the fix (git's and gh's way). */
export function usageSentence(message: string, argv: readonly string[]): string {
  const named = commandOf(argv);
  const command = named?.words;
  const help = command ? `nudge ${command} --help` : 'nudge --help';
  const line = message.replace(/\s*\n\s*/g, ' ').trim();
  const flag = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);
  // `nudge --bogus`: yargs asks for a command before it looks at the flag.
  if (line === 'Give a command' && argv[0]?.startsWith('-'))
    return `Unknown option ${argv[0]}; give a command first (see nudge --help for the list).`;
  let m = /^Unknown arguments?: (.+)$/.exec(line);
  if (m) {
    const words = (m[1] ?? '').split(', ');
    // The first word is not a command: `nudge frobnicate`.
    if (!command && words[0] === argv[0])
      return `nudge ${argv[0]} is not a command; see nudge --help for the list.`;
    // A word where the command takes none (`nudge doctor extra`), not an option.
    const end = argv.indexOf('--');
    const stray = words.filter((w) => argv.slice(0, end < 0 ? argv.length : end).includes(w));
    if (command && stray.length > 0)
      return `nudge ${command} takes no ${stray.length === 1 ? 'word' : 'words'} like ${stray.map((w) => JSON.stringify(w)).join(', ')}; see ${help}.`;
    const what = words.map(flag).join(', ');
    return command
      ? `nudge ${command} has no option ${what}; see ${help}.`
      : `Unknown option ${what}; see nudge --help.`;
  }
  // `completion` is yargs' own: a shell it does not know (main.ts takes bash, zsh and fish).
  if (argv[0] === 'completion' && argv[1] !== undefined)
    return `nudge completion takes bash, zsh or fish (got ${JSON.stringify(argv[1])}); see nudge completion --help.`;
  m = /^Did you mean (.+)\?$/.exec(line);
  if (m) return `nudge ${argv[0]} is not a command; did you mean nudge ${m[1]}? See nudge --help.`;
  m = /^Missing required arguments?: (.+)$/.exec(line);
  if (m) return `nudge ${command ?? argv[0] ?? ''} needs ${m[1]}; see ${help}.`;
  m = /^Not enough non-option arguments: got (\d+), need at least (\d+)$/.exec(line);
  if (m) {
    const missing = (named?.d.positionals ?? []).filter((p) => p.required).slice(Number(m[1]));
    const what = missing.map((p) => `<${p.name}> (${p.describe})`).join(' and ');
    return what
      ? `nudge ${command} needs ${what}; see ${help}.`
      : `nudge ${command ?? argv[0] ?? ''} needs more (got ${m[1]} of at least ${m[2]} arguments); see ${help}.`;
  }
  m = /^Too many non-option arguments: got (\d+), maximum of (\d+)$/.exec(line);
  if (m)
    return `nudge ${command ?? argv[0] ?? ''} takes at most ${m[2]} arguments (got ${m[1]}); see ${help}.`;
  m = /^Invalid values: Argument: ([\w-]+), Given: (.+), Choices: (.+)$/.exec(line);
  if (m) {
    // A positional's choices (`nudge install vim`) are no flag's.
    const word = named?.d.positionals?.some((p) => p.name === m?.[1]);
    return `${word ? `<${m[1]}>` : `--${m[1]}`} takes one of ${m[3]} (got ${m[2]}); see ${help}.`;
  }
  return /[.?!]$/.test(line) ? `${line} See ${help}.` : `${line}; see ${help}.`;
}
