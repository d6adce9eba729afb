import type {AnyDeclaration} from './define.js';
import {cancel, jobs, logs, status} from './jobs.js';
import {expect, submit, wait} from './panes.js';
import {queueDrop, queueEdit, queueMove, queueShow} from './queue.js';
import {doctor, recover, run} from './run.js';
import {next, statusLine} from './views.js';
import {watchClear, watchList, watchPause, watchReport, watchShow, watchStart} from './watch.js';

/**
 * Every declared command, in the order `nudge --help` lists them (a group at its first
 * member) and `nudge mcp` lists their tools. The CLI (src/cli/declared.ts) and the MCP server
 * (src/mcp/tools.ts) are loops over this list.
 */
export const DECLARED: readonly AnyDeclaration[] = [
  submit,
  wait,
  expect,
  jobs,
  status,
  cancel,
  queueShow,
  queueMove,
  queueDrop,
  queueEdit,
  statusLine,
  next,
  logs,
  run,
  watchStart,
  watchReport,
  watchPause,
  watchClear,
  watchShow,
  watchList,
  doctor,
  recover,
];

/** The command groups (`nudge watch …`, `nudge queue …`): what `--help` says of each, and
 * what a group named without its command says (absent: its default command runs). */
export const GROUPS: Readonly<Record<string, {describe: string; demand?: string}>> = {
  queue: {
    describe: 'the jobs waiting for each pane, in order; move, drop or edit one before it types',
  },
  watch: {
    describe:
      'the watcher loop: each report waits, lets the pane go idle, asks an assessor, injects the next line or pauses',
    demand: 'Give a watch command: start, report, pause, clear, show or list.',
  },
};
