import {EXIT_CODES, NudgeError} from '../../base/errors.js';
import {JSON_OPTION} from '../../base/option-table.js';
import {NEXT_OPTIONS, STATUS_LINE_OPTIONS, TOP_OPTIONS} from '../../verbs/options/panes.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge status-line`: a segment for tmux's status bar. */
export const statusLineCommand: CliCommand = ({ctx, run}) => ({
  command: 'status-line',
  describe:
    'a tmux status segment: the panes that need you first, then what is at work (docs/tmux-status.md)',
  builder: (y) =>
    withOptions(y, {...STATUS_LINE_OPTIONS, ...JSON_OPTION}).example(
      'set -g status-right \'#(nudge status-line -S "#{socket_path}")\'',
      'in ~/.tmux.conf',
    ),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderStatusLine} = await import('../../render/panes.js');
    await run(dispatch('status-line', optionsFrom(a, STATUS_LINE_OPTIONS), ctx), (r, o) =>
      renderStatusLine(r, jsonOf(a), a.plain === true, o),
    );
  },
});

/** `nudge next`: go to the next pane that needs the person. */
export const nextCommand: CliCommand = ({ctx, run}) => ({
  command: 'next',
  describe: 'go to the next pane that needs you (blocked, then failed, then done)',
  builder: (y) =>
    withOptions(y, {...NEXT_OPTIONS, ...JSON_OPTION}).example(
      'bind-key N run-shell \'nudge next -S "#{socket_path}" --client "#{client_name}"\'',
      'in ~/.tmux.conf: prefix N',
    ),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderNext} = await import('../../render/panes.js');
    await run(dispatch('next', optionsFrom(a, NEXT_OPTIONS), ctx), (r, o) =>
      renderNext(r, jsonOf(a), o),
    );
  },
});

/** `nudge top`: the live view of the server's panes and jobs (Ink, loaded only here). */
export const topCommand: CliCommand = ({ctx, run, stdio}) => ({
  command: 'top',
  describe:
    'a live view of every pane nudge knows on the server: program, state, job, queue, the question if blocked; keys to go there, cancel, open the queue',
  builder: (y) => withOptions(y, {...TOP_OPTIONS, ...JSON_OPTION}),
  handler: async (a) => {
    const options = optionsFrom(a, TOP_OPTIONS);
    const {dispatch} = await import('../../front/dispatch.js');
    if (options.once || a.json === true) {
      const {topText} = await import('../top.js');
      await run(dispatch('top', options, ctx), (r, o) => {
        if (a.json === true) o.stdout(JSON.stringify(r));
        else for (const line of topText(r)) o.stdout(line);
        return EXIT_CODES.ok;
      });
      return;
    }
    const tty = (s: unknown) => (s as {isTTY?: boolean} | undefined)?.isTTY === true;
    if (!tty(stdio.stdin) || !tty(stdio.stdout))
      throw new NudgeError(
        'bad-usage',
        'nudge top needs a terminal (a tty on stdin and stdout); nudge top --once prints the view once.',
      );
    const {runTop} = await import('../top.js');
    await run(
      runTop(options, ctx).then(() => EXIT_CODES.ok),
      (code) => code,
    );
  },
});
