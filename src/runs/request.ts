import type {ProfileName} from '../agents/profile.js';
import {SESSION_ID} from '../agents/resume.js';
import {JOB_ID_PATTERN} from '../base/paths.js';
import {err, ok, type Result} from '../base/result.js';
import {isMs, isObject, isText} from '../base/shape.js';
import type {StallPolicy} from '../detect/stall.js';
import {isStallPolicy} from '../detect/stall-options.js';
import type {StoredRequest} from '../jobs/store.js';

/** Version of a run's request.json. */
export const RUN_REQUEST_VERSION = 1;

/** A git worktree made for the run. */
export interface RunWorktree {
  /** The worktree's folder (where the run works). */
  path: string;
  branch: string;
  /** The repository's top folder it was made from. */
  repo: string;
}

/** Everything the run worker needs; made and checked by the front end, kept in the job's
 * request.json (nothing of it travels in argv or the environment). Its common fields are a
 * job's (the store reads them): `pane` is the pane opened for the run, `paneTarget` how it was
 * placed (`new window in session $0`), `text` the command line typed into the pane's shell or
 * the agent's prompt. */
export interface RunRequest extends Omit<StoredRequest, 'kind'> {
  version: typeof RUN_REQUEST_VERSION;
  kind: 'run';
  options: RunOptions;
}

export interface RunOptions {
  /** The agent started in the pane (the text is its prompt); null: the text is a command. */
  agent: ProfileName | null;
  /** Where it runs (the worktree's folder with --worktree). */
  cwd: string;
  worktree: RunWorktree | null;
  /** The git work tree the run is in, if any, and its HEAD when the run began: changes and
   * commits are counted from there. */
  git: {root: string; base: string} | null;
  idleTimeoutMs: number;
  timeoutMs: number;
  /** The pane told of permission stops and the end; null: nobody (run from outside tmux or
   * with --no-notice). */
  notifyPane: string | null;
  permissions: 'ask' | 'deny';
  /** Close the pane after the report (default: leave it for a person to read). */
  close: boolean;
  pr: boolean;
  /** Where a person is told of the run's end and its permission stops (`--notify`). */
  notifySinks: string[];
  /** How often the pane and the files are looked at. */
  intervalMs: number;
  /** Not a new task: the agent started again into an earlier run's conversation (`nudge
   * recover`); the text is not typed. Absent or null: a run of its own. */
  resume?: {session: string; of: string} | null | undefined;
  /** The stall watchdog (`--stall`); absent or null: off. */
  stall?: StallPolicy | null | undefined;
}

/** Check a run request read back from request.json; one sentence on what is wrong. */
export function validateRunRequest(value: unknown): Result<RunRequest, string> {
  if (!isObject(value) || value.kind !== 'run') return err('the request is not a run request');
  if (value.version !== RUN_REQUEST_VERSION)
    return err(`the run request has version ${JSON.stringify(value.version)}`);
  const {jobId, createdAt, server, pane, paneTarget, text, options: o} = value;
  if (typeof jobId !== 'string' || !JOB_ID_PATTERN.test(jobId)) return err('bad job id');
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
    return err('no valid creation time');
  if (!isObject(server) || !isText(server.socketPath) || !Number.isSafeInteger(server.pid))
    return err('no valid tmux server');
  if (typeof pane !== 'string' || !/^%\d+$/.test(pane)) return err('bad pane id');
  if (!isText(paneTarget) || !isText(text) || text === '') return err('no text');
  if (!isObject(o)) return err('no options');
  // Which agent it is, the worker asks the registry (the run fails if none is named so).
  if (o.agent !== null && !isText(o.agent)) return err('bad agent');
  if (!isText(o.cwd) || o.cwd === '') return err('no working folder');
  for (const key of ['idleTimeoutMs', 'timeoutMs', 'intervalMs'] as const)
    if (!isMs(o[key])) return err(`option ${key} is not a duration`);
  if (o.notifyPane !== null && !(typeof o.notifyPane === 'string' && /^%\d+$/.test(o.notifyPane)))
    return err('bad notify pane');
  if (o.permissions !== 'ask' && o.permissions !== 'deny') return err('bad permissions');
  if (typeof o.close !== 'boolean' || typeof o.pr !== 'boolean') return err('bad close/pr');
  if (!Array.isArray(o.notifySinks) || !o.notifySinks.every((s) => typeof s === 'string'))
    return err('bad notify sinks');
  const wt = o.worktree;
  if (wt !== null && !(isObject(wt) && isText(wt.path) && isText(wt.branch) && isText(wt.repo)))
    return err('bad worktree');
  const git = o.git;
  if (git !== null && !(isObject(git) && isText(git.root) && isText(git.base)))
    return err('bad git');
  if (o.stall != null && !isStallPolicy(o.stall)) return err('bad stall policy');
  const r = o.resume;
  if (
    r != null &&
    !(isObject(r) && typeof r.session === 'string' && SESSION_ID.test(r.session) && isText(r.of))
  )
    return err('bad resume');
  if (r != null && o.agent === null) return err('a resume without an agent');
  return ok(value as unknown as RunRequest);
}
