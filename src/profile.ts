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

/**
 * The profile for a pane's foreground command. Shells get C-e C-u (end of line, then kill to
 * its start): readline reads an Escape followed quickly by C-u as the unbound M-C-u, so the
 * Escape that TUIs want would leave a shell's line uncleared. Other programs get Escape
 * (close a menu, leave a mode), then C-u, as separate tmux calls.
 */
export function profileFor(currentCommand: string): Profile {
  const base = currentCommand.replace(/^-/, '').split('/').pop() ?? '';
  if (SHELLS.has(base)) return {name: 'shell', clearKeys: [['C-e', 'C-u']]};
  return {name: 'generic', clearKeys: [['Escape'], ['C-u']]};
}
