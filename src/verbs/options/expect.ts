import {HOST_OPTION, type OptionTable} from '../../base/option-table.js';

/** What `expect` does once the pattern matched. */
export const EXPECT_ACTIONS = ['notify', 'close_pane', 'return_output'] as const;

/** `nudge expect PANE REGEX` (and the MCP tool `expect`, with the seed's argument names). */
export const EXPECT_OPTIONS = {
  'timeout-ms': {
    type: 'string',
    default: '60000',
    describe: 'give up after this many ms',
    mcp: {number: true},
  },
  'poll-interval-ms': {
    type: 'string',
    default: '200',
    describe: 'time between looks at the pane, in ms',
    mcp: {number: true},
  },
  lines: {
    type: 'string',
    default: '100',
    describe: 'lines from the end of the output searched',
    mcp: {number: true},
  },
  action: {
    type: 'string',
    default: 'notify',
    choices: EXPECT_ACTIONS,
    describe: 'after the match: notify (answer), close_pane, return_output',
  },
  'include-existing': {
    type: 'boolean',
    default: false,
    describe: 'also match what is already there',
  },
  'fail-pattern': {
    type: 'string',
    multiple: true,
    describe: 'end with status "failed" if this shows first (repeatable)',
    mcp: {describe: 'end with status "failed" if one of these shows first'},
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;
