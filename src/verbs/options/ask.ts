import {
  durationOption,
  JSON_OPTION,
  type OptionTable,
  SERVER_OPTIONS,
} from '../../base/option-table.js';
import {SUBMIT_OPTIONS} from './submit.js';

/** `nudge ask --pane %N -- TEXT` (and the MCP tool `ask`). */
export const ASK_OPTIONS = {
  pane: {
    ...SUBMIT_OPTIONS.pane,
    describe: "the agent's pane: %N or session:window.pane (not your own)",
    mcp: {describe: "the agent's pane: %N or session:window.pane (not your own)"},
  },
  ...SERVER_OPTIONS,
  timeout: durationOption('give up waiting for the turn after this long (exit 124)', {
    default: '10m',
  }),
  id: {
    ...SUBMIT_OPTIONS.id,
    describe:
      "your id for this question: asked again with the same id (a retry), the first ask's reply is the answer and nothing is typed again",
  },
  ...JSON_OPTION,
} as const satisfies OptionTable;
