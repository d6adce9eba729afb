import {existsSync} from 'node:fs';
import {isAbsolute, join, resolve} from 'node:path';
import {
  describeSource,
  loadProfiles,
  type ProfileSource,
  parseToml,
  readText,
  tomlFiles,
  userProfileDirs,
} from '../agents/builtin.js';
import {keysOfTable} from '../agents/keys.js';
import type {Profile, ProfileKind, ProfileName} from '../agents/profile.js';
import {
  digestOfText,
  readProfileTrust,
  readTrustStore,
  realPathOf,
  trustStorePath,
} from '../agents/trust.js';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {LinearPattern} from '../base/pattern.js';
import type {CommandContext} from './context.js';

/** One profile as `nudge agents list` shows it. */
export interface AgentEntry {
  name: ProfileName;
  kind: ProfileKind;
  /** `built-in`, `built-in, mended by FILE, …`, or the file that added it. */
  source: string;
  /** The command `nudge run --agent` starts it with. */
  launch?: string | undefined;
}

/** `nudge agents list`: every profile in force, where its data came from, the folders read,
 * and the user files that were refused. */
export interface AgentList {
  agents: AgentEntry[];
  dirs: string[];
  problems: string[];
}

/** `nudge agents show NAME`: one profile's data as nudge reads it. */
export interface AgentShown extends AgentEntry {
  /** Every field, regular expressions as their source text. */
  fields: Record<string, unknown>;
  problems: string[];
}

/** `nudge agents check FILE`: the profile the file makes, and the fields it gives. */
export interface AgentFileChecked {
  file: string;
  name: ProfileName;
  /** Whether it mends a profile nudge has (built-in or from an earlier file), or adds one. */
  action: 'mends' | 'adds';
  fields: string[];
  /** Every key it would send (its key fields), for the person to read before trusting it. */
  keys: string[];
  /** The sha256 of the text checked: what `nudge agents trust` records. */
  digest: string;
}

function loadFor(ctx: CommandContext, file?: {path: string; text: string}) {
  const dirs = userProfileDirs(ctx.env, ctx.cwd);
  const trust = readProfileTrust(ctx.env);
  // A file checked on its own is read last, after the user's other files (once if it is one
  // of them: the folder's copy is then read again on top of itself, which changes nothing).
  // Naming it is reading it: it is checked as if trusted (what it would do once trusted), from
  // the text read once by the caller (what is checked is what is hashed).
  const files =
    file === undefined
      ? trust.files
      : {...trust.files, [realPathOf(file.path)]: digestOfText(file.text)};
  return {
    dirs,
    loaded: loadProfiles(dirs, {...trust, files}, undefined, file === undefined ? [] : [file]),
  };
}

/** `nudge agents trust [FILE…]`: what was trusted (each file with its digest). */
export interface AgentsTrusted {
  trusted: Array<{
    file: string;
    digest: string;
    name: ProfileName;
    fields: string[];
    keys: string[];
  }>;
  store: string;
}

/**
 * `nudge agents trust [FILE…]`: record that the person stands behind these profile files as
 * they are now (their real path and the sha256 of their text, in the state directory), so
 * nudge reads them; no FILE: the project's `.nudge/agents/*.toml`. A file that does not check
 * is refused (exit 2) and nothing is recorded. A file changed later is untrusted again.
 */
export async function trustAgentFiles(
  o: {files: readonly string[]},
  ctx: CommandContext,
): Promise<AgentsTrusted> {
  const files = o.files.length > 0 ? o.files.map((f) => resolve(ctx.cwd, f)) : projectFiles(ctx);
  if (files.length === 0)
    throw new NudgeError(
      'bad-usage',
      `No profile file to trust: ${join(ctx.cwd, '.nudge', 'agents')} holds no *.toml; name the file.`,
    );
  const trusted: AgentsTrusted['trusted'] = [];
  for (const file of files) {
    // One read: the digest recorded is that of the text checked (checkAgentFile).
    const checked = await checkAgentFile({file}, ctx);
    trusted.push({
      file,
      digest: checked.digest,
      name: checked.name,
      fields: checked.fields,
      keys: checked.keys,
    });
  }
  const store = trustStorePath(ctx.env);
  await ensureStateDir(resolveStateDir(ctx.env), ctx.env);
  const recorded = readTrustStore(store);
  for (const t of trusted) recorded[realPathOf(t.file)] = t.digest;
  await writeFileAtomic(store, `${JSON.stringify({version: 1, files: recorded}, null, 2)}\n`);
  return {trusted, store};
}

/** `nudge agents untrust FILE…`: the files are no longer read (their record is removed). */
export async function untrustAgentFiles(
  o: {files: readonly string[]},
  ctx: CommandContext,
): Promise<{untrusted: string[]; store: string}> {
  const store = trustStorePath(ctx.env);
  const recorded = readTrustStore(store);
  const untrusted = o.files
    .map((f) => realPathOf(resolve(ctx.cwd, f)))
    .filter((f) => Object.hasOwn(recorded, f));
  for (const f of untrusted) delete recorded[f];
  if (untrusted.length > 0)
    await writeFileAtomic(store, `${JSON.stringify({version: 1, files: recorded}, null, 2)}\n`);
  return {untrusted, store};
}

/** The project's profile files (`.nudge/agents/*.toml` in the working directory). */
function projectFiles(ctx: CommandContext): string[] {
  return tomlFiles(join(ctx.cwd, '.nudge', 'agents'));
}

function entryOf(p: Profile, s: ProfileSource): AgentEntry {
  return {name: p.name, kind: p.kind, source: describeSource(s), launch: p.launch};
}

/** `nudge agents list`. */
export async function listAgents(_o: object, ctx: CommandContext): Promise<AgentList> {
  const {dirs, loaded} = loadFor(ctx);
  return {
    agents: Object.entries(loaded.sources)
      .flatMap(([n, source]) => {
        const p = loaded.profiles[n];
        return p ? [{p, source}] : [];
      })
      .sort((a, b) => listOrder(a.p) - listOrder(b.p) || a.p.name.localeCompare(b.p.name))
      .map(({p, source}) => entryOf(p, source)),
    dirs,
    problems: loaded.problems,
  };
}

/** Agents first, in the order they are recognised by; then the shell, then raw. */
function listOrder(p: Profile): number {
  return p.kind === 'agent' ? (p.detectOrder ?? 100) : p.kind === 'shell' ? 10_000 : 10_001;
}

/** `nudge agents show NAME`. */
export async function showAgent(o: {name: string}, ctx: CommandContext): Promise<AgentShown> {
  const {loaded} = loadFor(ctx);
  const p = loaded.profiles[o.name];
  const source = loaded.sources[o.name];
  if (!p || !source) {
    throw new NudgeError(
      'bad-profile',
      `No profile is named ${JSON.stringify(o.name)}; "nudge agents list" lists them (${Object.keys(loaded.sources).join(', ')}).`,
    );
  }
  return {...entryOf(p, source), fields: asData(p), problems: loaded.problems};
}

/** `nudge agents check FILE`: the file read as nudge would (over the built-in it names, after
 * the user's other files); exit 2 with the sentence when it is refused. */
export async function checkAgentFile(
  o: {file: string},
  ctx: CommandContext,
): Promise<AgentFileChecked> {
  const file = isAbsolute(o.file) ? o.file : resolve(ctx.cwd, o.file);
  if (!existsSync(file)) throw new NudgeError('bad-config', `${file} does not exist.`);
  const read = readText(file);
  if (read.kind === 'error') throw new NudgeError('bad-config', read.why);
  const {loaded} = loadFor(ctx, {path: file, text: read.text});
  const problem = loaded.problems.find((p) => p.startsWith(`${file}:`));
  if (problem) throw new NudgeError('bad-config', problem);
  const name = Object.keys(loaded.sources).find((n) => loaded.sources[n]?.files.includes(file));
  if (!name) throw new NudgeError('bad-config', `${file}: no profile was read from it.`);
  const given = parseToml(read.text) as Record<string, unknown>;
  const source = loaded.sources[name];
  const action = source?.builtin || source?.files[0] !== file ? 'mends' : 'adds';
  return {
    file,
    name,
    action,
    fields: Object.keys(given).filter((k) => k !== 'name'),
    keys: keysOfTable(given),
    digest: digestOfText(read.text),
  };
}

/** A profile as plain data: regular expressions as their source text. */
function asData(p: Profile): Record<string, unknown> {
  const plain = (v: unknown): unknown => {
    if (v instanceof RegExp || v instanceof LinearPattern) return v.source;
    if (Array.isArray(v)) return v.map(plain);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
    return v;
  };
  return plain(p) as Record<string, unknown>;
}
