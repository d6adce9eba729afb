import type {Argv} from 'yargs';
import {NudgeError} from '../../base/errors.js';
import {HOST_OPTION, JSON_OPTION} from '../../base/option-table.js';
import {
  QUEUE_EDIT_OPTIONS,
  QUEUE_MOVE_OPTIONS,
  QUEUE_OPTIONS,
} from '../../commands/options/queue.js';
import {type CliCommand, type CliEnv, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge queue [PANE]`, `queue move|drop|edit JOB`: the jobs waiting for panes, in the
 * person's hands. */
export const queueCommand: CliCommand = (env) => ({
  command: 'queue',
  describe: 'the jobs waiting for each pane, in order; move, drop or edit one before it types',
  builder: (y) => queueCommands(y, env),
  handler: () => {},
});

const job = {type: 'string', demandOption: true, describe: 'a job id, or HOST:ID'} as const;

function queueCommands<A>(y: Argv<A>, {ctx, run, stdio}: CliEnv) {
  const load = async () => ({
    ...(await import('../../front/dispatch.js')),
    ...(await import('../render-queue.js')),
  });
  return y
    .command(
      ['show [pane]', '$0 [pane]'],
      'list the jobs of a pane (or of every pane): the one at work (▶), then the waiting ones',
      (b) =>
        withOptions(
          b.positional('pane', {type: 'string', describe: 'pane: %N or session:window.pane'}),
          {...QUEUE_OPTIONS, ...JSON_OPTION},
        ),
      async (a) => {
        const {dispatch, renderQueue} = await load();
        const options = {...optionsFrom(a, QUEUE_OPTIONS), pane: a.pane as string | undefined};
        await run(dispatch('queue', options, ctx), (r, o) => renderQueue(r, jsonOf(a), o));
      },
    )
    .command(
      'move <job>',
      'put a waiting job first, or before or after another waiting job',
      (b) =>
        withOptions(b.positional('job', job), {...QUEUE_MOVE_OPTIONS, ...JSON_OPTION}).example(
          '$0 queue move 1abc-x2y3 --first',
          'type that job next',
        ),
      async (a) => {
        const {dispatch, renderQueueChange} = await load();
        const options = {...optionsFrom(a, QUEUE_MOVE_OPTIONS), job: String(a.job)};
        await run(dispatch('queue-move', options, ctx), (r, o) =>
          renderQueueChange(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'drop <job>',
      'take a waiting job out of the queue: it ends cancelled, nothing typed',
      (b) => withOptions(b.positional('job', job), {...HOST_OPTION, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderQueueChange} = await load();
        const options = {...optionsFrom(a, HOST_OPTION), job: String(a.job)};
        await run(dispatch('queue-drop', options, ctx), (r, o) =>
          renderQueueChange(r, jsonOf(a), o),
        );
      },
    )
    .command(
      'edit <job>',
      "change a waiting job's text: --text, or $EDITOR opens on it",
      (b) => withOptions(b.positional('job', job), {...QUEUE_EDIT_OPTIONS, ...JSON_OPTION}),
      async (a) => {
        const {dispatch, renderQueueChange} = await load();
        const options = {...optionsFrom(a, QUEUE_EDIT_OPTIONS), job: String(a.job)};
        const edit = async () => {
          if (options.text !== undefined) return dispatch('queue-edit', options, ctx);
          if (stdio.stdin !== undefined && !(stdio.stdin as {isTTY?: boolean}).isTTY)
            throw new NudgeError(
              'bad-usage',
              'Give the new text with --text: $EDITOR needs a terminal.',
            );
          // Held while the editor is open: the job does not type before the edit is in.
          const was = await dispatch('queue-text', {...options, hold: true}, ctx);
          const {editInEditor} = await import('../../process/editor.js');
          const edited = await editInEditor(String(was), ctx.env);
          if (!edited.ok) throw new NudgeError('bad-usage', `Nothing was changed: ${edited.why}.`);
          const text = edited.text.replace(/\n$/, '');
          return dispatch('queue-edit', {...options, text}, ctx);
        };
        await run(edit(), (r, o) => renderQueueChange(r, jsonOf(a), o));
      },
    )
    .demandCommand(0);
}
