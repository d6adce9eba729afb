import {existsSync} from 'node:fs';
import {createRequire} from 'node:module';
import {homedir} from 'node:os';
import {join} from 'node:path';
import type * as TomlPatch from '@decimalturn/toml-patch';
import {READ_LIMITS, readFailure, readTextCappedSync} from './bounded-read.js';
import {NudgeError} from './errors.js';

const load = createRequire(import.meta.url);

/** The environment that places the user's config file. */
export interface ConfigEnv {
  XDG_CONFIG_HOME?: string | undefined;
  HOME?: string | undefined;
}

/** Where the user's defaults are: `$XDG_CONFIG_HOME/nudge/config.toml` (default
 * `~/.config/nudge/config.toml`). */
export function configPath(env: ConfigEnv): string {
  return join(
    env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'),
    'nudge',
    'config.toml',
  );
}

/** Where `readOnce` keeps the file it read. */
const READ = Symbol('config read');
type Read = {parsed?: Record<string, unknown> | null};

/** `env`, with its config file read at most once for all that is asked of it: one command's
 * options see one file, never two versions of it. */
export function readOnce<E extends ConfigEnv>(env: E): E {
  return {...env, [READ]: {}};
}

/** The config file parsed (null: there is none), read again unless `env` came from readOnce. */
function parsedConfig(env: ConfigEnv, file: string): Record<string, unknown> | null {
  const memo = (env as {[READ]?: Read})[READ];
  if (memo?.parsed !== undefined) return memo.parsed;
  const parsed = existsSync(file) ? parseFile(file) : null;
  if (memo) memo.parsed = parsed;
  return parsed;
}

function parseFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readTextCappedSync(file, READ_LIMITS.config);
  } catch (error) {
    throw new NudgeError('bad-config', `${file} ${readFailure(error)}.`);
  }
  try {
    return (load('@decimalturn/toml-patch') as typeof TomlPatch).parse(text) as Record<
      string,
      unknown
    >;
  } catch (error) {
    throw new NudgeError(
      'bad-config',
      `${file} is not valid TOML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
}

/**
 * One table of the config file (`[notify]`, `[remote]`), or undefined when the file or the
 * table is absent. A file that is not TOML, or a table that is not a table, is one sentence
 * naming the file (exit 2). The file is read only when asked for, so a command that needs no
 * default pays nothing.
 */
export function configTable(
  env: ConfigEnv,
  name: string,
): {file: string; table: Record<string, unknown>} | undefined {
  const file = configPath(env);
  const parsed = parsedConfig(env, file);
  if (parsed === null) return undefined;
  const table = parsed[name];
  if (table === undefined) return undefined;
  if (typeof table !== 'object' || table === null || Array.isArray(table))
    throw new NudgeError('bad-config', `${file}: [${name}] must be a table.`);
  return {file, table: table as Record<string, unknown>};
}
