import {readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {homedir} from 'node:os';
import {join} from 'node:path';
import type * as TomlPatch from '@decimalturn/toml-patch';
import {packageDir} from '../base/version.js';
import {PROFILE_NAMES, type Profile, type ProfileName} from './profile.js';
import {checkProfileFile, profileOf} from './schema.js';

const load = createRequire(import.meta.url);

/** Parse TOML (the parser is loaded on first use: `nudge submit` never needs it). */
export function parseToml(text: string): unknown {
  return (load('@decimalturn/toml-patch') as typeof TomlPatch).parse(text);
}

/** Where the built-in profiles are: data/agents/<name>.toml in the package. */
export function builtinDir(): string {
  return join(packageDir(), 'data', 'agents');
}

/** Where a user's profile files are, in the order they apply: their own
 * (`$XDG_CONFIG_HOME/nudge/agents`, default `~/.config/nudge/agents`), then, given a project
 * folder, the project's (`.nudge/agents` in it). */
export function userProfileDirs(
  env: {XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined},
  project?: string,
): string[] {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  const own = join(config, 'nudge', 'agents');
  return project === undefined ? [own] : [own, join(project, '.nudge', 'agents')];
}

/** Where each profile came from: the package, and the user files that mended it. */
export interface ProfileSource {
  builtin: boolean;
  /** User files applied to it, in order. */
  files: string[];
}

/** The profiles in force, where each came from, and the files that were refused. */
export interface LoadedProfiles {
  profiles: Record<ProfileName, Profile>;
  sources: Record<ProfileName, ProfileSource>;
  /** One sentence per refused file: the file, the field, what was expected; the profile it
   * would have changed stays as it was. */
  problems: string[];
}

/**
 * The built-in profiles, then the user's files in `dirs` (each `*.toml`, in name order): a
 * file names the profile it mends (`name = "claude"`) and gives only the fields it changes,
 * each replacing the whole field. The result is checked through the one schema; a file that
 * does not read or check is refused (a problem) and the profile stays as it was. A built-in
 * file that does not check is a broken package: an Error naming the file.
 */
export function loadProfiles(
  dirs: readonly string[] = [],
  builtin = builtinDir(),
  /** Files read after the folders' (a file checked on its own). */
  files: readonly string[] = [],
): LoadedProfiles {
  const raw = {} as Record<ProfileName, Record<string, unknown>>;
  const profiles = {} as Record<ProfileName, Profile>;
  const sources = {} as Record<ProfileName, ProfileSource>;
  for (const name of PROFILE_NAMES) {
    const path = join(builtin, `${name}.toml`);
    const value = readTable(path);
    const checked = typeof value === 'string' ? undefined : checkProfileFile(value, path);
    if (checked === undefined || !checked.ok) {
      const why = typeof value === 'string' ? value : checked?.ok === false ? checked.error : '';
      throw new Error(`Internal error: the built-in profile ${why}`);
    }
    raw[name] = value as Record<string, unknown>;
    profiles[name] = profileOf(checked.value);
    sources[name] = {builtin: true, files: []};
  }
  const problems: string[] = [];
  for (const path of [...dirs.flatMap(tomlFiles), ...files]) {
    const value = readTable(path);
    if (typeof value === 'string') {
      problems.push(value);
      continue;
    }
    const name = value.name;
    if (typeof name !== 'string' || !(PROFILE_NAMES as readonly string[]).includes(name)) {
      problems.push(
        `${path}: name is not valid: expected the name of a profile nudge knows (${PROFILE_NAMES.join(', ')}), got ${JSON.stringify(name)}.`,
      );
      continue;
    }
    const known = name as ProfileName;
    const merged = {...raw[known], ...value};
    const checked = checkProfileFile(merged, path);
    if (!checked.ok) {
      problems.push(checked.error);
      continue;
    }
    raw[known] = merged;
    profiles[known] = profileOf(checked.value);
    sources[known].files.push(path);
  }
  return {profiles, sources, problems};
}

/** The built-in profiles alone. */
export function loadBuiltinProfiles(dir = builtinDir()): Record<ProfileName, Profile> {
  return loadProfiles([], dir).profiles;
}

/** A file's TOML as a table, or the sentence why it is not one. */
function readTable(path: string): Record<string, unknown> | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`;
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return `${path}: is not TOML (${first}).`;
  }
}

/** The `*.toml` files of a folder, in name order (none when it does not exist). */
function tomlFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.toml'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
