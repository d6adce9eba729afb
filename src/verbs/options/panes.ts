import {HOST_OPTION, type OptionTable, SERVER_OPTIONS} from '../../base/option-table.js';

/** `nudge status-line`: a segment for tmux's status bar (the workers keep it in `@nudge-status`). */
export const STATUS_LINE_OPTIONS = {
  ...SERVER_OPTIONS,
  plain: {type: 'boolean', default: false, describe: 'no tmux #[…] styles'},
} as const satisfies OptionTable;

/** `nudge next`: go to the next pane that needs the person. */
export const NEXT_OPTIONS = {
  ...SERVER_OPTIONS,
  client: {
    type: 'string',
    describe: 'the tmux client to move (#{client_name} in a key binding; default: the current one)',
  },
} as const satisfies OptionTable;

/** `nudge top`: the live view of the server's panes and jobs. */
export const TOP_OPTIONS = {
  ...SERVER_OPTIONS,
  ...HOST_OPTION,
  once: {type: 'boolean', default: false, describe: 'print the view once and exit (no keys)'},
} as const satisfies OptionTable;

/** What `top` does when a row is chosen: the client brought to the pane. */
export const JUMP_OPTIONS = {
  ...SERVER_OPTIONS,
  client: NEXT_OPTIONS.client,
} as const satisfies OptionTable;
