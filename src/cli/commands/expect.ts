import {SERVER_OPTIONS} from '../../base/option-table.js';
import {EXPECT_OPTIONS} from '../../commands/options/expect.js';
import type {CliCommand} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

export const expectCommand: CliCommand = ({ctx, run}) => ({
  command: 'expect <pane> <regex>',
  describe: 'block until REGEX shows in the output (JSON answer)',
  builder: (y) =>
    withOptions(
      withOptions(
        y
          .positional('pane', {type: 'string', demandOption: true})
          .positional('regex', {type: 'string', demandOption: true}),
        SERVER_OPTIONS,
      ),
      EXPECT_OPTIONS,
    ).example(
      "$0 expect %3 'listening on port \\d+' --fail-pattern 'Error'",
      'wait for a server to start',
    ),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderExpect} = await import('../render.js');
    const options = {
      ...optionsFrom(a, EXPECT_OPTIONS),
      ...optionsFrom(a, SERVER_OPTIONS),
      pane: String(a.pane),
      pattern: String(a.regex),
    };
    await run(dispatch('expect', options, ctx), renderExpect);
  },
});
