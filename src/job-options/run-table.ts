import {NudgeError} from '../base/errors.js';
import {durationOption, HOST_OPTION, type OptionTable} from '../base/option-table.js';
import {STALL_OPTIONS} from '../detect/stall-options.js';
import {SINK_LIST} from '../notify/sinks.js';
import {flagField, msField, SINKS, stores} from './stored.js';

/** `nudge run --agent`: the agent started in the pane, by its profile's name (null: the text
 * is a command). Whether an agent has that name, `nudge run` asks the registry (which the
 * tables do not load); the worker asks it again. */
export const AGENT = stores(
  (z) => ({
    agent: z
      .string()
      .regex(/^[a-z][a-z0-9-]*$/)
      .nullable()
      .describe('a profile name or null'),
  }),
  (v: string | undefined) => ({agent: v ?? null}),
);

/** `nudge run --permissions`: an agent's permission dialog asks a person, or is denied. */
export const PERMISSIONS = stores(
  (z) => ({permissions: z.enum(['ask', 'deny']).describe('ask or deny')}),
  (v: string) => {
    if (v === 'ask' || v === 'deny') return {permissions: v as 'ask' | 'deny'};
    throw new NudgeError('bad-usage', `--permissions is ask or deny, not ${JSON.stringify(v)}.`);
  },
);

/** `nudge run [-- WORDS]` (and the MCP tool `run`). */
export const RUN_OPTIONS = {
  agent: {
    type: 'string',
    describe:
      "start this agent in the pane and give it the prompt: an agent profile's name (nudge agents list)",
    job: AGENT,
  },
  worktree: {
    type: 'string',
    describe: 'run in a new git worktree on a new branch (default name nudge/<job>)',
    valueOptional: true,
  },
  cwd: {type: 'string', describe: 'folder to run in (default: here)'},
  notify: {
    type: 'string',
    multiple: true,
    describe: `tell a person of the end and of each permission stop: ${SINK_LIST} (repeatable; none: not the config file's)`,
    job: SINKS,
  },
  window: {type: 'boolean', describe: 'a new window (the default)'},
  split: {
    type: 'string',
    choices: ['h', 'v'],
    describe: "a split of the caller's window: h side by side, v one above the other",
  },
  session: {
    type: 'string',
    describe: "the session for the window (default: the caller's, else the most recent)",
  },
  'idle-timeout': {
    ...durationOption('stop after this long without output or file changes', {default: '5m'}),
    job: msField('idleTimeoutMs'),
  },
  timeout: {
    ...durationOption('stop after this long in all', {default: '1h'}),
    job: msField('timeoutMs'),
  },
  ...STALL_OPTIONS,
  interval: {
    type: 'string',
    default: '1s',
    hidden: true,
    cliOnly: 'a tuning flag of the tests',
    job: msField('intervalMs', 100),
  },
  'notify-pane': {
    type: 'string',
    describe: 'pane told of the end and of permission stops (default: the caller)',
    mcp: {describe: 'who is told (default: your pane)'},
  },
  notice: {
    type: 'boolean',
    negatable: true,
    describe: '--no-notice: tell no pane',
    cliOnly: 'the tool says it as no_notice',
  },
  permissions: {
    type: 'string',
    choices: ['ask', 'deny'],
    default: 'ask',
    describe: "an agent's permission dialog: ask a person (tell the caller), or deny",
    job: PERMISSIONS,
  },
  close: {
    type: 'boolean',
    default: false,
    describe: 'close the pane at the end',
    job: flagField('close'),
  },
  pr: {
    type: 'boolean',
    default: false,
    describe: 'with --worktree: push the branch and open a pull request (gh)',
    job: flagField('pr'),
  },
  wait: {
    type: 'boolean',
    default: false,
    describe: 'run in the foreground; exit 0 done, 1 failed, 124 timeout',
    mcp: {describe: 'run in the foreground and return the report'},
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;
