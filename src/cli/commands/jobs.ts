import {HOST_OPTION, JSON_OPTION} from '../../base/option-table.js';
import {LOGS_OPTIONS} from '../../commands/options/setup.js';
import {type CliCommand, jsonOf} from '../command.js';
import {optionsFrom, withOptions} from '../options.js';

/** `nudge jobs`, `status`, `cancel` and `logs`: the jobs in the store — here, or with
 * `--host` (or a job named `HOST:ID`) on another host. */
export const jobsCommand: CliCommand = ({ctx, run}) => ({
  command: 'jobs',
  describe: 'list jobs (here and on the hosts of config.toml, with a HOST column)',
  builder: (y) => withOptions(y, {...HOST_OPTION, ...JSON_OPTION}),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderJobs} = await import('../render.js');
    await run(dispatch('jobs', optionsFrom(a, HOST_OPTION), ctx), (r, o) =>
      renderJobs(r, jsonOf(a), o),
    );
  },
});

const job = {type: 'string', demandOption: true, describe: 'a job id, or HOST:ID'} as const;

export const statusCommand: CliCommand = ({ctx, run}) => ({
  command: 'status <job>',
  describe: "show one job's state and events",
  builder: (y) => withOptions(y.positional('job', job), {...HOST_OPTION, ...JSON_OPTION}),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderStatus} = await import('../render.js');
    const options = {...optionsFrom(a, HOST_OPTION), job: String(a.job)};
    await run(dispatch('status', options, ctx), (r, o) => renderStatus(r, jsonOf(a), o));
  },
});

/** `cancel --keep-running`: leave the command the job typed running. */
const KEEP_RUNNING = {
  'keep-running': {
    type: 'boolean',
    default: false,
    describe:
      'leave the command the job typed running (default: it is interrupted, C-c, then its process group ended)',
  },
} as const;

export const cancelCommand: CliCommand = ({ctx, run}) => ({
  command: 'cancel <job>',
  describe: 'stop a queued or running job and free its pane',
  builder: (y) =>
    withOptions(y.positional('job', job), {...HOST_OPTION, ...JSON_OPTION, ...KEEP_RUNNING}),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderCancel} = await import('../render.js');
    const keepRunning = a.keepRunning === true;
    const options = {...optionsFrom(a, HOST_OPTION), job: String(a.job), keepRunning};
    await run(dispatch('cancel', options, ctx), (r, o) => renderCancel(r, jsonOf(a), o));
  },
});

export const logsCommand: CliCommand = ({ctx, run}) => ({
  command: 'logs <job>',
  describe: "print a job's worker log",
  builder: (y) => withOptions(y.positional('job', job), LOGS_OPTIONS),
  handler: async (a) => {
    const {dispatch} = await import('../../front/dispatch.js');
    const {renderLogs} = await import('../render.js');
    const options = {...optionsFrom(a, LOGS_OPTIONS), job: String(a.job)};
    await run(dispatch('logs', options, ctx), renderLogs);
  },
});
