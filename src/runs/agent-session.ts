import {Buffer} from 'node:buffer';
import {open, readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {Profile} from '../agents/profile.js';
import {SESSION_ID, type SessionSource, withSession} from '../agents/resume.js';
import {claudeConfigDirs, sessionOfPane} from '../doors/claude-session.js';
import {PaneFailure} from '../pane/failures.js';
import type {ProcessTree} from '../process/tree.js';
import {codexDays} from '../records/locate.js';
import type {RunOptions} from './request.js';

/** A run's agent session: its id, and where nudge read it. */
export interface AgentSession {
  id: string;
  from: string;
}

/** What finding a run's session reads. */
export interface SessionLookup {
  /** The environment the agent runs in (its HOME, CLAUDE_CONFIG_DIR, CODEX_HOME). */
  env: Record<string, string | undefined>;
  /** The run's folder (the agent's working directory). */
  cwd: string;
  /** When the agent was started: an older session file is not the run's. */
  sinceMs: number;
  /** The pane's first process: Claude Code's session record names a process under it. */
  panePid: number;
  tree: ProcessTree;
}

/**
 * The session the run's agent writes to, read from the agent's own files; undefined while it
 * has none yet (an agent writes its session once the first prompt is in). `chosen` ids are
 * nudge's own (given as the agent starts), never looked up.
 */
export async function findAgentSession(
  source: SessionSource,
  o: SessionLookup,
): Promise<AgentSession | undefined> {
  switch (source) {
    case 'claude-sessions':
      return claudeSession(o);
    case 'codex-rollouts':
      return codexSession(o);
    case 'chosen':
      return undefined;
  }
}

/** Claude Code: the session record of the process in the pane (2.1.2xx and newer); else the
 * newest transcript of the run's folder written since the start. */
async function claudeSession(o: SessionLookup): Promise<AgentSession | undefined> {
  const dirs = claudeConfigDirs(o.env);
  const found = await sessionOfPane(o.tree, o.panePid, dirs);
  if ('session' in found && SESSION_ID.test(found.session.sessionId))
    return {id: found.session.sessionId, from: found.session.file};
  for (const dir of dirs) {
    const folder = join(dir, 'projects', claudeProjectName(o.cwd));
    const newest = await newestSince(folder, /^[0-9a-f-]{36}\.jsonl$/, o.sinceMs);
    if (newest) return {id: newest.name.replace(/\.jsonl$/, ''), from: newest.path};
  }
  return undefined;
}

/** The folder Claude Code keeps a working directory's transcripts in: every character but a
 * letter or digit becomes `-` (`/work/x.y` → `-work-x-y`). */
export function claudeProjectName(cwd: string): string {
  return cwd.replace(/[^A-Za-z0-9]/g, '-');
}

/** Codex: the rollout file of the run's folder started since the run began (its first line is
 * the session's meta: id and cwd). */
async function codexSession(o: SessionLookup): Promise<AgentSession | undefined> {
  const home = o.env.CODEX_HOME || (o.env.HOME ? join(o.env.HOME, '.codex') : undefined);
  if (!home) return undefined;
  let best: {id: string; path: string; mtimeMs: number} | undefined;
  for (const day of codexDays(o.sinceMs)) {
    const folder = join(home, 'sessions', day);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => /^rollout-.*\.jsonl$/.test(n))) {
      const path = join(folder, name);
      const st = await stat(path).catch(() => undefined);
      if (!st || st.mtimeMs < o.sinceMs) continue;
      const meta = await firstLine(path);
      const payload = meta?.payload as {id?: unknown; cwd?: unknown} | undefined;
      if (meta?.type !== 'session_meta' || payload?.cwd !== o.cwd) continue;
      if (typeof payload.id !== 'string' || !SESSION_ID.test(payload.id)) continue;
      if (!best || st.mtimeMs > best.mtimeMs) best = {id: payload.id, path, mtimeMs: st.mtimeMs};
    }
  }
  return best && {id: best.id, from: best.path};
}

/** The newest file of `folder` named like `pattern`, changed since `sinceMs`. */
async function newestSince(
  folder: string,
  pattern: RegExp,
  sinceMs: number,
): Promise<{name: string; path: string} | undefined> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return undefined;
  }
  let best: {name: string; path: string; mtimeMs: number} | undefined;
  for (const name of names.filter((n) => pattern.test(n))) {
    const path = join(folder, name);
    const st = await stat(path).catch(() => undefined);
    if (st && st.mtimeMs >= sinceMs && (!best || st.mtimeMs > best.mtimeMs))
      best = {name, path, mtimeMs: st.mtimeMs};
  }
  return best;
}

/** The first line of a file as JSON (within its first MiB: Codex's session meta carries the
 * model's instructions), or undefined. */
async function firstLine(path: string): Promise<Record<string, unknown> | undefined> {
  const file = await open(path, 'r').catch(() => undefined);
  if (!file) return undefined;
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    const {bytesRead} = await file.read(buffer, 0, buffer.length, 0);
    const line = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '';
    const value: unknown = JSON.parse(line);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
}

/** The words a run's agent starts with, and its session when nudge knows it from the start:
 * the one resumed (nudge recover), or one nudge chose and gives it (`startArgs`). */
export function sessionAtStart(
  o: RunOptions,
  profile: Profile,
  newSessionId: () => string,
): {args: string[]; session?: AgentSession} {
  const resume = profile.resume;
  if (o.resume) {
    if (!resume)
      throw new PaneFailure(`${o.agent} has no resume option in its profile; nothing was started.`);
    const id = o.resume.session;
    return {
      args: withSession(resume.args, id),
      session: {id, from: `resumed (run ${o.resume.of})`},
    };
  }
  if (resume?.session !== 'chosen' || !resume.startArgs) return {args: []};
  const id = newSessionId();
  return {args: withSession(resume.startArgs, id), session: {id, from: 'chosen by nudge'}};
}
