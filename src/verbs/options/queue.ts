import {HOST_OPTION, type OptionTable, SERVER_OPTIONS} from '../../base/option-table.js';

/** `nudge queue [PANE]` (and the MCP tool `queue`): the jobs waiting for a pane. */
export const QUEUE_OPTIONS = {...SERVER_OPTIONS, ...HOST_OPTION} as const satisfies OptionTable;

/** `nudge queue move JOB --first|--before JOB|--after JOB`. */
export const QUEUE_MOVE_OPTIONS = {
  first: {
    type: 'boolean',
    describe: 'to the head of the waiting jobs (typed next)',
  },
  before: {type: 'string', describe: 'just before this waiting job'},
  after: {type: 'string', describe: 'just after this waiting job'},
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** `nudge queue edit JOB [--text TEXT]`: without --text the CLI opens $EDITOR on the text. */
export const QUEUE_EDIT_OPTIONS = {
  text: {
    type: 'string',
    describe: 'the new text (without it: $EDITOR opens on the text)',
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;
