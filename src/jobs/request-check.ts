import {Buffer} from 'node:buffer';
import type {z} from 'zod';
import {readFailure, readTextCapped} from '../base/bounded-read.js';
import {JOB_ID_PATTERN} from '../base/paths.js';
import {err, ok, type Result} from '../base/result.js';
import {isObject} from '../base/shape.js';
import {MAX_TEXT_BYTES} from '../job-options/limits.js';
import {JOB_OPTIONS} from '../job-options/schema.js';
import {untilWrong} from '../job-options/stored.js';
import {type JobRequest, REQUEST_VERSION} from './request.js';
import {MAX_REQUEST_BYTES, storedIfBusy} from './stored-request.js';

/**
 * A job's request.json checked, every field, as the worker reads it (it trusts nothing it did
 * not check): the options by their stored schema (zod, src/job-options/schema.ts), so this is
 * loaded only where a request is read back, never by `nudge submit`, which writes one.
 */

const PANE_ID = /^%\d+$/;

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
