import {NudgeError} from '../base/errors.js';
import {HOST_OPTION, JSON_OPTION} from '../base/option-table.js';
import {QUEUE_EDIT_OPTIONS, QUEUE_MOVE_OPTIONS, QUEUE_OPTIONS} from '../verbs/options/queue.js';
import {ACTS, type AnyDeclaration, defineCommand, JOB, KEEPS, LOOKS} from './define.js';

/** `nudge queue [PANE]`, `queue move|drop|edit JOB` (the MCP tools queue, queue_move,
 * queue_drop, queue_edit): the jobs waiting for panes, in the person's hands. Each change is
 * atomic against a worker taking the head. */

const render = async () => (await import('../render/queue.js')).renderQueueChange;

export const queueShow = defineCommand({
  verb: 'queue',
  group: 'queue',
  name: 'show',
  describe:
    'list the jobs of a pane (or of every pane): the one at work (▶), then the waiting ones',
  positionals: [
    {
      name: 'pane',
      describe: 'pane: %N or session:window.pane',
      mcp: {describe: '%N; default: every pane with jobs'},
    },
  ],
  options: {...QUEUE_OPTIONS, ...JSON_OPTION},
  groupDefault: true,
  render: async () => (await import('../render/queue.js')).renderQueue,
  mcp: {
    title: 'The jobs waiting for panes',
    annotations: LOOKS,
    description:
      'Per pane, the job at work (atWork) and the ones waiting, in the order they will type, with each text, policy (queue, or wait for an idle pane) and age.',
  },
});

export const queueMove = defineCommand({
  verb: 'queue-move',
  group: 'queue',
  describe: 'put a waiting job first, or before or after another waiting job',
  positionals: [JOB],
  options: {...QUEUE_MOVE_OPTIONS, ...JSON_OPTION},
  examples: [['$0 queue move 1abc-x2y3 --first', 'type that job next']],
  render,
  mcp: {
    title: 'Move a waiting job',
    annotations: KEEPS,
    description:
      'Put a waiting job first, or before or after another waiting job. Refused once the job has taken the pane. Answers the pane’s order now.',
  },
});

export const queueDrop = defineCommand({
  verb: 'queue-drop',
  group: 'queue',
  describe: 'take a waiting job out of the queue: it ends cancelled, nothing typed',
  positionals: [JOB],
  options: {...HOST_OPTION, ...JSON_OPTION},
  render,
  mcp: {
    title: 'Drop a waiting job',
    annotations: {...KEEPS, destructiveHint: true},
    description:
      'Take a waiting job out of its pane’s queue: it ends cancelled and nothing of it is typed. Refused once it has taken the pane (cancel stops it then).',
  },
});

export const queueEdit = defineCommand({
  verb: 'queue-edit',
  group: 'queue',
  describe: "change a waiting job's text: --text, or $EDITOR opens on it",
  positionals: [JOB],
  options: {...QUEUE_EDIT_OPTIONS, ...JSON_OPTION},
  render,
  // Without --text the person edits the text in $EDITOR; the job is held while the editor is
  // open, so it does not type before the edit is in.
  cli: async (options, {dispatch, ctx, stdin}) => {
    if (options.text !== undefined) return dispatch('queue-edit', options, ctx);
    if (stdin !== undefined && !(stdin as {isTTY?: boolean}).isTTY)
      throw new NudgeError('bad-usage', 'Give the new text with --text: $EDITOR needs a terminal.');
    const was = await dispatch('queue-text', {...options, hold: true}, ctx);
    const {editInEditor} = await import('../process/editor.js');
    const edited = await editInEditor(String(was), ctx.env);
    if (!edited.ok) throw new NudgeError('bad-usage', `Nothing was changed: ${edited.why}.`);
    return dispatch('queue-edit', {...options, text: edited.text.replace(/\n$/, '')}, ctx);
  },
  mcp: {
    title: "Edit a waiting job's text",
    annotations: ACTS,
    description: 'Replace the text a waiting job will type. Refused once it has taken the pane.',
  },
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [queueShow, queueMove, queueDrop, queueEdit];
