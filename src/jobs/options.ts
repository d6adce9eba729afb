import {Buffer} from 'node:buffer';
import type {ProfileName} from '../agents/profile.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {compileRegex, parseUntil} from '../detect/until.js';
import {OWN_LINE_WAITS, SHELL_PACE} from '../pane/own-line.js';
import {findUntypable} from '../tmux/typing.js';
import {validateNoticeTemplate} from './notice.js';
import {type JobOptions, MAX_TEXT_BYTES} from './request.js';

/** What a job is asked to do, as `nudge submit` (or any front end) hands it over, as the CLI (or any front end) hands them over. Durations are
 * strings such as "3s" or numbers of milliseconds. */
export interface SubmitOptions {
  text: string;
  pane?: string | undefined;
  socketName?: string | undefined;
  socketPath?: string | undefined;
  delay?: string | number | undefined;
  typeDelay?: string | number | undefined;
  enterDelay?: string | number | undefined;
  interval?: string | number | undefined;
  stableChecks?: string | number | undefined;
  timeout?: string | number | undefined;
  lockTimeout?: string | number | undefined;
  clear?: boolean | undefined;
  enter?: boolean | undefined;
  /** A template, or false for --no-notice. */
  notice?: string | false | undefined;
  wait?: boolean | undefined;
  /** The "done" condition: stable, exit, regex:PATTERN, prompt[:NAME|:REGEX]. */
  until?: string | undefined;
  /** Regexes masked before screens are compared (`--until stable`). */
  ignore?: readonly string[] | undefined;
  /** Lines of output searched by `--until regex:`. */
  lines?: string | number | undefined;
  /** Type the notice into this pane instead. */
  notifyPane?: string | undefined;
  /** The notice goes to a pane of another host (`HOST:%N`): set by the front end that
   * relays it there (src/relay/relay.ts), never by a flag. */
  noticeElsewhere?: string | undefined;
  /** The job's id, chosen by the caller instead of made here: a relay's delivery, which may
   * be sent again after a dropped connection and must make one job (never a flag). */
  jobId?: string | undefined;
  /** auto, or a profile's name (the registry's: shell, raw, each agent's). */
  profile?: string | undefined;
  /** Wait until the pane is idle before typing. */
  whenIdle?: boolean | undefined;
  idleTimeout?: string | number | undefined;
  /** Clear a draft left in the input line instead of waiting for it. */
  clearDraft?: boolean | undefined;
  draftWait?: string | number | undefined;
  /** A usage limit: stop (end `blocked`) or wait for its reset and resume. */
  onLimit?: string | undefined;
  limitMargin?: string | number | undefined;
  resumeText?: string | undefined;
  /** Sinks to tell of the job's changes (`--notify`, repeatable; `none`: not the config's). */
  notify?: readonly string[] | undefined;
  /** Read the text from this file (`-`: standard input) instead of `text` (the CLI only). */
  textFile?: string | undefined;
}

/** The defaults of `nudge submit` (docs/commands.md lists them). */
export const SUBMIT_DEFAULTS = {
  delay: '3s',
  typeDelay: `${SHELL_PACE.typeDelayMs}ms`,
  enterDelay: `${SHELL_PACE.enterDelayMs}ms`,
  interval: '1s',
  stableChecks: 3,
  timeout: '5m',
  lockTimeout: `${OWN_LINE_WAITS.notice.lockTimeoutMs / 60_000}m`,
  until: 'stable',
  lines: 100,
  profile: 'auto',
  idleTimeout: '10m',
  draftWait: `${OWN_LINE_WAITS.notice.draftWaitMs / 1000}s`,
  onLimit: 'stop',
  limitMargin: '1m',
  resumeText: 'continue',
} as const;

/** Turn raw options into validated job options; throws NudgeError (exit 2). */
export function resolveJobOptions(o: SubmitOptions): JobOptions {
  const duration = (v: string | number | undefined, d: string, flag: string) =>
    parseDuration(v ?? d, flag);
  const intervalMs = duration(o.interval, SUBMIT_DEFAULTS.interval, '--interval');
  if (intervalMs < 10)
    throw new NudgeError(
      'bad-duration',
      `--interval must be at least 10ms, got ${JSON.stringify(o.interval)}.`,
    );
  const timeoutMs = duration(o.timeout, SUBMIT_DEFAULTS.timeout, '--timeout');
  if (timeoutMs <= 0)
    throw new NudgeError(
      'bad-duration',
      `--timeout must be more than 0, got ${JSON.stringify(o.timeout)}.`,
    );
  if (typeof o.notice === 'string') validateNoticeTemplate(o.notice);
  const until = parseUntil(o.until ?? SUBMIT_DEFAULTS.until);
  const ignore = [...(o.ignore ?? [])];
  for (const i of ignore) compileRegex(i, '--ignore');
  const enter = o.enter ?? true;
  if (until.kind === 'exit' && !enter) {
    throw new NudgeError(
      'bad-usage',
      '--until exit runs the command, so it cannot be combined with --no-enter.',
    );
  }
  return {
    delayMs: duration(o.delay, SUBMIT_DEFAULTS.delay, '--delay'),
    typeDelayMs: duration(o.typeDelay, SUBMIT_DEFAULTS.typeDelay, '--type-delay'),
    enterDelayMs: duration(o.enterDelay, SUBMIT_DEFAULTS.enterDelay, '--enter-delay'),
    intervalMs,
    stableChecks: parseInteger(
      o.stableChecks ?? SUBMIT_DEFAULTS.stableChecks,
      '--stable-checks',
      1,
      1000,
    ),
    timeoutMs,
    lockTimeoutMs: duration(o.lockTimeout, SUBMIT_DEFAULTS.lockTimeout, '--lock-timeout'),
    clear: o.clear ?? true,
    enter,
    notify: o.notice !== false,
    noticeTemplate: typeof o.notice === 'string' ? o.notice : null,
    notifyPane: null,
    noticeElsewhere: o.noticeElsewhere ?? null,
    until,
    ignore,
    lines: parseInteger(o.lines ?? SUBMIT_DEFAULTS.lines, '--lines', 1, 100_000),
    profile: parseProfile(o.profile ?? SUBMIT_DEFAULTS.profile),
    whenIdle: o.whenIdle ?? false,
    idleTimeoutMs: duration(o.idleTimeout, SUBMIT_DEFAULTS.idleTimeout, '--idle-timeout'),
    clearDraft: o.clearDraft ?? false,
    draftWaitMs: duration(o.draftWait, SUBMIT_DEFAULTS.draftWait, '--draft-wait'),
    onLimit: parseOnLimit(o.onLimit ?? SUBMIT_DEFAULTS.onLimit),
    limitMarginMs: duration(o.limitMargin, SUBMIT_DEFAULTS.limitMargin, '--limit-margin'),
    resumeText: parseResumeText(o.resumeText ?? SUBMIT_DEFAULTS.resumeText),
    // The config file's defaults are added by the command, which knows the environment.
    notifySinks: [...(o.notify ?? [])],
  };
}

/** Check `--on-limit`; throws NudgeError (exit 2). */
export function parseOnLimit(value: string): 'stop' | 'wait' {
  if (value === 'stop' || value === 'wait') return value;
  throw new NudgeError(
    'bad-usage',
    `--on-limit must be stop or wait, got ${JSON.stringify(value)}.`,
  );
}

/** Check `--resume-text`: one line; throws NudgeError (exit 2). */
export function parseResumeText(value: string): string {
  if (value.trim() === '' || /[\n\r\0]/.test(value))
    throw new NudgeError(
      'bad-usage',
      `--resume-text must be one line of text, got ${JSON.stringify(value)}.`,
    );
  return value;
}

/** Check `--profile`'s form; throws NudgeError (exit 2). Whether a profile has that name is
 * known once the profiles are read (src/agents/registry.ts, chooseProfile): `nudge submit`
 * reads them only when it needs them. */
export function parseProfile(value: string): ProfileName | 'auto' {
  if (value === 'auto' || PROFILE_NAME.test(value)) return value;
  throw new NudgeError(
    'bad-profile',
    `--profile must be auto or a profile's name ("nudge agents list" lists them); got ${JSON.stringify(value)}.`,
  );
}

/** The form of a profile's name (src/agents/schema.ts checks the same). */
const PROFILE_NAME = /^[a-z][a-z0-9-]*$/;

/** Check the text to type; throws NudgeError (exit 2). */
export function validateText(text: string): void {
  if (text.trim() === '') {
    throw new NudgeError(
      'empty-text',
      'Nothing to type: give the text after "--", e.g. nudge submit -- \'npm test\'.',
    );
  }
  const bad = findUntypable(text);
  if (bad)
    throw new NudgeError(
      'untypable-text',
      `The text contains ${bad}, which tmux cannot type; remove it.`,
    );
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TEXT_BYTES) {
    throw new NudgeError(
      'text-too-long',
      `The text is ${bytes} bytes, more than the ${MAX_TEXT_BYTES}-byte limit; put it in a file and type a command that reads it.`,
    );
  }
}
