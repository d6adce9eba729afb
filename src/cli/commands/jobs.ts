import {LOGS_OPTIONS} from '../../commands/options/setup.js';
import {JSON_OPTION} from '../../commands/options/table.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge jobs`, `status`, `cancel` and `logs`: the jobs in the store. */
export const jobsCommand: CliCommand = ({ctx, run}) => ({
  command: 'jobs',
  describe: 'list jobs',
  builder: (y) => withOptions(y, JSON_OPTION),
  handler: async (a) => {
    const {listJobs} = await import('../../commands/jobs.js');
    const {renderJobs} = await import('../render.js');
    await run(listJobs({}, ctx), (r, o) => renderJobs(r, jsonOf(a), o));
  },
});

export const statusCommand: CliCommand = ({ctx, run}) => ({
  command: 'status <job>',
  describe: "show one job's state and events",
  builder: (y) =>
    withOptions(y.positional('job', {type: 'string', demandOption: true}), JSON_OPTION),
  handler: async (a) => {
    const {showStatus} = await import('../../commands/jobs.js');
    const {renderStatus} = await import('../render.js');
    await run(showStatus({job: String(a.job)}, ctx), (r, o) => renderStatus(r, jsonOf(a), o));
  },
});

export const cancelCommand: CliCommand = ({ctx, run}) => ({
  command: 'cancel <job>',
  describe: 'stop a queued or running job and free its pane',
  builder: (y) =>
    withOptions(y.positional('job', {type: 'string', demandOption: true}), JSON_OPTION),
  handler: async (a) => {
    const {cancelJob} = await import('../../commands/cancel.js');
    const {renderCancel} = await import('../render.js');
    await run(cancelJob({job: String(a.job)}, ctx), (r, o) => renderCancel(r, jsonOf(a), o));
  },
});

export const logsCommand: CliCommand = ({ctx, run}) => ({
  command: 'logs <job>',
  describe: "print a job's worker log",
  builder: (y) =>
    withOptions(y.positional('job', {type: 'string', demandOption: true}), LOGS_OPTIONS),
  handler: async (a) => {
    const {showLogs} = await import('../../commands/logs.js');
    const {renderLogs} = await import('../render.js');
    await run(showLogs({job: String(a.job), ...optionsFrom(a, LOGS_OPTIONS)}, ctx), renderLogs);
  },
});
