import {configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {parseSink} from './sinks.js';

/**
 * The sinks a job tells: `--notify` as given (`none`: no sink at all), else the config file's
 * `[notify] sinks`. A `cmd:` sink runs a program, so it comes only from the person's config
 * file, never from a flag, an MCP tool's argument or the environment (docs/security.md): given
 * any other way it is refused with one sentence (exit 2). Each checked (one sentence, exit 2, for a bad one): what travels in the
 * request is known good. The config file is read only when it exists and no `--notify` was
 * given, so a submit without either pays nothing for it.
 */
export function resolveSinks(
  given: readonly string[] | undefined,
  env: {XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined},
): string[] {
  if (given && given.length > 0) {
    if (given.length === 1 && given[0] === 'none') return [];
    for (const spec of given) {
      if (parseSink(spec).kind === 'cmd')
        throw new NudgeError(
          'bad-usage',
          `--notify ${JSON.stringify(spec)} is refused: a cmd: sink runs a program, so it is taken only from your config.toml's [notify] sinks, never from a flag or a tool's argument.`,
        );
    }
    return [...given];
  }
  const found = configTable(env, 'notify');
  if (!found) return [];
  const sinks = configSinks(found.file, found.table);
  for (const spec of sinks) parseSink(spec, `${found.file}: notify.sinks has`);
  return sinks;
}

function configSinks(file: string, notify: Record<string, unknown>): string[] {
  const sinks = notify.sinks;
  if (sinks === undefined) return [];
  if (!Array.isArray(sinks) || !sinks.every((s) => typeof s === 'string'))
    throw new NudgeError(
      'bad-config',
      `${file}: notify.sinks must be a list of strings, e.g. sinks = ["desktop", "ntfy:https://ntfy.sh/my-topic"].`,
    );
  return sinks;
}

/** `[notify] preview = true` in the person's config file: webhook: and ntfy: sinks get the
 * first 80 characters of the typed text. Off by default: what was typed stays on this machine
 * (the desktop, tmux and cmd: sinks always get it). */
export function notifyPreviewOf(env: {
  XDG_CONFIG_HOME?: string | undefined;
  HOME?: string | undefined;
}): boolean {
  const found = configTable(env, 'notify');
  const preview = found?.table.preview;
  if (preview === undefined) return false;
  if (typeof preview !== 'boolean')
    throw new NudgeError('bad-config', `${found?.file}: notify.preview must be true or false.`);
  return preview;
}
