import {Buffer} from 'node:buffer';
import type {z} from 'zod';
import {readFailure, readTextCapped} from '../base/bounded-read.js';
import {JOB_ID_PATTERN} from '../base/paths.js';
import {err, ok, type Result} from '../base/result.js';
import {isObject} from '../base/shape.js';
import {exitSentinel} from '../detect/output-watchers.js';
import {IF_BUSY, type IfBusy} from '../job-options/policies.js';
import {JOB_OPTIONS, type JobOptions, MAX_TEXT_BYTES} from '../job-options/resolve.js';
import {untilWrong} from '../job-options/stored.js';
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

const PANE_ID = /^%\d+$/;

/** The largest request.json a worker reads: the text at its limit, JSON-escaped, and room for
 * the options around it. */
export const MAX_REQUEST_BYTES = MAX_TEXT_BYTES * 6 + 64 * 1024;

/** The request as the job's request.json holds it (the one carrier of a request, from the
 * front end to the worker), checked: garbage yields a one-sentence reason. */
export function parseStoredRequest(text: string): Result<JobRequest, string> {
  if (text.length > MAX_REQUEST_BYTES) return err('the request is too large');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return err('the request is not valid JSON');
  }
  return validateRequest(parsed);
}

/** Job `jobId`'s request from its request.json at `path`: read bounded and checked, and for
 * that job; else the one sentence of what is wrong. */
export async function readStoredRequest(
  path: string,
  jobId: string,
): Promise<Result<JobRequest, string>> {
  let text: string;
  try {
    text = await readTextCapped(path, MAX_REQUEST_BYTES);
  } catch (error) {
    return err(`its request (${path}) cannot be read: ${readFailure(error)}`);
  }
  const request = parseStoredRequest(text);
  if (request.ok && request.value.jobId !== jobId)
    return err(`the request is for job ${request.value.jobId}, not ${jobId}`);
  return request;
}

/** Half of a UTF-16 surrogate pair without the other half: not a character, not UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Check every field of a parsed request; the worker trusts nothing it did not check. */
export function validateRequest(value: unknown): Result<JobRequest, string> {
  if (!isObject(value)) return err('the request is not an object');
  if (value.version !== REQUEST_VERSION) {
    return err(
      `the request has version ${JSON.stringify(value.version)}, expected ${REQUEST_VERSION}`,
    );
  }
  const wrong = headerWrong(value) ?? textWrong(value.text);
  if (wrong) return err(wrong);
  if (!isObject(value.options)) return err('the request has no options');
  // The condition says which part of it is wrong (its pattern, its profile).
  const until = untilWrong(value.options.until);
  if (until) return err(`the request option${until}`);
  const options = storedOptions(JOB_OPTIONS, withIfBusy(value.options));
  if (!options.ok) return options;
  return ok({...(value as unknown as JobRequest), options: options.value});
}

/** A request's options checked by their stored schema: the first field wrong, named with what
 * it should be. */
export function storedOptions<S extends z.ZodObject>(
  schema: S,
  options: unknown,
): Result<z.output<S>, string> {
  const checked = schema.safeParse(options);
  if (checked.success) return ok(checked.data);
  const issue = checked.error.issues[0];
  const key = String(issue?.path[0] ?? '');
  const what = schema.shape[key]?.description ?? issue?.message ?? 'valid';
  return err(`the request option ${key} is not ${what}`);
}

/** A request stored before `ifBusy` was (its policy in three booleans), as it is now. */
function withIfBusy(o: Record<string, unknown>): Record<string, unknown> {
  return o.ifBusy !== undefined ? o : {...o, ifBusy: storedIfBusy(o)};
}

/** The busy policy of stored options: `ifBusy`, or for a request stored before it was, what
 * its three booleans (`now`, `whenIdle`, `typeAhead`) said. */
export function storedIfBusy(o: Record<string, unknown> | undefined): IfBusy {
  if (typeof o?.ifBusy === 'string' && (IF_BUSY as readonly string[]).includes(o.ifBusy))
    return o.ifBusy as IfBusy;
  return o?.now === true
    ? 'now'
    : o?.whenIdle === true
      ? 'wait'
      : o?.typeAhead === true
        ? 'type-ahead'
        : 'queue';
}

/** What is wrong with the request's job, time, server and pane, if anything. */
export function headerWrong(value: Record<string, unknown>): string | undefined {
  const {jobId, createdAt, server, pane, paneTarget} = value;
  if (typeof jobId !== 'string' || !JOB_ID_PATTERN.test(jobId))
    return 'the request has a bad job id';
  if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)))
    return 'the request has no valid creation time';
  if (
    !isObject(server) ||
    typeof server.socketPath !== 'string' ||
    server.socketPath === '' ||
    server.socketPath.includes('\0') ||
    !Number.isSafeInteger(server.pid) ||
    (server.pid as number) <= 0
  )
    return 'the request has no valid tmux server';
  if (typeof pane !== 'string' || !PANE_ID.test(pane)) return 'the request has a bad pane id';
  if (typeof paneTarget !== 'string' || paneTarget.includes('\0'))
    return 'the request has no valid pane target';
  return undefined;
}

/** What is wrong with the request's text, if anything. */
export function textWrong(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length === 0) return 'the request has no text';
  if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) return 'the request text is too long';
  // The front end refuses these; a request that has them was not made by it.
  if (text.includes('\0')) return 'the request text has a NUL character';
  if (LONE_SURROGATE.test(text)) return 'the request text is not valid Unicode';
  return undefined;
}

/** Job ids: a base-36 millisecond timestamp and four random characters (see paths.ts). */
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

/** The first line of `text`, at most 80 characters, for listings. */
export function previewText(text: string): string {
  const oneLine = text.replace(/\r\n|\r|\n/g, '⏎').replace(/[\x00-\x1f\x7f]/g, '·');
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}
