import {execFileSync} from 'node:child_process';

/** Run git in `cwd` as a test's author (no global git config needed). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
}

/** Make `dir` a repository whose one commit holds what is in it. */
export function commitAll(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'start');
}
