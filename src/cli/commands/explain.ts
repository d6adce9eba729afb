import {JSON_OPTION, SERVER_OPTIONS} from '../../base/option-table.js';
import {EXPLAIN_OPTIONS} from '../../verbs/options/explain.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, paneCommand} from '../options.js';

/** `nudge explain [PANE]`: what nudge sees in a pane, rule by rule. */
export const explainCommand: CliCommand = ({ctx, run}) => ({
  command: 'explain [pane]',
  describe:
    "which program runs in a pane, why nudge recognised it, each rule of its profile on the screen now, and wait's verdict",
  builder: (y) =>
    paneCommand(y, {...EXPLAIN_OPTIONS, ...JSON_OPTION}).example(
      '$0 explain %3',
      'what nudge sees in pane %3',
    ),
  handler: async (a) => {
    const {explainPane} = await import('../../verbs/explain.js');
    const {renderExplain} = await import('../../render/agents.js');
    const options = {
      ...optionsFrom(a, SERVER_OPTIONS),
      ...optionsFrom(a, EXPLAIN_OPTIONS),
      pane: a.pane as string | undefined,
    };
    await run(explainPane(options, ctx), (r, o) => renderExplain(r, jsonOf(a), o));
  },
});
