import {JSON_OPTION, SERVER_OPTIONS} from '../../base/option-table.js';
import {WAIT_OPTIONS} from '../../commands/options/wait.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, paneCommand} from '../options.js';

export const waitCommand: CliCommand = ({ctx, run}) => ({
  command: 'wait [pane]',
  describe: 'block until a pane is idle (exit 0) or the timeout passes (exit 124)',
  builder: (y) =>
    paneCommand(y, {...WAIT_OPTIONS, ...JSON_OPTION}).example(
      '$0 wait %3 --timeout 2m',
      'wait until pane %3 has settled',
    ),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderWait} = await import('../render.js');
    const options = {
      ...optionsFrom(a, WAIT_OPTIONS),
      ...optionsFrom(a, SERVER_OPTIONS),
      pane: a.pane as string | undefined,
    };
    await run(dispatch('wait', options, ctx), (r, o) => renderWait(r, jsonOf(a), o));
  },
});
