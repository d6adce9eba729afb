import {NudgeError} from '../base/errors.js';
import {HOST_OPTION, JSON_OPTION, SERVER_OPTIONS} from '../base/option-table.js';
import {WATCH_REPORT_OPTIONS, WATCH_START_OPTIONS} from '../verbs/options/watch.js';
import {ACTS, type AnyDeclaration, defineCommand, KEEPS, type Positional} from './define.js';

/** `nudge watch start|report|pause|clear|show|list` (the MCP tools watch_me, look_ma, pause,
 * clear): the watcher loop. */

const NAME: Positional = {name: 'name', required: true, describe: "the watcher's name"};
const NAME_AND_HOST = {...HOST_OPTION, ...JSON_OPTION};

export const watchStart = defineCommand({
  verb: 'watch-start',
  group: 'watch',
  describe: 'create a watcher (prints "watching") or change one ("updated")',
  positionals: [NAME],
  options: {...SERVER_OPTIONS, ...WATCH_START_OPTIONS, ...JSON_OPTION},
  examples: [
    [
      "$0 watch start tests --pane %3 --plan 'make every test pass' --assess-cmd 'python3 assess.py'",
      'watch pane %3',
    ],
  ],
  render: async () => (await import('../render/render.js')).renderWatchStart,
  mcp: {
    name: 'watch_me',
    title: 'Start a watcher on a plan',
    annotations: ACTS,
    description:
      'Start (or update) a watcher for your pane: each time you report with look_ma it waits, lets the pane go idle, asks an assessor whether the plan is done, and either pauses or types the next single instruction into your pane. Answers "watching" (new) or "updated".',
    // The assessor is the one nudge mcp was started with (a tool call names none).
    police: (options, policy) => ({...options, ...policy.assess}),
    answer: (r) => ({text: r.result, value: r}),
  },
});

export const watchReport = defineCommand({
  verb: 'watch-report',
  group: 'watch',
  describe:
    'report progress (look_ma): prints "recorded+waiting" at once; a cycle waits, lets the pane go idle, asks the assessor',
  positionals: [
    {...NAME, mcp: {optional: true, describe: "default: your pane's watcher"}},
    {name: 'status', required: true, describe: 'what you did', mcp: {name: 'status_report'}},
  ],
  options: {...WATCH_REPORT_OPTIONS, ...JSON_OPTION},
  examples: [
    [
      "$0 watch report tests 'fixed the parser' --bash-wait 'npm test'",
      'report, then run the tests as the wait',
    ],
  ],
  render: async () => (await import('../render/render.js')).renderWatchReport,
  mcp: {
    name: 'look_ma',
    title: 'Report progress to the watcher',
    annotations: ACTS,
    description:
      'Report what you did. Answers "recorded+waiting" at once; then the watcher waits (bash_wait, a command, is taken only when nudge mcp was started with --allow-exec; else a sleep), lets your pane go idle, and asks its assessor: the next instruction arrives in your pane as a new prompt, or the watcher pauses.',
    police: (options, policy) => {
      if (options.bashWait !== undefined && !policy.allowExec)
        throw new NudgeError(
          'bad-usage',
          'bash_wait runs a command, and this nudge mcp was not started with --allow-exec; report without it (the watcher sleeps), or ask the person to add --allow-exec.',
        );
      return options;
    },
    answer: (r) => ({text: r.result, value: r}),
  },
});

export const watchPause = defineCommand({
  verb: 'watch-pause',
  group: 'watch',
  describe: 'pause a watcher (nothing more is typed) and print the next step the assessor suggests',
  positionals: [NAME],
  options: NAME_AND_HOST,
  render: async () => (await import('../render/render.js')).renderWatchPause,
  mcp: {
    name: 'pause',
    title: 'Pause a watcher',
    annotations: {...KEEPS, idempotentHint: true},
    description:
      'Pause the watcher (nothing more is typed) and answer the next step its assessor suggests.',
  },
});

export const watchClear = defineCommand({
  verb: 'watch-clear',
  group: 'watch',
  describe: 'stop a running cycle and remove the watcher',
  positionals: [NAME],
  options: NAME_AND_HOST,
  render: async () => (await import('../render/render.js')).renderWatchClear,
  mcp: {
    name: 'clear',
    title: 'Remove a watcher',
    annotations: {...KEEPS, destructiveHint: true, idempotentHint: true},
    description: 'Stop its running cycle and remove it.',
  },
});

export const watchShow = defineCommand({
  verb: 'watch-show',
  group: 'watch',
  describe: "a watcher's state, pane, plan, assessor and transcript",
  positionals: [NAME],
  options: NAME_AND_HOST,
  render: async () => (await import('../render/render.js')).renderWatchShow,
  mcp: {none: 'a watcher reports to its own agent through look_ma; the view is for a person'},
});

export const watchList = defineCommand({
  verb: 'watch-list',
  group: 'watch',
  describe: 'the watchers',
  options: NAME_AND_HOST,
  render: async () => (await import('../render/render.js')).renderWatchList,
  mcp: {none: 'the view is for a person; an agent has its own watcher by name'},
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [
  watchStart,
  watchReport,
  watchPause,
  watchClear,
  watchShow,
  watchList,
];
