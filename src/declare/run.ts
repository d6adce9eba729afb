import {HOST_OPTION, JSON_OPTION, SERVER_OPTIONS} from '../base/option-table.js';
import {RUN_OPTIONS} from '../job-options/run-table.js';
import {RECOVER_OPTIONS} from '../verbs/options/recover.js';
import {ACTS, type AnyDeclaration, defineCommand, LOOKS} from './define.js';

/** `nudge run`, `recover` and `doctor`: a pane of its own, what a lost server had, the set-up. */

export const run = defineCommand({
  verb: 'run',
  describe:
    'run a command (or an agent with a prompt) in a new pane, watch it, report back (returns at once)',
  positionals: [
    {
      name: 'words',
      variadic: true,
      describe: 'the command, or with --agent the prompt (put it after --)',
      mcp: {
        name: 'command',
        describe: 'the shell command line to run, or with agent the prompt to give it',
      },
    },
  ],
  options: {...SERVER_OPTIONS, ...RUN_OPTIONS, ...JSON_OPTION},
  examples: [
    ['$0 run -- make test', 'run the tests in a new window; be told when they end'],
    [
      "$0 run --agent claude --worktree -- 'add a --verbose flag'",
      'hand a task to Claude Code on a new branch',
    ],
  ],
  toOptions: ({words, worktree, noNotice, json: _json, ...options}) => ({
    ...options,
    words: (words as string[] | undefined) ?? [],
    // `--worktree` alone: a branch named after the job.
    worktree: worktree === '' ? true : (worktree as boolean | string | undefined),
    ...(noNotice === true ? {notice: false} : {}),
  }),
  render: async () => (await import('../render/render.js')).renderRun,
  mcp: {
    title: 'Run a command or an agent in its own pane',
    annotations: ACTS,
    description:
      'Offered only when nudge mcp was started with --allow-exec (it runs a command). Open a new tmux window (or a split of yours), optionally in a new git worktree, run a shell command there — or start an agent CLI and give it a prompt — and watch it with an idle and a total timeout. Returns the job id at once; a one-line notice with the report path wakes you when it ends (nudge status JOB shows the report).',
    arguments: [
      {
        name: 'worktree',
        key: 'worktree',
        type: 'boolean-or-string',
        describe: 'true: a new worktree on branch nudge/<job>; a string: that branch',
      },
      {name: 'no_notice', key: 'noNotice', type: 'boolean', describe: 'tell no pane'},
    ],
    // A tool that runs a command is there only when the person started the server so.
    offered: (policy) => policy.allowExec,
  },
});

export const recover = defineCommand({
  verb: 'recover',
  describe:
    "after a reboot or a dead tmux server: each run's agent back in a new pane, in its conversation; its queued jobs and schedules moved there (docs/recover.md)",
  options: {...RECOVER_OPTIONS, ...JSON_OPTION},
  examples: [
    ['$0 recover --dry-run', 'what would come back, and what cannot and why'],
    ['$0 recover', 'bring it back'],
  ],
  render: async () => (await import('../render/recover.js')).renderRecover,
  mcp: {
    title: 'Bring back what a lost tmux server had',
    annotations: ACTS,
    description:
      "After a reboot or a tmux server that went away: each run's agent in a new session and pane, started again into its conversation; the jobs queued for such a pane submitted to its new pane; schedules marked again. What cannot come back is listed with why. dry_run (the default unless nudge mcp was started with --allow-exec, since it starts the agents again) only shows the plan.",
    // Starting the agents again runs commands: only with --allow-exec; else the plan.
    police: (options, policy) => ({
      ...options,
      dryRun: !policy.allowExec || options.dryRun === true,
    }),
  },
});

export const doctor = defineCommand({
  verb: 'doctor',
  describe:
    'check tmux, the server, this pane, node, the state directory, control mode and each agent',
  options: {
    ...SERVER_OPTIONS,
    ...HOST_OPTION,
    json: {...JSON_OPTION.json, default: undefined, describe: 'print the checks as JSON'},
  },
  examples: [
    ['$0 doctor', 'ok, warn or fail for each check, with the fix'],
    ['$0 doctor --host gpu', 'the way to the host gpu, then its own checks'],
  ],
  render: async () => (await import('../render/setup.js')).renderDoctor,
  mcp: {
    title: 'Check the setup',
    annotations: LOOKS,
    description:
      'What nudge needs, each ok, warn or fail with one sentence of fix: tmux, the server, this pane, control mode, node, the state directory, and each agent CLI with nudge installed for it.',
  },
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [run, recover, doctor];
