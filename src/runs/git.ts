import {stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {FileChange} from '../jobs/run-report.js';
import type {CommandRun} from '../process/run-command.js';

/** What the run asks of git in its working folder. Every call bounded; none throws for a git
 * that says no (an error is a value where the caller must know). */
export interface RunGit {
  /** A signature of the work tree's changed files (path, status, size, mtime), to tell that
   * files changed between two looks; '' when nothing differs from HEAD. */
  snapshot(root: string): Promise<string>;
  /** Changed files since `since` (paths relative to `root`): what `git status` lists, with the
   * mtime of each. */
  changedFiles(root: string): Promise<Map<string, number>>;
  /** Commit everything left uncommitted (`git add -A`); the new commit, or undefined when
   * there was nothing to commit. */
  commitAll(root: string, message: string): Promise<string | undefined>;
  /** Lines added and deleted per file between `base` and the work tree (or `to`). */
  numstat(
    root: string,
    base: string,
    to?: string,
    files?: readonly string[],
  ): Promise<FileChange[]>;
  /** `<short sha> <subject>` of each commit after `base`, oldest first. */
  commitsSince(root: string, base: string): Promise<string[]>;
  /** Untracked files among `files`, with their line counts. */
  untrackedLines(root: string, files: readonly string[]): Promise<FileChange[]>;
  remotes(root: string): Promise<string[]>;
  /** Push `branch` to `remote`, setting its upstream. */
  push(root: string, remote: string, branch: string): Promise<CommandRun>;
}

const GIT_TIMEOUT_MS = 60_000;
const MAX_BYTES = 8 * 1024 * 1024;

/** Run git in `cwd`: no pager, no prompts, C locale. */
export async function git(
  cwd: string,
  args: readonly string[],
  signal?: AbortSignal,
): Promise<CommandRun> {
  // Loaded here, not at the top: `nudge run`'s front end is in the CLI's command chunk, and
  // execa must not slow every other command's start (docs/benchmarks.md).
  const {runCommand} = await import('../process/run-command.js');
  return runCommand('git', ['-C', cwd, '--no-pager', ...args], {
    timeoutMs: GIT_TIMEOUT_MS,
    maxBytes: MAX_BYTES,
    signal: signal ?? new AbortController().signal,
    merged: false,
    addEnv: {GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0'},
  });
}

/** git's stdout, or an Error saying what git said. */
async function out(cwd: string, args: readonly string[]): Promise<string> {
  const r = await git(cwd, args);
  if (r.exitCode !== 0) {
    throw new Error(
      `git ${args[0]} failed in ${cwd}: ${(r.stderr || r.startError || r.output).trim().split('\n')[0] ?? ''}`,
    );
  }
  return r.output;
}

/** The top folder of the git work tree `cwd` is in, or undefined outside one. */
export async function workTreeRoot(cwd: string): Promise<string | undefined> {
  const r = await git(cwd, ['rev-parse', '--show-toplevel']);
  return r.exitCode === 0 ? r.output.trim() : undefined;
}

/** The commit HEAD names, or undefined in a repository without commits. */
export async function headCommit(root: string): Promise<string | undefined> {
  const r = await git(root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
  return r.exitCode === 0 ? r.output.trim() : undefined;
}

/** Whether `branch` is a valid new branch name (git check-ref-format). */
export async function validBranchName(root: string, branch: string): Promise<boolean> {
  if (branch.startsWith('-')) return false;
  const r = await git(root, ['check-ref-format', '--branch', branch]);
  return r.exitCode === 0;
}

/** Whether a branch of that name exists already. */
export async function branchExists(root: string, branch: string): Promise<boolean> {
  const r = await git(root, ['show-ref', '--verify', '-q', `refs/heads/${branch}`]);
  return r.exitCode === 0;
}

/** `git worktree add -b BRANCH PATH BASE`: the one-sentence error git gave, if any. */
export async function addWorktree(
  root: string,
  path: string,
  branch: string,
  base: string,
): Promise<string | undefined> {
  const r = await git(root, ['worktree', 'add', '-q', '-b', branch, path, base]);
  return r.exitCode === 0
    ? undefined
    : (r.stderr || r.startError || r.output).trim().split('\n')[0] || 'git worktree add failed';
}

/** `git status` entries (NUL-separated porcelain v1) as path → status. */
async function status(root: string): Promise<Map<string, string>> {
  const text = await out(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  const entries = new Map<string, string>();
  const parts = text.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    if (part.length < 4) continue;
    const code = part.slice(0, 2);
    entries.set(part.slice(3), code);
    // A rename or copy is followed by its source path.
    if (code[0] === 'R' || code[0] === 'C') i++;
  }
  return entries;
}

async function mtimeOf(root: string, file: string): Promise<{mtime: number; size: number}> {
  try {
    const s = await stat(join(root, file));
    return {mtime: s.mtimeMs, size: s.size};
  } catch {
    return {mtime: 0, size: -1};
  }
}

/** The real git, through runCommand (execa). */
export const realGit: RunGit = {
  async snapshot(root) {
    const entries = await status(root);
    const parts: string[] = [];
    for (const [file, code] of [...entries].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const {mtime, size} = await mtimeOf(root, file);
      parts.push(`${code} ${file} ${size} ${mtime}`);
    }
    return parts.join('\n');
  },

  async changedFiles(root) {
    const files = new Map<string, number>();
    for (const file of (await status(root)).keys())
      files.set(file, (await mtimeOf(root, file)).mtime);
    return files;
  },

  async commitAll(root, message) {
    await out(root, ['add', '-A']);
    const staged = await git(root, ['diff', '--cached', '--quiet']);
    if (staged.exitCode === 0) return undefined;
    // A machine without a git identity (CI, a fresh container) still gets its commit.
    const email = await git(root, ['config', 'user.email']);
    const name = await git(root, ['config', 'user.name']);
    const identity = [
      ...(email.exitCode === 0 && email.output.trim() ? [] : ['-c', 'user.email=nudge@localhost']),
      ...(name.exitCode === 0 && name.output.trim() ? [] : ['-c', 'user.name=nudge']),
    ];
    await out(root, [...identity, 'commit', '-q', '--no-verify', '-m', message]);
    return (await out(root, ['rev-parse', 'HEAD'])).trim();
  },

  async numstat(root, base, to, files) {
    const text = await out(root, [
      'diff',
      '--numstat',
      '-z',
      '--no-renames',
      base,
      ...(to ? [to] : []),
      '--',
      ...(files ?? []),
    ]);
    const changes: FileChange[] = [];
    for (const record of text.split('\0')) {
      const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(record.replace(/^\n/, ''));
      if (!m) continue;
      changes.push({
        file: m[3] ?? '',
        added: m[1] === '-' ? null : Number(m[1]),
        deleted: m[2] === '-' ? null : Number(m[2]),
      });
    }
    return changes;
  },

  async commitsSince(root, base) {
    const text = await out(root, ['log', '--reverse', '--format=%h %s', `${base}..HEAD`]);
    return text.split('\n').filter(Boolean);
  },

  async untrackedLines(root, files) {
    const entries = await status(root);
    const changes: FileChange[] = [];
    for (const file of files) {
      if (entries.get(file) !== '??') continue;
      // git's own count: the file against an empty one.
      const r = await git(root, ['diff', '--no-index', '--numstat', '--', '/dev/null', file]);
      const m = /^(-|\d+)\t(-|\d+)\t/.exec(r.output);
      changes.push({
        file,
        added: m && m[1] !== '-' ? Number(m[1]) : null,
        deleted: m && m[2] !== '-' ? 0 : null,
      });
    }
    return changes;
  },

  async remotes(root) {
    return (await out(root, ['remote'])).split('\n').filter(Boolean);
  },

  push(root, remote, branch) {
    return git(root, ['push', '-q', '-u', remote, `${branch}:${branch}`]);
  },
};

/** Undo addWorktree (the run could not start): remove the worktree and its branch. */
export async function removeWorktree(root: string, path: string, branch: string): Promise<void> {
  await git(root, ['worktree', 'remove', '--force', path]);
  await git(root, ['branch', '-D', branch]);
}
