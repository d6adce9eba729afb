import type * as Crypto from 'node:crypto';
import {readdirSync, readFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {basename, delimiter, join} from 'node:path';
import type * as TomlPatch from '@decimalturn/toml-patch';
import {READ_LIMITS, readFailure, readTextCappedSync} from '../base/bounded-read.js';
import {packageDir} from '../base/version.js';
import {type Profile, type ProfileName, type Profiles, RAW, SHELL} from './profile.js';
import {checkProfileFile, type ProfileFile} from './schema.js';
import {ownProfileDir, type ProfileTrust, TRUST_ALL, trustOf} from './trust.js';

const load = createRequire(import.meta.url);

/** Parse TOML (the parser is loaded on first use: `nudge submit` never needs it). */
export function parseToml(text: string): unknown {
  return (load('@decimalturn/toml-patch') as typeof TomlPatch).parse(text);
}

/** Where the built-in profiles are: data/agents/<name>.toml in the package. */
export function builtinDir(): string {
  return join(packageDir(), 'data', 'agents');
}

/** Where `npm run build` writes the built-in profiles as the schema made them
 * (scripts/compile-profiles.ts). */
export function compiledPath(): string {
  return join(packageDir(), 'dist', 'profiles.json');
}

/** Where a user's profile files are, in the order they apply: their own
 * (`$XDG_CONFIG_HOME/nudge/agents`, default `~/.config/nudge/agents`), then, given a project
 * folder, the project's (`.nudge/agents` in it). */
export function userProfileDirs(
  env: {XDG_CONFIG_HOME?: string | undefined; HOME?: string | undefined},
  project?: string,
): string[] {
  const own = ownProfileDir(env);
  return project === undefined ? [own] : [own, join(project, '.nudge', 'agents')];
}

/**
 * The folders of profile files a process reads: `NUDGE_PROFILE_DIRS` (folders joined by the
 * system's path delimiter, `:`) when set, else userProfileDirs. A nudge command sets it for
 * the workers it starts (profileEnv), which run in the state folder: they read the files the
 * command read, the project's included.
 */
export function profileDirsOf(
  env: {
    NUDGE_PROFILE_DIRS?: string | undefined;
    XDG_CONFIG_HOME?: string | undefined;
    HOME?: string | undefined;
  },
  project?: string,
): string[] {
  const given = env.NUDGE_PROFILE_DIRS;
  if (given !== undefined) return given.split(delimiter).filter((d) => d !== '');
  return userProfileDirs(env, project);
}

/** `env` with NUDGE_PROFILE_DIRS set to the folders it reads (for the workers a command
 * starts). */
export function profileEnv<E extends Record<string, string | undefined>>(
  env: E,
  project: string,
): E {
  return {...env, NUDGE_PROFILE_DIRS: profileDirsOf(env, project).join(delimiter)};
}

/** Where each profile came from: the package, and the user files that mended it. */
export interface ProfileSource {
  builtin: boolean;
  /** User files applied to it, in order. */
  files: string[];
}

/** Where a profile came from, in words: `built-in`, `built-in, mended by FILE, …`, or
 * `FILE` (a program a user's file added), `…, mended by FILE` after it. */
export function describeSource(s: ProfileSource): string {
  const [first, ...rest] = s.files;
  const origin = s.builtin ? 'built-in' : (first ?? 'unknown');
  const menders = s.builtin ? s.files : rest;
  return menders.length === 0 ? origin : `${origin}, mended by ${menders.join(', ')}`;
}

/** The profiles in force, where each came from, and the files that were refused. */
export interface LoadedProfiles {
  profiles: Profiles;
  sources: Record<ProfileName, ProfileSource>;
  /** One sentence per refused file: the file, the field, what was expected; the profile it
   * would have changed stays as it was. */
  problems: string[];
}

/**
 * The built-in profiles, then the user's files in `dirs` (each `*.toml`, in name order). A
 * file whose `name` is a profile's already mends it: it gives only the fields it changes,
 * each replacing the whole field. A file with a new name adds a program, and gives every
 * field a profile needs. The result is checked through the one schema; a file that does not
 * read or check is refused (a problem) and the profiles stay as they were. A built-in file
 * that does not check is a broken package: an Error naming the file.
 */
export function loadProfiles(
  dirs: readonly string[],
  /** Which files may be read (src/agents/trust.ts): an untrusted file is a problem. */
  trust: ProfileTrust,
  builtin = builtinDir(),
  /** Files read after the folders' (a file checked on its own), each a path or a path with
   * the text already read from it (`nudge agents trust` checks and records one read). */
  files: readonly (string | {path: string; text: string})[] = [],
): LoadedProfiles {
  const {raw, checked} = readBuiltins(builtin);
  const profiles: Record<ProfileName, Profile> = {};
  const sources: Record<ProfileName, ProfileSource> = {};
  for (const [name, file] of Object.entries(checked)) {
    profiles[name] = file;
    sources[name] = {builtin: true, files: []};
  }
  const problems: string[] = [];
  for (const file of [...dirs.flatMap(tomlFiles), ...files]) {
    const path = typeof file === 'string' ? file : file.path;
    const text =
      typeof file === 'string' ? readText(path) : {kind: 'text' as const, text: file.text};
    if (text.kind === 'error') {
      problems.push(text.why);
      continue;
    }
    // The text read once is the text judged and the text parsed.
    const verdict = trustOf(trust, path, text.text);
    if (verdict.kind === 'untrusted') {
      problems.push(verdict.why);
      continue;
    }
    const value = tableOf(text.text, path);
    if (typeof value === 'string') {
      problems.push(value);
      continue;
    }
    // launch and resume start a program (nudge run, nudge recover): only from your own folder.
    const starts = (['launch', 'resume'] as const).find((f) => value[f] !== undefined);
    if (verdict.kind !== 'own' && starts !== undefined) {
      problems.push(
        `${path}: ${starts} is not taken from a project's file (it starts a program); put it in your own folder, ${trust.own[0] ?? '~/.config/nudge/agents'}.`,
      );
      continue;
    }
    const name = typeof value.name === 'string' ? value.name : undefined;
    const before = name === undefined ? undefined : raw[name];
    const merged = before ? {...before, ...value} : value;
    const result = checkProfileFile(merged, path, true);
    if (!result.ok) {
      problems.push(
        before || name === undefined
          ? result.error
          : `${result.error.slice(0, -1)} (a new program's file gives every field a profile needs; "nudge agents list" lists the names it could mend).`,
      );
      continue;
    }
    if ((name === SHELL || name === RAW) && result.value.kind !== name) {
      problems.push(`${path}: kind is not valid: expected "${name}" (the ${name} profile).`);
      continue;
    }
    const known = result.value.name;
    raw[known] = merged;
    profiles[known] = result.value;
    sources[known] = {
      builtin: sources[known]?.builtin ?? false,
      files: [...(sources[known]?.files ?? []), path],
    };
  }
  return {profiles: profiles as Profiles, sources, problems};
}

/** The built-in files as tables and as the schema checked them. */
export interface Builtins {
  raw: Record<ProfileName, Record<string, unknown>>;
  checked: Record<ProfileName, ProfileFile>;
  /** Of the files' names and texts. */
  digest: string;
}

/**
 * The built-in profiles of `dir`, checked through the schema. The build keeps the schema's
 * output for the package's files (compiledPath); when its digest is that of the files read
 * now, it is used as it is — zod and the TOML parser (~200 ms of CPU at start-up, which a
 * hundred workers starting at once on two cores turn into seconds while holding pane locks)
 * are then loaded only for a user's files. Any other files (edited since the build, another
 * folder) are read and checked here.
 */
function readBuiltins(dir: string): Builtins {
  const texts = tomlFiles(dir).map((path) => {
    try {
      return {name: basename(path, '.toml'), path, text: readFileSync(path, 'utf8')};
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new Error(`Internal error: the built-in profile ${path}: cannot be read (${code}).`);
    }
  });
  for (const name of [SHELL, RAW]) {
    if (!texts.some((t) => t.name === name))
      throw new Error(
        `Internal error: the built-in profile ${join(dir, `${name}.toml`)} is missing.`,
      );
  }
  const digest = digestOf(texts);
  const compiled = readCompiled();
  if (compiled?.digest === digest) return compiled;
  const raw: Builtins['raw'] = {};
  const checked: Builtins['checked'] = {};
  for (const {name, path, text} of texts) {
    const value = tableOf(text, path);
    const result = typeof value === 'string' ? undefined : checkProfileFile(value, path);
    if (result === undefined || !result.ok) {
      const why = typeof value === 'string' ? value : result?.ok === false ? result.error : '';
      throw new Error(`Internal error: the built-in profile ${why}`);
    }
    if (result.value.name !== name) {
      throw new Error(
        `Internal error: the built-in profile ${path}: name is not valid: expected "${name}" (the file's name).`,
      );
    }
    raw[name] = value as Record<string, unknown>;
    checked[name] = result.value;
  }
  return {raw, checked, digest};
}

/** What the build writes: the built-ins as checked, with the digest of the files read. A
 * regular expression is kept as {"$re": source, "flags": flags}. */
export function compileBuiltinProfiles(dir = builtinDir()): string {
  const {raw, checked, digest} = readBuiltins(dir);
  return `${JSON.stringify({version: 1, digest, raw, checked}, (_key, value) =>
    value instanceof RegExp ? {$re: value.source, flags: value.flags} : value,
  )}\n`;
}

/** The compiled built-ins, if the build left a readable file. */
function readCompiled(): Builtins | undefined {
  let text: string;
  try {
    text = readFileSync(compiledPath(), 'utf8');
  } catch {
    // Not built (tests from the source tree): the files are read instead.
    return undefined;
  }
  return parseCompiled(text);
}

/** What compileBuiltinProfiles wrote, read back (regular expressions made again); undefined
 * when it is not that. */
export function parseCompiled(text: string): Builtins | undefined {
  try {
    const value = JSON.parse(text, (_key, v: unknown) => {
      const re = v as {$re?: unknown; flags?: unknown} | null;
      return typeof re === 'object' && re !== null && typeof re.$re === 'string'
        ? new RegExp(re.$re, typeof re.flags === 'string' ? re.flags : '')
        : v;
    }) as Partial<Builtins> & {version?: number};
    return value.version === 1 && typeof value.digest === 'string' && value.raw && value.checked
      ? (value as Builtins)
      : undefined;
  } catch {
    return undefined;
  }
}

function digestOf(files: readonly {name: string; text: string}[]): string {
  const hash = (load('node:crypto') as typeof Crypto).createHash('sha256');
  for (const {name, text} of files) hash.update(`${name}\0${text}\0`);
  return hash.digest('hex');
}

/** The built-in profiles alone. */
export function loadBuiltinProfiles(dir = builtinDir()): Profiles {
  return loadProfiles([], TRUST_ALL, dir).profiles;
}

/** A profile file's text, or the sentence why it is not read: a user's file is read only when
 * it is a regular file of at most READ_LIMITS.profile bytes (a FIFO in a repository's
 * `.nudge/agents/` would hang every command that loads profiles). */
export function readText(
  path: string,
): {kind: 'text'; text: string} | {kind: 'error'; why: string} {
  try {
    return {kind: 'text', text: readTextCappedSync(path, READ_LIMITS.profile)};
  } catch (error) {
    return {kind: 'error', why: `${path}: ${readFailure(error)}.`};
  }
}

function tableOf(text: string, path: string): Record<string, unknown> | string {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return `${path}: is not TOML (${first}).`;
  }
}

/** The `*.toml` files of a folder, in name order (none when it does not exist). */
export function tomlFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.toml'))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}
