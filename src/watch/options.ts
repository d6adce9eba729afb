import {resolve} from 'node:path';
import {READ_LIMITS, ReadRefused, readTextCapped} from '../base/bounded-read.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {
  durationOption,
  HOST_OPTION,
  type OptionsOf,
  type OptionTable,
} from '../base/option-table.js';
import {resolveStall, STALL_OPTIONS} from '../detect/stall-options.js';
import {ON_LIMIT, parseOnLimit, parseResumeText} from '../job-options/policies.js';
import {SUBMIT_OPTIONS} from '../job-options/table.js';
import {SINK_LIST} from '../notify/sinks.js';
import {type AssessorSpec, WATCH_DEFAULTS, type WatcherOptions} from './record.js';

/** Why `watch_me` takes no assessor: what judges an agent is the person's (nudge mcp's flags),
 * not the watched agent's. */
const ASSESSOR_IS_THE_PERSONS = "the assessor is nudge mcp's (--assess-cmd …), not the agent's";

/** `nudge watch start NAME` (and the MCP tool `watch_me`). */
export const WATCH_START_OPTIONS = {
  pane: {
    type: 'string',
    describe: 'the pane watched: %N or session:window.pane (default $TMUX_PANE)',
  },
  plan: {type: 'string', describe: 'the plan: TEXT or @FILE'},
  'assess-cmd': {
    cliOnly: ASSESSOR_IS_THE_PERSONS,
    type: 'string',
    describe:
      'assessor command: words or a JSON array, no shell (prompt JSON on stdin, answer JSON on stdout)',
  },
  'assess-url': {
    cliOnly: ASSESSOR_IS_THE_PERSONS,
    type: 'string',
    describe: 'assessor: an OpenAI-compatible endpoint (…/v1 or …/v1/chat/completions)',
  },
  'assess-model': {
    type: 'string',
    describe: 'the model --assess-url serves',
    cliOnly: ASSESSOR_IS_THE_PERSONS,
  },
  'assess-key-env': {
    type: 'string',
    describe: 'environment variable holding the API key',
    cliOnly: ASSESSOR_IS_THE_PERSONS,
  },
  'idle-threshold': durationOption('the pane must be still this long before assessing', {
    implied: WATCH_DEFAULTS.idleThreshold,
  }),
  'idle-timeout': durationOption('pause if the pane is not idle within this', {
    implied: WATCH_DEFAULTS.idleTimeout,
  }),
  'default-wait': durationOption('sleep this long when a report has no --bash-wait', {
    implied: WATCH_DEFAULTS.defaultWait,
  }),
  'wait-timeout': durationOption('stop a --bash-wait command after this', {
    implied: WATCH_DEFAULTS.waitTimeout,
  }),
  'assess-timeout': durationOption('give up on the assessor after this', {
    implied: WATCH_DEFAULTS.assessTimeout,
  }),
  'transcript-cap': {
    mcp: {number: true},
    type: 'string',
    implied: WATCH_DEFAULTS.transcriptCap,
    describe: 'transcript entries kept, oldest dropped',
  },
  enter: {
    type: 'boolean',
    describe: 'press Enter after an injected line (--no-enter: leave it typed)',
  },
  'allow-commands': {
    cliOnly: "a model cannot grant its own watcher commands: that is the person's choice",
    type: 'boolean',
    describe:
      "type an assessor's line that starts with ! / or $ (a shell-mode command or slash command in the agent); without it such a line pauses the watcher",
  },
  notify: {
    type: 'string',
    multiple: true,
    describe: `tell a person when the watcher pauses (done, blocked, timeout, failed): ${SINK_LIST} (repeatable; none: not the config file's)`,
  },
  'on-limit': {
    type: 'string',
    choices: ON_LIMIT,
    describe:
      'a usage limit at the idle step: stop (pause) or wait for its reset, then type --resume-text',
  },
  'limit-margin': durationOption('how long after a usage limit resets to resume (1m)'),
  'resume-text': {
    type: 'string',
    describe: 'what is typed once a usage limit has reset (continue)',
  },
  ...STALL_OPTIONS,
  'max-injections': {
    type: 'string',
    describe:
      'the most lines the assessor may type before the watcher pauses and tells (counted from each watch start; default: no bound)',
    mcp: {number: true},
  },
  ...HOST_OPTION,
} as const satisfies OptionTable;

/** What `watch start` is given (the CLI's flags, the MCP tool's arguments): derived from its
 * table. Durations are strings ("3s") or milliseconds; the assessor command may also come as
 * an argument array (the MCP server's default, a test). */
export type WatcherInput = Omit<
  OptionsOf<typeof WATCH_START_OPTIONS>,
  'pane' | 'host' | 'assessCmd'
> & {
  assessCmd?: string | readonly string[] | undefined;
};

/** A new watcher's options (the defaults of WATCH_DEFAULTS, in milliseconds). */
export const WATCHER_OPTION_DEFAULTS: WatcherOptions = {
  idleThresholdMs: parseDuration(WATCH_DEFAULTS.idleThreshold, '--idle-threshold'),
  idleTimeoutMs: parseDuration(WATCH_DEFAULTS.idleTimeout, '--idle-timeout'),
  defaultWaitMs: parseDuration(WATCH_DEFAULTS.defaultWait, '--default-wait'),
  waitTimeoutMs: parseDuration(WATCH_DEFAULTS.waitTimeout, '--wait-timeout'),
  assessTimeoutMs: parseDuration(WATCH_DEFAULTS.assessTimeout, '--assess-timeout'),
  enter: true,
  allowCommands: false,
  transcriptCap: WATCH_DEFAULTS.transcriptCap,
  notifySinks: [],
  onLimit: 'stop',
  limitMarginMs: parseDuration(SUBMIT_OPTIONS['limit-margin'].default, '--limit-margin'),
  resumeText: SUBMIT_OPTIONS['resume-text'].default,
};

/**
 * `watch start`'s input, checked (NudgeError, exit 2, for anything wrong): the plan (read from
 * `@FILE` relative to `cwd`), the assessor, and the options given — each undefined when not
 * given, so an update keeps what the watcher had.
 */
export async function resolveWatcherOptions(
  o: WatcherInput,
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<{
  plan: string | undefined;
  assessor: AssessorSpec | undefined;
  given: Partial<WatcherOptions>;
}> {
  const plan = o.plan === undefined ? undefined : await readPlan(o.plan, cwd);
  const assessor = assessorOf(o);
  const given: Partial<WatcherOptions> = {
    idleThresholdMs: optionalDuration(o.idleThreshold, '--idle-threshold'),
    idleTimeoutMs: optionalDuration(o.idleTimeout, '--idle-timeout'),
    defaultWaitMs: optionalDuration(o.defaultWait, '--default-wait'),
    waitTimeoutMs: optionalDuration(o.waitTimeout, '--wait-timeout'),
    assessTimeoutMs: optionalDuration(o.assessTimeout, '--assess-timeout'),
    enter: o.enter,
    allowCommands: o.allowCommands,
    transcriptCap:
      o.transcriptCap === undefined
        ? undefined
        : parseInteger(o.transcriptCap, '--transcript-cap', 10, 100_000),
    onLimit: o.onLimit === undefined ? undefined : parseOnLimit(o.onLimit),
    limitMarginMs:
      o.limitMargin === undefined ? undefined : parseDuration(o.limitMargin, '--limit-margin'),
    resumeText: o.resumeText === undefined ? undefined : parseResumeText(o.resumeText),
    maxInjections:
      o.maxInjections === undefined
        ? undefined
        : parseInteger(o.maxInjections, '--max-injections', 1, 10_000),
  };
  // The watchdog: as given, else config.toml's [watch] stall (for a new watcher, or one given
  // any of the three options).
  if (o.stall !== undefined || o.onStall !== undefined || o.continueText !== undefined)
    given.stall = resolveStall(o, env, 'watch', {intervalMs: 1_000, continues: false});
  for (const key of Object.keys(given) as Array<keyof WatcherOptions>) {
    if (given[key] === undefined) delete given[key];
  }
  return {plan, assessor, given};
}

function optionalDuration(v: string | number | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const ms = parseDuration(v, flag);
  if (ms <= 0)
    throw new NudgeError('bad-duration', `${flag} must be more than 0, got ${JSON.stringify(v)}.`);
  return ms;
}

/** The plan: TEXT, or `@FILE` read from a file (relative to the working directory). */
export async function readPlan(plan: string, cwd: string): Promise<string> {
  let text = plan;
  if (plan.startsWith('@')) {
    const path = resolve(cwd, plan.slice(1));
    try {
      text = await readTextCapped(path, READ_LIMITS.config);
    } catch (error) {
      const why =
        error instanceof ReadRefused
          ? error.detail
          : ((error as NodeJS.ErrnoException).code ?? 'error');
      throw new NudgeError(
        'bad-usage',
        `Cannot read the plan file ${path} (${why}); check the path after "@".`,
      );
    }
  }
  if (text.trim() === '')
    throw new NudgeError('bad-usage', 'The plan is empty; say what the agent should get done.');
  return text.trim();
}

/** The assessor the options name, checked; undefined when none is given. */
function assessorOf(o: WatcherInput): AssessorSpec | undefined {
  const urlGiven =
    o.assessUrl !== undefined || o.assessModel !== undefined || o.assessKeyEnv !== undefined;
  if (o.assessCmd !== undefined && urlGiven)
    throw new NudgeError('bad-assessor', 'Give either --assess-cmd or --assess-url, not both.');
  if (o.assessCmd !== undefined) {
    const argv = typeof o.assessCmd === 'string' ? splitCommand(o.assessCmd) : [...o.assessCmd];
    if (argv.length === 0 || argv[0] === '')
      throw new NudgeError('bad-assessor', '--assess-cmd is empty; give the command to run.');
    return {kind: 'cmd', argv};
  }
  if (!urlGiven) return undefined;
  if (o.assessUrl === undefined)
    throw new NudgeError('bad-assessor', '--assess-model and --assess-key-env need --assess-url.');
  let url: URL;
  try {
    url = new URL(o.assessUrl);
  } catch {
    throw new NudgeError(
      'bad-assessor',
      `--assess-url ${JSON.stringify(o.assessUrl)} is not a URL; use e.g. http://127.0.0.1:11434/v1.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new NudgeError('bad-assessor', `--assess-url must be http or https, got ${url.protocol}`);
  if (!o.assessModel)
    throw new NudgeError(
      'bad-assessor',
      '--assess-url needs --assess-model (the model name the endpoint serves).',
    );
  if (o.assessKeyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(o.assessKeyEnv))
    throw new NudgeError(
      'bad-assessor',
      `--assess-key-env takes the name of an environment variable, got ${JSON.stringify(o.assessKeyEnv)}.`,
    );
  return {kind: 'url', url: o.assessUrl, model: o.assessModel, keyEnv: o.assessKeyEnv};
}

/**
 * A command line as an argument array: a JSON array (`["python3","a b.py"]`), or words split
 * as a shell splits them — single and double quotes, backslash escapes — with nothing
 * expanded and no shell run.
 */
export function splitCommand(line: string): string[] {
  const trimmed = line.trim();
  if (trimmed.startsWith('[')) {
    try {
      const v = JSON.parse(trimmed) as unknown;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    } catch {
      // not JSON: split as words
    }
  }
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string))
        word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new NudgeError('bad-assessor', `--assess-cmd has an unclosed ${quote} quote.`);
  if (inWord) words.push(word);
  return words;
}
