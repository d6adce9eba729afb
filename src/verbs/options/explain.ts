import type {OptionTable} from '../../base/option-table.js';

/** `nudge explain [PANE]`. */
export const EXPLAIN_OPTIONS = {
  profile: {
    type: 'string',
    describe: 'read the pane with this profile (default: recognise it)',
  },
} as const satisfies OptionTable;
