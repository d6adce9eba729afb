import {readFile} from 'node:fs/promises';
import {resolve} from 'node:path';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {parseOnLimit, parseResumeText, SUBMIT_DEFAULTS} from '../jobs/options.js';
import {type AssessorSpec, WATCH_DEFAULTS, type WatcherOptions} from './record.js';

/** What `watch start` is given (the CLI's flags, the MCP tool's arguments). Durations are
 * strings ("3s") or milliseconds. */
export interface WatcherInput {
  /** The plan's text, or `@FILE` to read it from a file. Required for a new watcher. */
  plan?: string | undefined;
  /** The assessor command: an argument array, a JSON array, or words split as a shell would
   * (quotes, backslashes; no expansion, no shell). */
  assessCmd?: string | readonly string[] | undefined;
  assessUrl?: string | undefined;
  assessModel?: string | undefined;
  assessKeyEnv?: string | undefined;
  idleThreshold?: string | number | undefined;
  idleTimeout?: string | number | undefined;
  defaultWait?: string | number | undefined;
  waitTimeout?: string | number | undefined;
  assessTimeout?: string | number | undefined;
  /** false: --no-enter (the injected line is left in the input line). */
  enter?: boolean | undefined;
  /** Type an assessor's line that starts with `!`, `/` or `$` (a command in the agent). */
  allowCommands?: boolean | undefined;
  transcriptCap?: string | number | undefined;
  /** Sinks told when the watcher pauses (`none`: not the config file's). */
  notify?: readonly string[] | undefined;
  onLimit?: string | undefined;
  limitMargin?: string | number | undefined;
  resumeText?: string | undefined;
}

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
  limitMarginMs: parseDuration(SUBMIT_DEFAULTS.limitMargin, '--limit-margin'),
  resumeText: SUBMIT_DEFAULTS.resumeText,
};

/**
 * `watch start`'s input, checked (NudgeError, exit 2, for anything wrong): the plan (read from
 * `@FILE` relative to `cwd`), the assessor, and the options given — each undefined when not
 * given, so an update keeps what the watcher had.
 */
export async function resolveWatcherOptions(
  o: WatcherInput,
  cwd: string,
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
  };
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
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new NudgeError(
        'bad-usage',
        `Cannot read the plan file ${path} (${code}); check the path after "@".`,
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
