import {configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {parseSink} from './sinks.js';

/**
 * The sinks a job tells: `--notify` as given (`none`: no sink at all), else the config file's
 * `[notify] sinks`. What reaches further than this machine's person comes only from the
 * person's config file, never from a flag, an MCP tool's argument or the environment alone
 * (docs/security.md): a `cmd:` sink runs a program, so it is refused from a flag outright; a
 * `webhook:` or `ntfy:` sink sends data to another host, so a flag may name one only when the
 * config lists it (`[notify] sinks`, or `[notify] allow` for sinks a call may pick that are not
 * the default). Refusals are one sentence (exit 2). Each sink is checked, so what travels in
 * the request is known good. The config file is read only when it is needed.
 */
export function resolveSinks(
  given: readonly string[] | undefined,
  env: {XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined},
): string[] {
  if (given && given.length > 0) {
    if (given.length === 1 && given[0] === 'none') return [];
    let allowed: readonly string[] | undefined;
    for (const spec of given) {
      const sink = parseSink(spec);
      if (sink.kind === 'cmd')
        throw new NudgeError(
          'bad-usage',
          `--notify ${JSON.stringify(spec)} is refused: a cmd: sink runs a program, so it is taken only from your config.toml's [notify] sinks, never from a flag or a tool's argument.`,
        );
      if (sink.kind !== 'webhook' && sink.kind !== 'ntfy') continue;
      allowed ??= allowedSinks(env);
      if (!allowed.some((a) => sameSink(a, spec)))
        throw new NudgeError(
          'bad-usage',
          `--notify ${JSON.stringify(spec)} is refused: a ${sink.kind}: sink sends data to another host, so a flag or a tool's argument may name it only when your config.toml's [notify] sinks or allow lists it.`,
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

/** The sinks a call may name: `[notify] sinks` and `[notify] allow`. */
function allowedSinks(env: {
  XDG_CONFIG_HOME?: string | undefined;
  HOME?: string | undefined;
}): string[] {
  const found = configTable(env, 'notify');
  if (!found) return [];
  return [
    ...configSinks(found.file, found.table),
    ...configSinks(found.file, found.table, 'allow'),
  ];
}

/** Two specs of one sink (the same kind and the same URL, as the URL parser writes it). */
function sameSink(a: string, b: string): boolean {
  try {
    return JSON.stringify(parseSink(a)) === JSON.stringify(parseSink(b));
  } catch {
    return false;
  }
}

function configSinks(
  file: string,
  notify: Record<string, unknown>,
  key: 'sinks' | 'allow' = 'sinks',
): string[] {
  const sinks = notify[key];
  if (sinks === undefined) return [];
  if (!Array.isArray(sinks) || !sinks.every((s) => typeof s === 'string'))
    throw new NudgeError(
      'bad-config',
      `${file}: notify.${key} must be a list of strings, e.g. sinks = ["desktop", "ntfy:https://ntfy.sh/my-topic"].`,
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
