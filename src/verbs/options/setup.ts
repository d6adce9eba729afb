import {
  durationOption,
  HOST_OPTION,
  type OptionTable,
  SERVER_OPTIONS,
} from '../../base/option-table.js';

/** `nudge install AGENT`. */
export const INSTALL_OPTIONS = {
  scope: {
    type: 'string',
    choices: ['user', 'project'],
    default: 'user',
    describe: "user: the agent's files in your home; project: the repository's",
  },
  'dry-run': {type: 'boolean', describe: 'print the plan; write nothing'},
  uninstall: {type: 'boolean', describe: 'take out exactly what install added'},
  allow: {
    type: 'boolean',
    describe:
      "also add the agent's rule letting its model run nudge submit, status, jobs and wait without asking (prints what that grants)",
  },
} as const satisfies OptionTable;

/** `nudge schedule SCHEDULER -- [submit options] -- TEXT`. */
export const SCHEDULE_OPTIONS = {
  every: {type: 'string', describe: 'how often: 30m, 2h, 1d'},
  cron: {type: 'string', describe: "when, as a cron expression: '0 9 * * 1-5'"},
  name: {type: 'string', describe: 'names the crontab block, plist or units (default: default)'},
  install: {type: 'boolean', describe: 'put it in place and load it'},
  write: {
    type: 'boolean',
    describe: 'keep the text and mark the pane, for lines you put in place yourself',
  },
  uninstall: {type: 'boolean', describe: 'unload it and take it out'},
} as const satisfies OptionTable;

/** `nudge logs JOB`. */
export const LOGS_OPTIONS = {
  follow: {
    type: 'boolean',
    short: 'f',
    default: false,
    describe: 'keep printing until the job ends',
  },
  pretty: {type: 'boolean', default: false, describe: 'format through pino-pretty'},
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** `nudge jobs` (and the MCP tool `jobs`): which jobs are listed. */
export const JOBS_OPTIONS = {
  ...SERVER_OPTIONS,
  state: {
    type: 'string',
    multiple: true,
    describe: 'only jobs in this state (repeatable: --state done --state failed)',
    mcp: {describe: 'only jobs in these states'},
  },
  pane: {type: 'string', describe: 'only jobs of this pane (%N)'},
  since: durationOption('only jobs submitted within this long (10m, 2h, 7d)'),
  undelivered: {
    type: 'boolean',
    default: false,
    describe:
      'only dead letters: messages that never got through (refused, undeliverable, expired before delivery) and were not resent',
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** `nudge jobs prune` (and the MCP tool `jobs_prune`): remove the records of ended jobs. */
export const JOBS_PRUNE_OPTIONS = {
  'older-than': durationOption(
    "remove jobs that ended longer ago than this (default: config.toml's [jobs] keep, else 30d)",
  ),
  'dry-run': {
    type: 'boolean',
    default: false,
    describe: 'say what would be removed; remove nothing',
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;
