import {JSON_OPTION} from '../base/option-table.js';
import {NEXT_OPTIONS, STATUS_LINE_OPTIONS} from '../verbs/options/panes.js';
import {type AnyDeclaration, defineCommand} from './define.js';

/** `nudge status-line` and `next`: the person's views of the server's panes, from tmux's own
 * status bar and key bindings (`nudge top` is the CLI's: src/cli/local.ts). */

const FOR_THE_PERSON =
  "a view for the person in tmux's status bar or key bindings; an agent reads the same through jobs and status";

export const statusLine = defineCommand({
  verb: 'status-line',
  describe:
    'a tmux status segment: the panes that need you first, then what is at work (docs/tmux-status.md)',
  options: {...STATUS_LINE_OPTIONS, ...JSON_OPTION},
  examples: [
    ["set -g status-right '#{@nudge-status} '", 'in ~/.tmux.conf: the same, kept by the workers'],
  ],
  render: async () => {
    const {renderStatusLine} = await import('../render/panes.js');
    return (r, json, out, o) => renderStatusLine(r, json, o.plain === true, out);
  },
  mcp: {none: FOR_THE_PERSON},
});

export const next = defineCommand({
  verb: 'next',
  describe: 'go to the next pane that needs you (blocked, then failed, then done)',
  options: {...NEXT_OPTIONS, ...JSON_OPTION},
  examples: [
    [
      'bind-key N run-shell \'nudge next -S "#{socket_path}" --client "#{client_name}"\'',
      'in ~/.tmux.conf: prefix N',
    ],
  ],
  render: async () => (await import('../render/panes.js')).renderNext,
  mcp: {none: FOR_THE_PERSON},
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [statusLine, next];
