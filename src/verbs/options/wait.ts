import {durationOption, HOST_OPTION, type OptionTable} from '../../base/option-table.js';

/** `nudge wait [PANE]` (and the MCP tool `wait`). */
export const WAIT_OPTIONS = {
  until: {
    type: 'string',
    default: 'stable',
    describe:
      'stable | regex:PATTERN | prompt[:NAME|:REGEX]; with --job: delivered | turn-started | turn-ended (the default there; answered is the same)',
  },
  job: {
    type: 'string',
    describe:
      "a job instead of a pane: wait until its message's receipt reaches --until (exit 0), the job ends short of it (exit 1), or the timeout (124)",
  },
  timeout: durationOption('give up after this', {default: '10m'}),
  interval: durationOption('time between looks at the pane', {default: '1s'}),
  'stable-checks': {
    type: 'string',
    default: '3',
    describe: 'captures in a row equal to the one before: N × --interval of stillness',
    mcp: {number: true},
  },
  ignore: {
    type: 'string',
    multiple: true,
    describe: 'regex masked before comparing screens (repeatable)',
    mcp: {describe: 'regexes masked before comparing screens'},
  },
  lines: {
    type: 'string',
    default: '100',
    describe: 'lines of the screen compared',
    mcp: {number: true},
  },
  any: {
    type: 'boolean',
    describe: 'several panes: done when the first is idle (it is named)',
  },
  all: {
    type: 'boolean',
    describe: 'several panes: done when every one is idle (the default)',
  },
  count: {
    type: 'string',
    describe: 'several panes: done when N of them are idle',
    mcp: {number: true},
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;
