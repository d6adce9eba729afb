/**
 * How to treat the program in a pane. Kept as data; the agent profiles (Claude Code, Gemini
 * CLI, Codex) grow here.
 */
export interface Profile {
  name: 'shell' | 'generic';
  /** Keys that empty the input line before typing. */
  clearKeys: readonly string[][];
}

const SHELLS = new Set([
  'bash',
  'zsh',
  'sh',
  'dash',
  'fish',
  'ksh',
  'mksh',
  'tcsh',
  'csh',
  'ash',
  'nu',
]);

/** Whether `command` (a pane's foreground command) is an interactive shell. */
export function isShellCommand(command: string): boolean {
  return SHELLS.has(command.replace(/^-/, '').split('/').pop() ?? '');
}

/**
 * The profile for a pane's foreground command. Shells get C-e C-u (end of line, then kill to
 * its start): readline reads an Escape followed quickly by C-u as the unbound M-C-u, so the
 * Escape that TUIs want would leave a shell's line uncleared. Other programs get Escape
 * (close a menu, leave a mode), then C-u, as separate tmux calls.
 */
export function profileFor(currentCommand: string): Profile {
  if (isShellCommand(currentCommand)) return {name: 'shell', clearKeys: [['C-e', 'C-u']]};
  return {name: 'generic', clearKeys: [['Escape'], ['C-u']]};
}

/** Shells whose syntax `--until exit`'s `{ …\n} ; printf … "$?"` wrapper is valid in. */
export function isPosixShell(command: string): boolean {
  const base = command.replace(/^-/, '').split('/').pop() ?? '';
  return ['bash', 'zsh', 'sh', 'dash', 'ksh', 'mksh', 'ash'].includes(base);
}
