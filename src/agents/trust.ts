import type * as Crypto from 'node:crypto';
import {realpathSync} from 'node:fs';
import {createRequire} from 'node:module';
import {homedir} from 'node:os';
import {join, resolve} from 'node:path';
import {READ_LIMITS, readTextCappedSync} from '../base/bounded-read.js';
import {resolveStateDir, type StateEnv, soundStateDir} from '../base/paths.js';

/**
 * Which profile files a process may read (docs/security.md). A profile's key fields reach
 * tmux, so a file is read only when the person stands behind it: the files of their own
 * folder (`$XDG_CONFIG_HOME/nudge/agents`), and any other file (a project's
 * `.nudge/agents/*.toml`, a folder NUDGE_PROFILE_DIRS names) only after `nudge agents trust
 * FILE` recorded its real path and the digest of its text — as direnv and git's
 * safe.directory do. A file changed since is untrusted again.
 */
export interface ProfileTrust {
  /** The person's own folders: their files are read without asking. */
  own: readonly string[];
  /** Trusted files: real path → sha256 of the text that was trusted. */
  files: Readonly<Record<string, string>>;
  /** Where the trusted files are recorded (0600, in the state directory). */
  store: string;
  /** Read every file (TRUST_ALL). */
  all?: true;
}

/** The person's own folder of profile files. */
export function ownProfileDir(env: {
  XDG_CONFIG_HOME?: string | undefined;
  HOME?: string | undefined;
}): string {
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'nudge', 'agents');
}

/** The file trusted profile files are recorded in. */
export function trustStorePath(env: StateEnv): string {
  return join(resolveStateDir(env), 'trusted-profiles.json');
}

/** The trust in force for `env`: the person's own folder, and the files they trusted. */
export function readProfileTrust(
  env: StateEnv & {XDG_CONFIG_HOME?: string | undefined},
): ProfileTrust {
  const store = trustStorePath(env);
  // A state directory a writer would refuse (another user's symlink) is not read: nothing
  // in it is trusted.
  const sound = soundStateDir(env) !== undefined;
  return {own: [ownProfileDir(env)], files: sound ? readTrustStore(store) : {}, store};
}

/** The trusted files of a store (none when it is missing or not what nudge writes). */
export function readTrustStore(store: string): Record<string, string> {
  try {
    const value = JSON.parse(readTextCappedSync(store, READ_LIMITS.config)) as {files?: unknown};
    const files = value.files;
    if (typeof files !== 'object' || files === null) return {};
    return Object.fromEntries(
      Object.entries(files).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The digest a file is trusted by. */
export function digestOfText(text: string): string {
  // Loaded when a file is judged: importing node:crypto costs every command ~8 ms.
  const {createHash} = createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** A file's real path (the path as given when it cannot be resolved). */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Where a file stands: the person's own, trusted as it is, or the sentence why it is not read. */
export type TrustVerdict = {kind: 'own'} | {kind: 'trusted'} | {kind: 'untrusted'; why: string};

/** Whether the file at `path`, holding `text`, may be read. */
export function trustOf(trust: ProfileTrust, path: string, text: string): TrustVerdict {
  const real = realPathOf(path);
  if (trust.all || trust.own.some((dir) => real.startsWith(`${realPathOf(dir)}/`)))
    return {kind: 'own'};
  const recorded = trust.files[real];
  if (recorded === digestOfText(text)) return {kind: 'trusted'};
  const how = recorded === undefined ? 'is not trusted' : 'changed since it was trusted';
  return {
    kind: 'untrusted',
    why: `${path}: ${how}, so nudge does not read it (a profile file outside ${trust.own[0] ?? 'your own folder'} can make nudge type keys); read it, then run "nudge agents trust ${path}".`,
  };
}

/** Trust everything: for a file the person names to check it (`nudge agents check FILE`), and
 * for the tests of the loader itself. */
export const TRUST_ALL: ProfileTrust = {own: [], files: {}, store: '', all: true};
