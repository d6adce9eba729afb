import {JSON_OPTION} from '../../base/option-table.js';
import {RECOVER_OPTIONS} from '../../commands/options/recover.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge recover [--dry-run]`: bring back what a tmux server that went away had. */
export const recoverCommand: CliCommand = ({ctx, run}) => ({
  command: 'recover',
  describe:
    "after a reboot or a dead tmux server: each run's agent back in a new pane, in its conversation; its queued jobs and schedules moved there (docs/recover.md)",
  builder: (y) =>
    withOptions(y, {...RECOVER_OPTIONS, ...JSON_OPTION})
      .example('$0 recover --dry-run', 'what would come back, and what cannot and why')
      .example('$0 recover', 'bring it back'),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderRecover} = await import('../render-recover.js');
    await run(dispatch('recover', optionsFrom(a, RECOVER_OPTIONS), ctx), (r, o) =>
      renderRecover(r, jsonOf(a), o),
    );
  },
});
