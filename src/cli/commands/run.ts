import {SERVER_OPTIONS} from '../../base/option-table.js';
import {RUN_OPTIONS} from '../../commands/options/run.js';
import {type CliCommand, jsonOf, wordsOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

export const runCommand: CliCommand = ({ctx, run}) => ({
  command: 'run [words..]',
  describe:
    'run a command (or an agent with a prompt) in a new pane, watch it, report back (returns at once)',
  builder: (y) =>
    withOptions(
      withOptions(
        y.positional('words', {
          type: 'string',
          array: true,
          describe: 'the command, or with --agent the prompt (put it after --)',
        }),
        SERVER_OPTIONS,
      ),
      {...RUN_OPTIONS, json: {type: 'boolean', default: false}},
    )
      .example('$0 run -- make test', 'run the tests in a new window; be told when they end')
      .example(
        "$0 run --agent claude --worktree -- 'add a --verbose flag'",
        'hand a task to Claude Code on a new branch',
      ),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderRun} = await import('../render.js');
    const {worktree, ...rest} = optionsFrom(a, RUN_OPTIONS);
    const options = {
      ...rest,
      ...optionsFrom(a, SERVER_OPTIONS),
      words: wordsOf(a, 'words'),
      // `--worktree` alone: a branch named after the job.
      worktree: worktree === '' ? true : worktree,
    };
    await run(dispatch('run', options, ctx), (r, o) => renderRun(r, jsonOf(a), o));
  },
});
