import type {OptionTable} from '../../base/option-table.js';

/** `nudge recover [--dry-run]` (and the MCP tool `recover`). */
export const RECOVER_OPTIONS = {
  'dry-run': {
    type: 'boolean',
    default: false,
    describe: 'show what would be brought back, and what cannot be and why; change nothing',
  },
} as const satisfies OptionTable;
