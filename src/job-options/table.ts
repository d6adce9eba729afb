import {VIAS} from '../agents/doors.js';
import {
  durationOption,
  HOST_OPTION,
  type OptionsOf,
  type OptionTable,
  SERVER_OPTIONS,
} from '../base/option-table.js';
import {STALL_OPTIONS} from '../detect/stall-options.js';
import {parseUntil} from '../detect/until.js';
import {SINK_LIST} from '../notify/sinks.js';
import {OWN_LINE_WAITS, SHELL_PACE} from '../pane/own-line.js';
import {IF_BUSY, ON_LIMIT, parseOnLimit} from './policies.js';
import {
  countField,
  flagField,
  IF_BUSY_FIELD,
  IGNORE,
  msField,
  NOTICE,
  parseProfile,
  RESUME_TEXT,
  SINKS,
  stores,
  UNTIL,
  VIA,
} from './stored.js';

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
  delay: {
    ...durationOption('wait before typing (let the caller settle)', {
      default: '3s',
    }),
    job: msField('delayMs'),
  },
  'type-delay': {
    ...durationOption('pause between typed characters', {
      default: `${SHELL_PACE.typeDelayMs}ms`,
    }),
    job: msField('typeDelayMs'),
  },
  'enter-delay': {
    ...durationOption('pause before each Enter', {
      default: `${SHELL_PACE.enterDelayMs}ms`,
    }),
    job: msField('enterDelayMs'),
  },
  clear: {
    mcp: {describe: 'clear the input line first (false: leave it)'},
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'clear the input line first (--no-clear to skip)',
    job: flagField('clear'),
  },
  enter: {
    mcp: {describe: 'press Enter after the text (false: leave it typed)'},
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'press Enter after the text (--no-enter to skip)',
    job: flagField('enter'),
  },
  interval: {
    ...durationOption('time between screen captures', {
      default: '1s',
    }),
    job: msField('intervalMs', 10),
  },
  'stable-checks': {
    mcp: {number: true},
    type: 'string',
    default: '3',
    describe:
      'captures in a row equal to the one before that mean done: N checks = N × --interval of stillness (3 at 1s = 3s)',
    job: countField('stableChecks', 1000),
  },
  timeout: {
    ...durationOption('give up waiting after this long (the notice still goes out)', {
      default: '5m',
    }),
    job: msField('timeoutMs', 1),
  },
  until: {
    type: 'string',
    default: 'stable',
    describe:
      'done when: stable | exit | regex:PATTERN | prompt[:NAME|:REGEX] | turn (an agent: once settled)',
    job: stores(
      (z) => ({until: UNTIL(z)}),
      (v: string) => ({until: parseUntil(v)}),
    ),
  },
  ignore: {
    mcp: {describe: 'regexes masked before comparing screens'},
    type: 'string',
    multiple: true,
    describe: 'regex masked before comparing screens (repeatable)',
    job: IGNORE,
  },
  lines: {
    mcp: {number: true},
    type: 'string',
    default: '100',
    describe: 'lines of output searched by regex:',
    job: countField('lines', 100_000),
  },
  'notify-pane': {
    mcp: {describe: 'type the notice into this pane instead; self: your pane'},
    type: 'string',
    describe:
      'type the notice into this pane instead (default: --pane); self: the pane nudge runs in',
  },
  profile: {
    type: 'string',
    default: 'auto',
    describe: "auto, shell, raw or an agent profile's name (nudge agents list)",
    job: stores(
      (z) => ({profile: z.string().min(1).describe('a profile name')}),
      (v: string) => ({
        profile: parseProfile(v),
      }),
    ),
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
      "the pane is busy (its program works, or jobs wait for it): queue behind them (default), wait until it is idle, refuse (exit 75, nothing queued), now (handed to the agent's own door at once, mid-turn; refused where it has none), or type-ahead (typed at once into a program running in a shell pane's foreground); default: config.toml's [submit] if-busy, else queue",
    job: IF_BUSY_FIELD,
  },
  'idle-timeout': {
    ...durationOption('how long --when-idle waits', {
      default: '10m',
    }),
    job: msField('idleTimeoutMs'),
  },
  'clear-draft': {
    type: 'boolean',
    default: false,
    describe: 'clear a draft left in the input line instead of waiting for it',
    job: flagField('clearDraft'),
  },
  'draft-wait': {
    ...durationOption('how long to wait for a draft to be sent or cleared', {
      default: `${OWN_LINE_WAITS.notice.draftWaitMs / 1000}s`,
    }),
    job: msField('draftWaitMs'),
  },
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
    job: SINKS,
  },
  'on-limit': {
    type: 'string',
    choices: ON_LIMIT,
    default: 'stop',
    describe:
      "a usage limit on the agent's screen: stop (the job ends blocked, exit 3) or wait for its reset, then type --resume-text",
    job: stores(
      (z) => ({onLimit: z.enum(ON_LIMIT).describe('stop or wait')}),
      (v: string) => ({
        onLimit: parseOnLimit(v),
      }),
    ),
  },
  'limit-margin': {
    ...durationOption('how long after a usage limit resets to resume', {
      default: '1m',
    }),
    job: msField('limitMarginMs'),
  },
  'resume-text': {
    type: 'string',
    default: 'continue',
    describe: 'what is typed once a usage limit has reset',
    job: RESUME_TEXT,
  },
  notice: {
    mcp: {
      describe: 'the notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery}',
    },
    type: 'string',
    describe:
      'notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery} (--no-notice for none)',
    job: NOTICE,
  },
  via: {
    mcp: {
      describe: "how the notice goes: auto (the agent's door, else typing), keys, native",
    },
    type: 'string',
    choices: VIAS,
    describe:
      "how the notice goes: auto (the agent's own door where it has one, else typed), keys (typed), native (a door only); default: config.toml's [submit] via, else auto",
    job: VIA,
  },
  ...STALL_OPTIONS,
  'lock-timeout': {
    ...durationOption('how long to queue behind other jobs on the pane', {
      default: `${OWN_LINE_WAITS.notice.lockTimeoutMs / 60_000}m`,
    }),
    job: msField('lockTimeoutMs'),
  },
  id: {
    mcp: {
      describe:
        'your id for this message: sent again with the same id (a retry), the first send is the answer and nothing is typed again',
    },
    type: 'string',
    describe:
      "your id for this message (1-128 of A-Z a-z 0-9 . _ : -): sent again with the same id, text and pane (a retry), it prints the first send's job and types nothing; the same id with another text is refused",
  },
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
