import {exitSentinel} from '../detect/output-watchers.js';
import type {JobOptions} from '../job-options/schema.js';
import type {DeliverOptions} from '../pane/deliver.js';

/** Version of the request format the front end stores for the worker (request.json). */
export const REQUEST_VERSION = 1;

/** Everything a worker needs to run one job; resolved and validated by the front end. */
export interface JobRequest {
  version: typeof REQUEST_VERSION;
  jobId: string;
  createdAt: string;
  /** The tmux server, identified by its socket and its pid (pane ids restart at %0 when a
   * server restarts, so the pid guards against typing into a stranger's pane). */
  server: {socketPath: string; pid: number};
  /** The pane id (`%N`) typed into and watched. */
  pane: string;
  /** What the user passed as the target, for messages. */
  paneTarget: string;
  text: string;
  options: JobOptions;
}

export {JOB_ID_PATTERN} from '../base/paths.js';

/** Make a new job id for `nowMs`; ids sort in creation order. */
export function newJobId(nowMs: number, random: () => number = Math.random): string {
  const time = nowMs.toString(36).padStart(9, '0');
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += Math.floor(random() * 36).toString(36);
  return `${time}-${suffix}`;
}

/** The `--until exit` sentinel of a job: unique per job, and its own echo cannot match. */
export function sentinelOf(request: Pick<JobRequest, 'jobId'>): {command: string; pattern: RegExp} {
  return exitSentinel(request.jobId.replace(/-/g, ''));
}

/** What a job types: its text, or under `--until exit` the text in a { } group followed by
 * the sentinel that prints its status. The group starts with a space, so a shell that leaves
 * such lines out of its history (bash with HISTCONTROL ignorespace or ignoreboth, zsh with
 * HIST_IGNORE_SPACE, fish) keeps the wrapper and its command out of it. */
export function textToType(request: Pick<JobRequest, 'jobId' | 'text' | 'options'>): string {
  const {text} = request;
  return request.options.until.kind === 'exit'
    ? ` { ${text}\n${sentinelOf(request).command}`
    : text;
}

/** A job's options for delivering one line (its text or its notice). */
export function deliverOptionsOf(
  request: Pick<JobRequest, 'jobId' | 'text' | 'options'>,
  line: Partial<DeliverOptions> & {enter: boolean},
): DeliverOptions {
  const o = request.options;
  return {
    typeDelayMs: o.typeDelayMs,
    enterDelayMs: o.enterDelayMs,
    clear: o.clear,
    clearDraft: o.clearDraft,
    draftWaitMs: o.draftWaitMs,
    busyWaitMs: o.idleTimeoutMs,
    ownText: request.text,
    owner: request.jobId,
    ...line,
  };
}
