import {Buffer} from 'node:buffer';
import {VIAS} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {
  durationOption,
  HOST_OPTION,
  type OptionsOf,
  type OptionTable,
  SERVER_OPTIONS,
} from '../base/option-table.js';
import {STALL_OPTIONS} from '../detect/stall-options.js';
import {compileRegex, parseUntil} from '../detect/until.js';
import {validateNoticeTemplate} from '../jobs/notice.js';
import {
  givenIfBusy,
  IF_BUSY,
  ON_LIMIT,
  parseIfBusy,
  parseOnLimit,
  parseResumeText,
  parseVia,
} from '../jobs/policies.js';
import {type JobOptions, MAX_TEXT_BYTES} from '../jobs/request.js';
import {SINK_LIST} from '../notify/sinks.js';
import {OWN_LINE_WAITS, SHELL_PACE} from '../pane/own-line.js';
import {findUntypable} from '../tmux/typing.js';

/**
 * What `nudge submit` takes: the table below is its one declaration (flags, MCP arguments,
 * help, defaults); this type is derived from it, with what no flag gives — the text, and the
 * fields a front end sets (a relayed notice's label, a chosen job id).
 */
export type SubmitOptions = Omit<OptionsOf<typeof SUBMIT_OPTIONS>, 'notice' | 'json'> & {
  text: string;
  /** A template, or false for --no-notice. */
  notice?: string | false | undefined;
  /** The notice goes to a pane of another host (`HOST:%N`): set by the front end that
   * relays it there (src/relay/relay.ts), never by a flag. */
  noticeElsewhere?: string | undefined;
  /** The job's id, chosen by the caller instead of made here: a relay's delivery, which may
   * be sent again after a dropped connection and must make one job (never a flag). */
  jobId?: string | undefined;
};

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

/** `nudge submit [options] -- TEXT` (and the MCP tool `submit`). */
export const SUBMIT_OPTIONS = {
  pane: {
    mcp: {describe: '%N or session:window.pane; default: your pane'},
    type: 'string',
    short: 't',
    describe: 'target pane: %N, session:window.pane or self (default $TMUX_PANE)',
  },
  ...SERVER_OPTIONS,
  ...HOST_OPTION,
  delay: durationOption('wait before typing (let the caller settle)', {
    default: SUBMIT_DEFAULTS.delay,
  }),
  'type-delay': durationOption('pause between typed characters', {
    default: SUBMIT_DEFAULTS.typeDelay,
  }),
  'enter-delay': durationOption('pause before each Enter', {
    default: SUBMIT_DEFAULTS.enterDelay,
  }),
  clear: {
    mcp: {describe: 'clear the input line first (false: leave it)'},
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'clear the input line first (--no-clear to skip)',
  },
  enter: {
    mcp: {describe: 'press Enter after the text (false: leave it typed)'},
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'press Enter after the text (--no-enter to skip)',
  },
  interval: durationOption('time between screen captures', {
    default: SUBMIT_DEFAULTS.interval,
  }),
  'stable-checks': {
    mcp: {number: true},
    type: 'string',
    default: String(SUBMIT_DEFAULTS.stableChecks),
    describe:
      'captures in a row equal to the one before that mean done: N checks = N × --interval of stillness (3 at 1s = 3s)',
  },
  timeout: durationOption('give up waiting after this long (the notice still goes out)', {
    default: SUBMIT_DEFAULTS.timeout,
  }),
  until: {
    type: 'string',
    default: SUBMIT_DEFAULTS.until,
    describe:
      'done when: stable | exit | regex:PATTERN | prompt[:NAME|:REGEX] | turn (an agent: once settled)',
  },
  ignore: {
    mcp: {describe: 'regexes masked before comparing screens'},
    type: 'string',
    multiple: true,
    describe: 'regex masked before comparing screens (repeatable)',
  },
  lines: {
    mcp: {number: true},
    type: 'string',
    default: String(SUBMIT_DEFAULTS.lines),
    describe: 'lines of output searched by regex:',
  },
  'notify-pane': {
    mcp: {describe: 'type the notice into this pane instead; self: your pane'},
    type: 'string',
    describe:
      'type the notice into this pane instead (default: --pane); self: the pane nudge runs in',
  },
  profile: {
    type: 'string',
    default: SUBMIT_DEFAULTS.profile,
    describe: "auto, shell, raw or an agent profile's name (nudge agents list)",
  },
  'when-idle': {
    type: 'boolean',
    default: false,
    describe: 'wait until the pane is idle (per its profile) before typing (= --if-busy wait)',
  },
  'if-busy': {
    mcp: {
      describe:
        "the pane is busy: queue (default), wait until idle, refuse (nothing queued), now (through the agent's own door, mid-turn), type-ahead (typed into the program running in a shell pane)",
    },
    type: 'string',
    choices: IF_BUSY,
    describe:
      "the pane is busy (its program works, or jobs wait for it): queue behind them (default), wait until it is idle, refuse (exit 1, nothing queued), now (handed to the agent's own door at once, mid-turn; refused where it has none), or type-ahead (typed at once into a program running in a shell pane's foreground); default: config.toml's [submit] if-busy, else queue",
  },
  'idle-timeout': durationOption('how long --when-idle waits', {
    default: SUBMIT_DEFAULTS.idleTimeout,
  }),
  'clear-draft': {
    type: 'boolean',
    default: false,
    describe: 'clear a draft left in the input line instead of waiting for it',
  },
  'draft-wait': durationOption('how long to wait for a draft to be sent or cleared', {
    default: SUBMIT_DEFAULTS.draftWait,
  }),
  'text-file': {
    cliOnly: 'the tool takes text, never a path to read',
    type: 'string',
    describe:
      'type the text in FILE (- : standard input) byte for byte instead of the words after --; refused unless UTF-8',
  },
  notify: {
    mcp: {
      describe: `sinks to tell of the end: ${SINK_LIST}`,
    },
    type: 'string',
    multiple: true,
    describe: `tell a person of the end (done, failed, timeout, blocked, limit): ${SINK_LIST} (repeatable; none: not the config file's)`,
  },
  'on-limit': {
    type: 'string',
    choices: ON_LIMIT,
    default: SUBMIT_DEFAULTS.onLimit,
    describe:
      "a usage limit on the agent's screen: stop (the job ends blocked, exit 3) or wait for its reset, then type --resume-text",
  },
  'limit-margin': durationOption('how long after a usage limit resets to resume', {
    default: SUBMIT_DEFAULTS.limitMargin,
  }),
  'resume-text': {
    type: 'string',
    default: SUBMIT_DEFAULTS.resumeText,
    describe: 'what is typed once a usage limit has reset',
  },
  notice: {
    mcp: {
      describe: 'the notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery}',
    },
    type: 'string',
    describe:
      'notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery} (--no-notice for none)',
  },
  via: {
    mcp: {
      describe: "how the notice goes: auto (the agent's door, else typing), keys, native",
    },
    type: 'string',
    choices: VIAS,
    describe:
      "how the notice goes: auto (the agent's own door where it has one, else typed), keys (typed), native (a door only); default: config.toml's [submit] via, else auto",
  },
  ...STALL_OPTIONS,
  'lock-timeout': durationOption('how long to queue behind other jobs on the pane', {
    default: SUBMIT_DEFAULTS.lockTimeout,
  }),
  wait: {
    mcp: {describe: "wait for the job's end and return the outcome"},
    type: 'boolean',
    default: false,
    describe:
      "wait for the job's end (Ctrl-C stops the waiting, not the job); exit 0 done, 3 blocked, 124 timeout, 1 failed",
  },
  json: {
    type: 'boolean',
    default: false,
    describe: 'print one JSON line',
    cliOnly: 'a tool answers JSON always',
  },
} as const satisfies OptionTable;

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
    // The config file's [submit] via is added by the command, which knows the environment.
    via: o.via === undefined ? 'auto' : parseVia(o.via),
    noticeElsewhere: o.noticeElsewhere ?? null,
    until,
    ignore,
    lines: parseInteger(o.lines ?? SUBMIT_DEFAULTS.lines, '--lines', 1, 100_000),
    profile: parseProfile(o.profile ?? SUBMIT_DEFAULTS.profile),
    // The config file's [submit] if-busy is added by the command, which knows the environment.
    ifBusy: parseIfBusy(givenIfBusy(o) ?? 'queue'),
    idleTimeoutMs: duration(o.idleTimeout, SUBMIT_DEFAULTS.idleTimeout, '--idle-timeout'),
    clearDraft: o.clearDraft ?? false,
    draftWaitMs: duration(o.draftWait, SUBMIT_DEFAULTS.draftWait, '--draft-wait'),
    onLimit: parseOnLimit(o.onLimit ?? SUBMIT_DEFAULTS.onLimit),
    limitMarginMs: duration(o.limitMargin, SUBMIT_DEFAULTS.limitMargin, '--limit-margin'),
    resumeText: parseResumeText(o.resumeText ?? SUBMIT_DEFAULTS.resumeText),
    // The config file's defaults are added by the command, which knows the environment.
    notifySinks: [...(o.notify ?? [])],
    stall: null,
  };
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
