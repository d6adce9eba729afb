import {Buffer} from 'node:buffer';
import {VIAS, type Via} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {JOB_ID_PATTERN} from '../base/paths.js';
import {linearPattern} from '../base/pattern.js';
import {err, ok, type Result} from '../base/result.js';
import {isMs, isObject} from '../base/shape.js';
import type {StallPolicy} from '../detect/stall.js';
import {isStallPolicy} from '../detect/stall-options.js';
import type {UntilSpec} from '../detect/until.js';
import {exitSentinel} from '../detect/watchers.js';
import type {DeliverOptions} from '../pane/deliver.js';
import {MAX_NOTICE_LENGTH} from './notice.js';

/** Version of the request format the front end stores for the worker (request.json). */
export const REQUEST_VERSION = 1;

/** The largest text (UTF-8 bytes) one job may type. */
export const MAX_TEXT_BYTES = 64 * 1024;

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

/** Per-job behaviour, all durations in milliseconds. */
export interface JobOptions {
  delayMs: number;
  typeDelayMs: number;
  enterDelayMs: number;
  clear: boolean;
  enter: boolean;
  intervalMs: number;
  stableChecks: number;
  timeoutMs: number;
  /** Whether a notice is typed at the end (`--no-notice` turns it off). */
  notify: boolean;
  /** The `--notice` template, or null for the default wording. */
  noticeTemplate: string | null;
  /** The pane (`%N`) the notice is typed into; null: the pane typed into. */
  notifyPane: string | null;
  /** How the notice goes: the agent's doors, then typing (`auto`), typing only (`keys`), a
   * door only (`native`). Requests made before it existed are `auto`. */
  via?: Via | undefined;
  /** The notice's pane is on another host (`HOST:%N`): the worker does not type it but
   * records it in the ending, and the relay on the submitting machine types it there.
   * Absent or null: typed here. */
  noticeElsewhere?: string | null | undefined;
  /** The "done" condition. */
  until: UntilSpec;
  /** `--ignore` regexes (sources) masked before screens are compared. */
  ignore: string[];
  /** Lines of output searched by regex conditions. */
  lines: number;
  /** The program profile, or auto-detection. */
  profile: ProfileName | 'auto';
  /** Wait until the pane is idle (per its profile) before typing. */
  whenIdle: boolean;
  /** `--if-busy now`: hand the text to the agent's own door at once (no lock, no keys), and
   * end once the agent has taken it. Absent: typed as usual. */
  now?: boolean | undefined;
  /** `--if-busy type-ahead`: type at once into a program a shell pane runs in its foreground
   * (else the job waits behind it). Absent: false. */
  typeAhead?: boolean | undefined;
  /** How long --when-idle waits. */
  idleTimeoutMs: number;
  /** Clear a draft someone left in the input line instead of waiting for it. */
  clearDraft: boolean;
  /** How long to wait for a draft to be sent or cleared before failing. */
  draftWaitMs: number;
  lockTimeoutMs: number;
  /** A usage limit on the agent's screen: end `blocked` (`stop`), or wait until it resets and
   * type `resumeText` (`wait`). */
  onLimit: 'stop' | 'wait';
  /** How long after a limit's reset the job resumes. */
  limitMarginMs: number;
  /** What is typed once a usage limit has reset. */
  resumeText: string;
  /** Where a person is told of the job's changes (sinks: `desktop`, `ntfy:URL`, …), checked
   * by the front end (`--notify`, else the config file's defaults). */
  notifySinks: string[];
  /** The stall watchdog over the wait (`--stall`, `--on-stall`, `--continue-text`); absent or
   * null: off. */
  stall?: StallPolicy | null | undefined;
}

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

/** Half of a UTF-16 surrogate pair without the other half: not a character, not UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `pattern` is a regex the watchers can compile (RE2, no flags, as compileRegex). */
function compiles(pattern: string): boolean {
  try {
    linearPattern(pattern);
    return true;
  } catch {
    return false;
  }
}

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
  const {options} = value;
  if (!isObject(options)) return err('the request has no options');
  for (const check of OPTION_CHECKS) {
    const what = check(options);
    if (what !== undefined) return err(`the request option${what}`);
  }
  return ok(value as unknown as JobRequest);
}

/** What is wrong with the request's job, time, server and pane, if anything. */
function headerWrong(value: Record<string, unknown>): string | undefined {
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
function textWrong(text: unknown): string | undefined {
  if (typeof text !== 'string' || text.length === 0) return 'the request has no text';
  if (Buffer.byteLength(text, 'utf8') > MAX_TEXT_BYTES) return 'the request text is too long';
  // The front end refuses these; a request that has them was not made by it.
  if (text.includes('\0')) return 'the request text has a NUL character';
  if (LONE_SURROGATE.test(text)) return 'the request text is not valid Unicode';
  return undefined;
}

const PANE_ID = /^%\d+$/;
type Options = Record<string, unknown>;
const isBool = (v: unknown) => typeof v === 'boolean';
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1;
const absentOr = (check: (v: unknown) => boolean) => (v: unknown) => v === undefined || check(v);
const oneLine = (v: unknown, max: number) =>
  typeof v === 'string' && v.length <= max && !/[\0\r\n]/.test(v);

function untilWrong(until: unknown): string | undefined {
  if (!isObject(until) || !['stable', 'exit', 'regex', 'prompt'].includes(String(until.kind)))
    return ' until is not a condition';
  for (const key of ['pattern', 'profile'] as const) {
    const v = until[key];
    if (v !== undefined && typeof v !== 'string') return ` until.${key} is not a string`;
    if (key === 'pattern' && typeof v === 'string' && !compiles(v))
      return ' until.pattern is not a valid regex';
  }
  if (until.kind === 'regex' && typeof until.pattern !== 'string')
    return ' until is regex without a pattern';
  return undefined;
}

/** A check of the options: what holds, and what the sentence says when it does not. */
const must =
  (holds: (o: Options) => boolean, what: string) =>
  (o: Options): string | undefined =>
    holds(o) ? undefined : what;

/** Each check of the options: undefined when it holds, else the end of the sentence "the
 * request option…". */
const OPTION_CHECKS: ReadonlyArray<(o: Options) => string | undefined> = [
  ...['delayMs', 'typeDelayMs', 'enterDelayMs', 'intervalMs', 'timeoutMs', 'lockTimeoutMs'].map(
    (key) => must((o) => isMs(o[key]), ` ${key} is not a duration`),
  ),
  must((o) => isCount(o.stableChecks), ' stableChecks is not a positive whole number'),
  must((o) => isBool(o.clear) && isBool(o.enter), 's clear/enter are not booleans'),
  must((o) => isBool(o.notify), ' notify is not a boolean'),
  must(
    (o) => o.noticeTemplate === null || oneLine(o.noticeTemplate, MAX_NOTICE_LENGTH),
    ' noticeTemplate is not a one-line template or null',
  ),
  must(
    (o) =>
      o.notifyPane === null || (typeof o.notifyPane === 'string' && PANE_ID.test(o.notifyPane)),
    ' notifyPane is not a pane id or null',
  ),
  must(
    (o) =>
      o.noticeElsewhere == null ||
      (typeof o.noticeElsewhere === 'string' && /^.{1,255}:%\d+$/.test(o.noticeElsewhere)),
    ' noticeElsewhere is not HOST:%N or null',
  ),
  (o) => untilWrong(o.until),
  must(
    (o) => Array.isArray(o.ignore) && o.ignore.every((i) => typeof i === 'string' && compiles(i)),
    ' ignore is not a list of valid regexes',
  ),
  must((o) => isCount(o.lines), ' lines is not a positive whole number'),
  must((o) => typeof o.profile === 'string' && o.profile !== '', ' profile is not a profile name'),
  must((o) => absentOr(isBool)(o.now), ' now is not a boolean'),
  must((o) => absentOr(isBool)(o.typeAhead), ' typeAhead is not a boolean'),
  must((o) => isBool(o.whenIdle) && isBool(o.clearDraft), 's whenIdle/clearDraft are not booleans'),
  must(
    (o) => isMs(o.idleTimeoutMs) && isMs(o.draftWaitMs),
    's idleTimeoutMs/draftWaitMs are not durations',
  ),
  must(
    (o) =>
      (o.onLimit === 'stop' || o.onLimit === 'wait') &&
      isMs(o.limitMarginMs) &&
      typeof o.resumeText === 'string' &&
      o.resumeText.trim() !== '',
    's onLimit/limitMarginMs/resumeText are not valid',
  ),
  must(
    (o) => absentOr((v) => (VIAS as readonly unknown[]).includes(v))(o.via),
    ' via is not auto, keys or native',
  ),
  must(
    (o) => Array.isArray(o.notifySinks) && o.notifySinks.every((s) => typeof s === 'string'),
    ' notifySinks is not a list of sinks',
  ),
  must((o) => o.stall == null || isStallPolicy(o.stall), ' stall is not a stall policy'),
];

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
 * the sentinel that prints its status. */
export function textToType(request: Pick<JobRequest, 'jobId' | 'text' | 'options'>): string {
  const {text} = request;
  return request.options.until.kind === 'exit' ? `{ ${text}\n${sentinelOf(request).command}` : text;
}

/** A job's options for delivering one line (its text or its notice). */
export function deliverOptionsOf(
  request: Pick<JobRequest, 'text' | 'options'>,
  line: Partial<DeliverOptions> & {enter: boolean},
): DeliverOptions {
  const o = request.options;
  return {
    typeDelayMs: o.typeDelayMs,
    enterDelayMs: o.enterDelayMs,
    clear: o.clear,
    clearDraft: o.clearDraft,
    draftWaitMs: o.draftWaitMs,
    ownText: request.text,
    ...line,
  };
}
