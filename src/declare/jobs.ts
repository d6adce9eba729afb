import {HOST_OPTION, JSON_OPTION} from '../base/option-table.js';
import {JOBS_OPTIONS, JOBS_PRUNE_OPTIONS, LOGS_OPTIONS} from '../verbs/options/setup.js';
import {ACTS, type AnyDeclaration, defineCommand, JOB, KEEPS, LOOKS} from './define.js';

/** `nudge jobs`, `status`, `cancel` and `logs`: the jobs in the store — here, or with
 * `--host` (or a job named `HOST:ID`) on another host. */

export const jobs = defineCommand({
  verb: 'jobs',
  group: 'jobs',
  name: 'list',
  groupDefault: true,
  describe: 'list jobs (here and on the hosts of config.toml, with a HOST column)',
  options: {...JOBS_OPTIONS, ...JSON_OPTION},
  examples: [
    ['$0 jobs --state failed --since 1h', 'what failed in the last hour'],
    ['$0 jobs -L work --pane %3', 'the jobs of pane %3 on the server tmux -L work'],
  ],
  render: async () => (await import('../render/render.js')).renderJobs,
  mcp: {
    title: 'The jobs',
    annotations: LOOKS,
    description:
      'Every job, newest last: here and on the hosts of config.toml (each remote job with its host), or on one host.',
    answer: ({jobs, unreachable}) => ({
      value: unreachable.length > 0 ? {jobs, unreachable} : {jobs},
    }),
  },
});

export const jobsPrune = defineCommand({
  verb: 'jobs-prune',
  group: 'jobs',
  describe:
    "remove the records of jobs that ended longer ago than --older-than (config.toml's [jobs] keep, else 30d)",
  options: {...JOBS_PRUNE_OPTIONS, ...JSON_OPTION},
  examples: [['$0 jobs prune --older-than 7d --dry-run', 'what a week of history would leave']],
  render: async () => (await import('../render/render.js')).renderPruned,
  mcp: {none: "removing the job history is the person's to do, not an agent's"},
});

export const status = defineCommand({
  verb: 'status',
  describe: "show one job's state and events",
  positionals: [JOB],
  options: {...HOST_OPTION, ...JSON_OPTION},
  render: async () => (await import('../render/status.js')).renderStatus,
  mcp: {
    title: "A job's state",
    annotations: LOOKS,
    description: "A job's state, outcome and events.",
  },
});

export const cancel = defineCommand({
  verb: 'cancel',
  describe: 'stop a queued or running job and free its pane',
  positionals: [JOB],
  options: {
    ...HOST_OPTION,
    ...JSON_OPTION,
    'keep-running': {
      type: 'boolean',
      default: false,
      describe:
        'leave the command the job typed running (default: it is interrupted, C-c, then its process group ended)',
      mcp: {name: 'keep_running', describe: 'leave the command the job typed running'},
    },
  },
  render: async () => (await import('../render/render.js')).renderCancel,
  mcp: {
    title: 'Cancel a job',
    annotations: {...KEEPS, destructiveHint: true, idempotentHint: true},
    description:
      'Stop a queued or running job and free its pane; the command it typed into a shell is interrupted unless keep_running.',
  },
});

export const resend = defineCommand({
  verb: 'resend',
  describe:
    'send a dead letter again (a message that never got through: nudge jobs --undelivered) as a new job, its id carried on',
  positionals: [JOB],
  options: {
    ...HOST_OPTION,
    ...JSON_OPTION,
    pane: {
      type: 'string',
      describe:
        "send it to this pane of the job's tmux server instead (%N): its agent came back elsewhere",
    },
  },
  examples: [
    ['$0 jobs --undelivered', 'the messages that never got through, and why'],
    ['$0 resend 0mwt8k2p1-3f9a --pane %7', 'send one again, to the agent now in pane %7'],
  ],
  render: async () => (await import('../render/resend.js')).renderResend,
  mcp: {
    title: 'Send a dead letter again',
    annotations: ACTS,
    description:
      'Send again a message that never got through (refused, undeliverable, or expired before delivery; jobs with undelivered lists them) as a new job with the same text and options, to its pane or to pane; its message id goes on with it. A job that got through, is still going on, or was resent already is refused.',
  },
});

export const logs = defineCommand({
  verb: 'logs',
  describe: "print a job's worker log",
  positionals: [JOB],
  options: LOGS_OPTIONS,
  render: async () => {
    const {renderLogs} = await import('../render/render.js');
    return (r, _json, out) => renderLogs(r, out);
  },
  mcp: {none: 'a worker log is for a person (status answers the events); --follow streams'},
});

/** This file's commands, in the order `--help` lists them. */
export const COMMANDS: readonly AnyDeclaration[] = [jobs, jobsPrune, status, cancel, resend, logs];
