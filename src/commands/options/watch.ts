import {HOST_OPTION, type OptionTable} from '../../base/option-table.js';
import {SINK_LIST} from '../../notify/sinks.js';
import {WATCH_DEFAULTS} from '../../watch/record.js';

/** `nudge watch start NAME` (and the MCP tool `watch_me`). */
export const WATCH_START_OPTIONS = {
  pane: {
    type: 'string',
    describe: 'the pane watched: %N or session:window.pane (default $TMUX_PANE)',
    mcp: {name: 'pane'},
  },
  plan: {type: 'string', describe: 'the plan: TEXT or @FILE', mcp: {name: 'plan'}},
  'assess-cmd': {
    type: 'string',
    describe:
      'assessor command: words or a JSON array, no shell (prompt JSON on stdin, answer JSON on stdout)',
  },
  'assess-url': {
    type: 'string',
    describe: 'assessor: an OpenAI-compatible endpoint (…/v1 or …/v1/chat/completions)',
  },
  'assess-model': {type: 'string', describe: 'the model --assess-url serves'},
  'assess-key-env': {type: 'string', describe: 'environment variable holding the API key'},
  'idle-threshold': {
    type: 'string',
    implied: WATCH_DEFAULTS.idleThreshold,
    describe: 'the pane must be still this long before assessing',
    mcp: {name: 'idle_threshold', duration: true},
  },
  'idle-timeout': {
    type: 'string',
    implied: WATCH_DEFAULTS.idleTimeout,
    describe: 'pause if the pane is not idle within this',
  },
  'default-wait': {
    type: 'string',
    implied: WATCH_DEFAULTS.defaultWait,
    describe: 'sleep this long when a report has no --bash-wait',
    mcp: {name: 'default_wait', duration: true},
  },
  'wait-timeout': {
    type: 'string',
    implied: WATCH_DEFAULTS.waitTimeout,
    describe: 'stop a --bash-wait command after this',
  },
  'assess-timeout': {
    type: 'string',
    implied: WATCH_DEFAULTS.assessTimeout,
    describe: 'give up on the assessor after this',
  },
  'transcript-cap': {
    type: 'string',
    implied: WATCH_DEFAULTS.transcriptCap,
    describe: 'transcript entries kept, oldest dropped',
  },
  enter: {
    type: 'boolean',
    describe: 'press Enter after an injected line (--no-enter: leave it typed)',
  },
  // No MCP argument: a model cannot grant its own watcher commands.
  'allow-commands': {
    type: 'boolean',
    describe:
      "type an assessor's line that starts with ! / or $ (a shell-mode command or slash command in the agent); without it such a line pauses the watcher",
  },
  notify: {
    type: 'string',
    multiple: true,
    describe: `tell a person when the watcher pauses (done, blocked, timeout, failed): ${SINK_LIST} (repeatable; none: not the config file's)`,
    mcp: {name: 'notify'},
  },
  'on-limit': {
    type: 'string',
    choices: ['stop', 'wait'],
    describe:
      'a usage limit at the idle step: stop (pause) or wait for its reset, then type --resume-text',
    mcp: {name: 'on_limit'},
  },
  'limit-margin': {type: 'string', describe: 'how long after a usage limit resets to resume (1m)'},
  'resume-text': {
    type: 'string',
    describe: 'what is typed once a usage limit has reset (continue)',
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** `nudge watch report NAME STATUS` (and the MCP tool `look_ma`). */
export const WATCH_REPORT_OPTIONS = {
  'bash-wait': {
    type: 'string',
    describe: 'wait by running this under bash -lc (output goes to the assessor)',
    mcp: {name: 'bash_wait'},
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** `nudge mcp`: the assessor `watch_me` uses when the call names none. */
export const MCP_OPTIONS = {
  'assess-cmd': {type: 'string', describe: 'default assessor of watch_me (see watch start)'},
  'assess-url': {type: 'string', describe: 'default assessor endpoint of watch_me'},
  'assess-model': {type: 'string', describe: 'the model --assess-url serves'},
  'assess-key-env': {type: 'string', describe: 'environment variable holding the API key'},
  'allow-exec': {
    type: 'boolean',
    default: false,
    describe:
      "offer the tools that run commands: run (a command or agent in a new pane) and look_ma's bash_wait",
  },
} as const satisfies OptionTable;
