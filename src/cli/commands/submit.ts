import {SUBMIT_OPTIONS} from '../../commands/options/submit.js';
import type {CliCommand} from '../command.js';
import {wordsOf} from '../command.js';
import {withOptions} from '../options.js';
import {toSubmitOptions} from '../submit-flags.js';

export const submitCommand: CliCommand = ({ctx, run, submit}) => ({
  command: 'submit [text..]',
  describe: 'type text into a pane, wait until it is done, type a notice (returns at once)',
  builder: (y) =>
    withOptions(
      y.positional('text', {
        type: 'string',
        array: true,
        describe: 'the text to type (put it after --)',
      }),
      SUBMIT_OPTIONS,
    )
      .example("$0 submit --pane %3 -- 'npm test'", 'type "npm test" into pane %3, then notify it')
      .example(
        "$0 submit --pane %4 --notify-pane %1 --until exit -- 'make'",
        'build in %4, wake %1 with the exit status',
      )
      .example(
        "$0 submit --host gpu --pane %2 --notify-pane self --until exit -- 'make train'",
        'train on the host gpu, wake this pane when it ends',
      ),
  handler: async (a) => {
    const {json, ...options} = toSubmitOptions(a, wordsOf(a, 'text'));
    const {renderSubmit} = await import('../render.js');
    const {dispatch} = await import('../../front/dispatch.js');
    await run(dispatch('submit', options, ctx, submit), (r, o) =>
      renderSubmit(r, json ?? false, o),
    );
  },
});
