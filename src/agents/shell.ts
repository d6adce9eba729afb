import {SHELLS} from '../base/shell.js';
import {baseName, isAgent, type Profile} from './profile.js';

/** Whether `command` (a pane's foreground command) is an interactive shell. */
export function isShellCommand(command: string): boolean {
  return Object.hasOwn(SHELLS, baseName(command));
}

/** Shells whose syntax `--until exit`'s wrapper is valid in. */
export function isPosixShell(command: string): boolean {
  return SHELLS[baseName(command)]?.posix === true;
}

/**
 * Whether a pane is a shell's pane, even while another command runs in its foreground: it
 * runs a shell now, or it was started with one (an empty start command is tmux's default
 * shell). A quiet command in such a pane is still running, not done.
 */
export function isShellPane(info: {currentCommand: string; startCommand: string}): boolean {
  if (isShellCommand(info.currentCommand)) return true;
  const first =
    info.startCommand
      .trim()
      .replace(/^["']/, '')
      .split(/[\s"']/)[0] ?? '';
  return info.startCommand.trim() === '' || isShellCommand(first);
}

/**
 * The program a shell's pane runs in its foreground now, when nudge knows nothing about it
 * (its profile is `raw`: `sleep`, `make`, `cat`): a line typed now would sit in its input unread
 * until it ends, then run in the shell. Undefined when the shell holds the terminal, the pane
 * is not a shell's, or `profile` is an agent's.
 */
export function programAhead(
  info: {currentCommand: string; startCommand: string},
  profile: Profile,
): string | undefined {
  // An agent, or a program a profile file describes, is the person's target when recognised.
  if (isAgent(profile) || profile.name !== 'raw') return undefined;
  if (isShellCommand(info.currentCommand) || !isShellPane(info)) return undefined;
  return info.currentCommand;
}
