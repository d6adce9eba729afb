/** A word for a POSIX shell command line: as it is when it needs no quoting, else in single
 * quotes. For command lines nudge writes for a shell to read (a typed command, an agent's
 * hook or command file, a crontab line); nudge itself never runs a shell on user text. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
