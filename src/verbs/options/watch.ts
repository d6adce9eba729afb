import {HOST_OPTION, type OptionTable} from '../../base/option-table.js';

// `watch start`'s table lives beside the options it makes (src/watch/options.ts).
export {WATCH_START_OPTIONS} from '../../watch/options.js';

/** `nudge watch report NAME STATUS` (and the MCP tool `look_ma`). */
export const WATCH_REPORT_OPTIONS = {
  'bash-wait': {
    type: 'string',
    describe: 'wait by running this under your $SHELL -lc (output goes to the assessor)',
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
  'allow-close': {
    type: 'boolean',
    default: false,
    describe: "let expect's close_pane action close the pane it watched (off: expect only looks)",
  },
} as const satisfies OptionTable;
