import {existsSync, readFileSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {parseToml} from '../agents/builtin.js';
import {NudgeError} from '../base/errors.js';
import {parseSink} from './sinks.js';

/** Where the user's defaults are: `$XDG_CONFIG_HOME/nudge/config.toml` (default
 * `~/.config/nudge/config.toml`). */
export function configPath(env: {
  XDG_CONFIG_HOME?: string | undefined;
  HOME?: string | undefined;
}): string {
  return join(
    env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'),
    'nudge',
    'config.toml',
  );
}

/**
 * The sinks a job tells: `--notify` as given (`none`: no sink at all), else the config file's
 * `[notify] sinks`. Each checked (one sentence, exit 2, for a bad one): what travels in the
 * request is known good. The config file is read only when it exists and no `--notify` was
 * given, so a submit without either pays nothing for it.
 */
export function resolveSinks(
  given: readonly string[] | undefined,
  env: {XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined},
): string[] {
  if (given && given.length > 0) {
    if (given.length === 1 && given[0] === 'none') return [];
    for (const spec of given) parseSink(spec);
    return [...given];
  }
  const file = configPath(env);
  if (!existsSync(file)) return [];
  const sinks = configSinks(file);
  for (const spec of sinks) parseSink(spec, `${file}: notify.sinks has`);
  return sinks;
}

function configSinks(file: string): string[] {
  let parsed: unknown;
  try {
    parsed = parseToml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new NudgeError(
      'bad-config',
      `${file} is not valid TOML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  const notify = (parsed as {notify?: unknown}).notify;
  if (notify === undefined) return [];
  const sinks = (notify as {sinks?: unknown}).sinks;
  if (sinks === undefined) return [];
  if (!Array.isArray(sinks) || !sinks.every((s) => typeof s === 'string'))
    throw new NudgeError(
      'bad-config',
      `${file}: notify.sinks must be a list of strings, e.g. sinks = ["desktop", "ntfy:https://ntfy.sh/my-topic"].`,
    );
  return sinks;
}
