import {
  durationOption,
  HOST_OPTION,
  JSON_OPTION,
  type OptionTable,
} from '../../base/option-table.js';

/** What `expect` does once the pattern matched. */
export const EXPECT_ACTIONS = ['notify', 'close_pane', 'return_output'] as const;

/** `nudge expect PANE REGEX` (and the MCP tool `expect`, with the seed's argument names). */
export const EXPECT_OPTIONS = {
  // As `wait` takes them on the CLI. The tool keeps the arguments of the contract it was built
  // to, in ms (timeout_ms, poll_interval_ms); on the CLI they are the old flags, still taken
  // with a word on stderr. With none of them given, the command uses 1m and 200ms.
  timeout: {
    ...durationOption('give up after this', {default: '1m'}),
    cliOnly: 'the tool takes timeout_ms',
  },
  interval: {
    ...durationOption('time between looks at the pane (at least 10ms)', {default: '200ms'}),
    cliOnly: 'the tool takes poll_interval_ms',
  },
  'timeout-ms': {
    type: 'string',
    implied: 60000,
    hidden: true,
    describe: 'give up after this many ms',
    mcp: {number: true},
  },
  'poll-interval-ms': {
    type: 'string',
    implied: 200,
    hidden: true,
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
  ...JSON_OPTION,
} as const satisfies OptionTable;
