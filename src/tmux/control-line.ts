/**
 * From a runner's argv to one tmux control-mode command line.
 *
 * The contract: `run(args)` over control mode means exactly what `tmux <server flags>
 * ...args` means. So the argv is first split into commands the way tmux splits an argv
 * (cmd_parse_from_arguments), and then each argument is re-encoded for tmux's command-line
 * parser (cmd-parse.y), which is what reads control-mode input. Callers keep writing argv for
 * the spawn runner (`';'` elements as separators, a trailing `;` escaped as `\;` by
 * literalArgument) and get the same commands over either transport.
 */
import {err, ok, type Result} from '../base/result.js';

/**
 * Split `args` into commands exactly as tmux 3.3a does for an argv: an argument that ends in
 * `;` ends the command and loses the `;`, unless the character before it is `\`, in which
 * case that `\;` is one literal `;`. Only the last character counts (`a\\;` is `a\;`).
 * Commands without arguments (`;` alone, `; ;`) are dropped, as tmux drops them.
 */
export function splitArgvCommands(args: readonly string[]): string[][] {
  const commands: string[][] = [];
  let current: string[] = [];
  for (const arg of args) {
    let value = arg;
    let ends = false;
    if (value.endsWith(';')) {
      value = value.slice(0, -1);
      if (value.endsWith('\\')) value = `${value.slice(0, -1)};`;
      else ends = true;
    }
    if (!ends || value !== '') current.push(value);
    if (ends) {
      if (current.length > 0) commands.push(current);
      current = [];
    }
  }
  if (current.length > 0) commands.push(current);
  return commands;
}

/** The command names of an argv command line, as tmux splits it (splitArgvCommands). */
export function commandNames(args: readonly string[]): string[] {
  return splitArgvCommands(args).map((c) => c[0] ?? '');
}

/** C0 controls and DEL: never written raw into a control-mode line. LF ends the line (and
 * an empty line makes the client exit); the others are kept out so the line stays plain
 * text whatever the parser does with them. Tab is included for uniformity. */
const UNSAFE_CHAR = /[\x00-\x1f\x7f]/;

/**
 * Quote one argument for tmux's command parser so it arrives as exactly these bytes.
 *
 * Printable text (including any UTF-8) goes inside single quotes, which the parser takes
 * literally: no `$`, `~`, `#`, `;`, `{}` or `\` processing; a `'` is written `'\''`. Control
 * characters go as three-digit octal escapes inside double quotes (`"\012"`), which is the
 * only escape form that covers every byte 0x01-0x7f (cmd-parse.y, yylex_token_escape).
 * Adjacent quoted pieces join into one token: `a<LF>b` becomes `'a'"\012"'b'`. NUL cannot
 * be sent (tmux arguments are C strings): toControlLine refuses it.
 */
export function quoteControlArgument(arg: string): string {
  if (!UNSAFE_CHAR.test(arg)) return singleQuote(arg);
  let out = '';
  let safe = '';
  let escapes = '';
  for (const ch of arg) {
    if (UNSAFE_CHAR.test(ch)) {
      if (safe) out += singleQuote(safe);
      safe = '';
      escapes += `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`;
    } else {
      if (escapes) out += `"${escapes}"`;
      escapes = '';
      safe += ch;
    }
  }
  if (safe) out += singleQuote(safe);
  if (escapes) out += `"${escapes}"`;
  return out;
}

function singleQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/**
 * Commands the control runner refuses, by full name and alias (abbreviations are not
 * resolved: pass full names). Replies are matched to calls by order, so a command must
 * produce exactly one %begin/%end block and must not stall the client's queue:
 * - these queue further commands, whose blocks would be taken for later calls' replies:
 *   if-shell, run-shell, source-file, confirm-before, command-prompt, display-menu,
 *   display-popup, choose-*;
 * - wait-for blocks every later command of this client until someone signals it;
 * - these act on the control client itself: attach-session and switch-client would move it
 *   to another session (and no %output would arrive for the pane), detach-client and
 *   suspend-client would end it, and `refresh-client -C` would resize the user's windows
 *   (test/integration/control-activity.test.ts).
 * The spawn runner runs all of them.
 */
const REFUSED_COMMANDS = new Set([
  'if-shell',
  'if',
  'run-shell',
  'run',
  'source-file',
  'source',
  'confirm-before',
  'confirm',
  'command-prompt',
  'display-menu',
  'menu',
  'display-popup',
  'popup',
  'choose-tree',
  'choose-client',
  'choose-buffer',
  'wait-for',
  'wait',
  'attach-session',
  'attach',
  'switch-client',
  'switchc',
  'detach-client',
  'detach',
  'suspend-client',
  'suspendc',
  'refresh-client',
  'refresh',
]);

/** A command name as tmux spells them. Checked because the parser reads a first token
 * containing `=` as an environment assignment (no command, so no reply at all). */
const COMMAND_NAME = /^[a-z][a-z0-9-]*$/;

/** One control-mode line and how many commands it holds (each gets one reply block, until
 * the first that fails: tmux drops the rest of a failed line). */
export interface ControlLine {
  line: string;
  commands: number;
}

/**
 * Encode `args` (argv as the spawn runner takes it) as one control-mode line, or say why it
 * cannot be. The line never contains LF, CR or other control characters and is never empty.
 */
export function toControlLine(args: readonly string[]): Result<ControlLine, string> {
  const commands = splitArgvCommands(args);
  if (commands.length === 0) return err('no tmux command was given');
  if (args.some((arg) => arg.includes('\0'))) {
    return err('an argument contains a NUL character, which tmux cannot receive');
  }
  const parts: string[] = [];
  for (const [name, ...rest] of commands) {
    if (name === undefined || !COMMAND_NAME.test(name)) {
      return err(`${JSON.stringify(name)} is not a tmux command name`);
    }
    if (REFUSED_COMMANDS.has(name) && !isModeGuardIf(name, rest)) {
      return err(
        `${name} is not run over the control-mode transport (its replies cannot be matched, or it would change the control client); use the spawn runner`,
      );
    }
    parts.push([name, ...rest.map(quoteControlArgument)].join(' '));
  }
  return ok({line: parts.join(' ; '), commands: commands.length});
}

/** The pane option the mode guard uses (src/tmux/mode-guard.ts). */
export const MODE_GUARD_OPTION = '@nudge-mode-guard';

/**
 * The mode guard's `if-shell -F -t %N '#{pane_in_mode}' 'set-option -p -t %N <guard> 1'`,
 * the one if-shell the control runner takes: -F runs no shell and inserts its one command at
 * once, and the reply blocks still match the line's commands — that command's own block comes
 * only when the pane is in a mode, and then the guard's next command fails, which ends the
 * line (measured on 3.3a, 3.5a and 3.8: test/integration/copy-mode.test.ts over both
 * transports).
 */
function isModeGuardIf(name: string, rest: readonly string[]): boolean {
  const [f, t, pane, format, command, ...more] = rest;
  return (
    (name === 'if-shell' || name === 'if') &&
    more.length === 0 &&
    f === '-F' &&
    t === '-t' &&
    /^%\d+$/.test(pane ?? '') &&
    format === '#{pane_in_mode}' &&
    command === `set-option -p -t ${pane} ${MODE_GUARD_OPTION} 1`
  );
}

/** Whether the control runner can run `args` (see toControlLine for the reasons it cannot). */
export function canRunOverControl(args: readonly string[]): boolean {
  return toControlLine(args).ok;
}
