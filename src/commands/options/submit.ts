import {SUBMIT_DEFAULTS} from '../../jobs/options.js';
import {HOST_OPTION, type OptionTable, SERVER_OPTIONS} from './table.js';

/** `nudge submit [options] -- TEXT` (and the MCP tool `submit`). */
export const SUBMIT_OPTIONS = {
  pane: {
    mcp: {name: 'pane', describe: '%N or session:window.pane; default: your pane'},
    type: 'string',
    short: 't',
    describe: 'target pane: %N, session:window.pane or self (default $TMUX_PANE)',
  },
  ...SERVER_OPTIONS,
  ...HOST_OPTION,
  delay: {
    mcp: {name: 'delay', duration: true},
    type: 'string',
    default: SUBMIT_DEFAULTS.delay,
    describe: 'wait before typing (let the caller settle)',
  },
  'type-delay': {
    type: 'string',
    default: SUBMIT_DEFAULTS.typeDelay,
    describe: 'pause between typed characters',
  },
  'enter-delay': {
    type: 'string',
    default: SUBMIT_DEFAULTS.enterDelay,
    describe: 'pause before each Enter',
  },
  clear: {
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'clear the input line first (--no-clear to skip)',
  },
  enter: {
    type: 'boolean',
    default: true,
    negatable: true,
    describe: 'press Enter after the text (--no-enter to skip)',
  },
  interval: {
    mcp: {name: 'interval', duration: true},
    type: 'string',
    default: SUBMIT_DEFAULTS.interval,
    describe: 'time between screen captures',
  },
  'stable-checks': {
    mcp: {name: 'stable_checks', number: true},
    type: 'string',
    default: String(SUBMIT_DEFAULTS.stableChecks),
    describe:
      'captures in a row equal to the one before that mean done: N checks = N × --interval of stillness (3 at 1s = 3s)',
  },
  timeout: {
    mcp: {name: 'timeout', duration: true},
    type: 'string',
    default: SUBMIT_DEFAULTS.timeout,
    describe: 'give up waiting after this long (the notice still goes out)',
  },
  until: {
    mcp: {name: 'until'},
    type: 'string',
    default: SUBMIT_DEFAULTS.until,
    describe: 'done when: stable | exit | regex:PATTERN | prompt[:NAME|:REGEX]',
  },
  ignore: {
    type: 'string',
    multiple: true,
    describe: 'regex masked before comparing screens (repeatable)',
  },
  lines: {
    type: 'string',
    default: String(SUBMIT_DEFAULTS.lines),
    describe: 'lines of output searched by regex:',
  },
  'notify-pane': {
    mcp: {name: 'notify_pane', describe: 'type the notice into this pane instead; self: your pane'},
    type: 'string',
    describe:
      'type the notice into this pane instead (default: --pane); self: the pane nudge runs in',
  },
  profile: {
    mcp: {name: 'profile'},
    type: 'string',
    default: SUBMIT_DEFAULTS.profile,
    describe: "auto, shell, raw or an agent profile's name (nudge agents list)",
  },
  'when-idle': {
    mcp: {name: 'when_idle'},
    type: 'boolean',
    default: false,
    describe: 'wait until the pane is idle (per its profile) before typing',
  },
  'idle-timeout': {
    type: 'string',
    default: SUBMIT_DEFAULTS.idleTimeout,
    describe: 'how long --when-idle waits',
  },
  'clear-draft': {
    type: 'boolean',
    default: false,
    describe: 'clear a draft left in the input line instead of waiting for it',
  },
  'draft-wait': {
    type: 'string',
    default: SUBMIT_DEFAULTS.draftWait,
    describe: 'how long to wait for a draft to be sent or cleared',
  },
  // No MCP argument: the tool takes text, never a path to read.
  'text-file': {
    type: 'string',
    describe:
      'type the text in FILE (- : standard input) byte for byte instead of the words after --; refused unless UTF-8',
  },
  notify: {
    mcp: {
      name: 'notify',
      describe: 'sinks to tell of the end: cmd:PROGRAM, webhook:URL, ntfy:URL, desktop, tmux',
    },
    type: 'string',
    multiple: true,
    describe:
      "tell a person of the end (done, failed, timeout, blocked, limit): cmd:PROGRAM, webhook:URL, ntfy:URL, desktop, tmux (repeatable; none: not the config file's)",
  },
  'on-limit': {
    type: 'string',
    choices: ['stop', 'wait'],
    default: SUBMIT_DEFAULTS.onLimit,
    describe:
      "a usage limit on the agent's screen: stop (the job ends blocked, exit 3) or wait for its reset, then type --resume-text",
  },
  'limit-margin': {
    type: 'string',
    default: SUBMIT_DEFAULTS.limitMargin,
    describe: 'how long after a usage limit resets to resume',
  },
  'resume-text': {
    type: 'string',
    default: SUBMIT_DEFAULTS.resumeText,
    describe: 'what is typed once a usage limit has reset',
  },
  notice: {
    mcp: {
      name: 'notice',
      describe: 'the notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery}',
    },
    type: 'string',
    describe:
      'notice template: {status} {elapsed} {job} {until} {exit} {match} {delivery} (--no-notice for none)',
  },
  'lock-timeout': {
    type: 'string',
    default: SUBMIT_DEFAULTS.lockTimeout,
    describe: 'how long to queue behind other jobs on the pane',
  },
  wait: {
    mcp: {name: 'wait', describe: 'run in the foreground and return the outcome'},
    type: 'boolean',
    default: false,
    describe: 'run in the foreground; exit 0 done, 3 blocked, 124 timeout, 1 failed',
  },
  json: {type: 'boolean', default: false, describe: 'print one JSON line'},
} as const satisfies OptionTable;
