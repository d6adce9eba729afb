/** A word for a POSIX shell command line: as it is when it needs no quoting, else in single
 * quotes. For command lines nudge writes for a shell to read (a typed command, an agent's
 * hook or command file, a crontab line); nudge itself never runs a shell on user text. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Interactive shells by name, and whether their syntax is POSIX (`sh -c` scripts, `"$@"`,
 * `{ …; }` groups read as a POSIX shell reads them). */
export const SHELLS: Readonly<Record<string, {posix: boolean}>> = {
  bash: {posix: true},
  zsh: {posix: true},
  sh: {posix: true},
  dash: {posix: true},
  ksh: {posix: true},
  mksh: {posix: true},
  ash: {posix: true},
  fish: {posix: false},
  tcsh: {posix: false},
  csh: {posix: false},
  nu: {posix: false},
};

/** A program's name without its folder or a login shell's leading `-`. */
function nameOf(command: string): string {
  return (command.split('/').pop() ?? '').replace(/^-/, '');
}

/** Whether `command` names a shell known not to read POSIX (fish, nu, tcsh, csh). */
export function isNonPosixShellName(command: string): boolean {
  return SHELLS[nameOf(command)]?.posix === false;
}
