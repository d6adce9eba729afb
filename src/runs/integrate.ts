import {describeError} from '../base/errors.js';
import type {FileChange, RunReport} from '../jobs/run-report.js';
import {previewText} from '../jobs/stored-request.js';
import type {CommandRun} from '../process/run-command.js';
import type {RunGit} from './git.js';
import type {RunRequest} from './request.js';

/** What integrating a run needs. */
export interface IntegrateDeps {
  git: RunGit;
  gh: (args: readonly string[], cwd: string) => Promise<CommandRun>;
  /** Told of each step (`committed`, `pr`). */
  note: (event: 'committed' | 'pr', data: Record<string, unknown>) => Promise<void>;
}

/** What integrating found. */
export interface Integrated {
  /** null outside a git work tree. */
  changes: FileChange[] | null;
  commits: string[];
  pr?: RunReport['pr'];
  /** git failed: why (the report says so; the run's ending stands). */
  error?: string;
}

/**
 * integrating: in a worktree commit what the run left uncommitted (the message names the job)
 * and count every change and commit since the branch began; in another git work tree count
 * the files the run changed (not those changed before it: `filesAtStart` and their mtimes)
 * and its commits; `--pr` pushes the branch and opens a pull request with gh.
 */
export async function integrate(
  deps: IntegrateDeps,
  request: Pick<RunRequest, 'jobId' | 'text' | 'options'>,
  filesAtStart: ReadonlyMap<string, number> | undefined,
): Promise<Integrated> {
  const {git, worktree, pr} = request.options;
  if (!git) return {changes: null, commits: []};
  const {root, base} = git;
  const found: Integrated = {changes: null, commits: []};
  try {
    if (worktree) {
      const preview = previewText(request.text).slice(0, 60);
      const commit = await deps.git.commitAll(root, `nudge run ${request.jobId}: ${preview}`);
      if (commit) await deps.note('committed', {commit});
      found.changes = await deps.git.numstat(root, base, 'HEAD');
    } else {
      const now = await deps.git.changedFiles(root);
      const files = [...now]
        .filter(([file, mtime]) => filesAtStart?.get(file) !== mtime)
        .map(([file]) => file);
      found.changes = files.length
        ? [
            ...(await deps.git.numstat(root, base, undefined, files)),
            ...(await deps.git.untrackedLines(root, files)),
          ].sort((a, b) => (a.file < b.file ? -1 : 1))
        : [];
    }
    found.commits = await deps.git.commitsSince(root, base);
  } catch (error) {
    found.error = describeError(error);
  }
  if (pr && worktree) {
    found.pr = await pullRequest(deps, worktree.path, worktree.branch);
    await deps.note('pr', found.pr);
  }
  return found;
}

/** `--pr`: push the branch and open a pull request with gh, or say why not. */
async function pullRequest(
  deps: IntegrateDeps,
  root: string,
  branch: string,
): Promise<{url?: string; skipped?: string}> {
  const version = await deps.gh(['--version'], root);
  if (version.startError !== undefined)
    return {skipped: 'gh is not installed (see https://cli.github.com).'};
  const remotes: string[] = await deps.git.remotes(root).catch(() => []);
  const remote = remotes.includes('origin') ? 'origin' : remotes[0];
  if (remote === undefined) return {skipped: `the branch ${branch} has no remote to push to.`};
  const pushed = await deps.git.push(root, remote, branch);
  if (pushed.exitCode !== 0) {
    return {skipped: `git push to ${remote} failed: ${firstLine(pushed.stderr || pushed.output)}`};
  }
  const created = await deps.gh(['pr', 'create', '--fill', '--head', branch], root);
  if (created.exitCode !== 0) {
    return {skipped: `gh pr create failed: ${firstLine(created.stderr || created.output)}`};
  }
  const url = /https?:\/\/\S+/.exec(created.output)?.[0];
  return url ? {url} : {skipped: `gh pr create printed no address: ${firstLine(created.output)}`};
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}
