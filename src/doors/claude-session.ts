import {readdir} from 'node:fs/promises';
import {join} from 'node:path';
import {agentOfCommandLine} from '../agents/registry.js';
import {READ_LIMITS, readTextCapped} from '../base/bounded-read.js';
import type {ProcessTree} from '../process/tree.js';

/**
 * Claude Code's record of a running interactive session: `<config dir>/sessions/<pid>.json`,
 * written from 2.1.2xx on and removed when the session exits
 * (docs/agents.md, "Doors"). Only the fields nudge uses, checked on read.
 */
export interface ClaudeSession {
  /** Claude's own process. */
  pid: number;
  sessionId: string;
  /** Field 22 of /proc/<pid>/stat when Claude started: a record whose pid was reused by
   * another process does not match it. */
  procStart?: string | undefined;
  version?: string | undefined;
  cwd?: string | undefined;
  /** `session:@window.%pane`, when Claude saw TMUX set (it does not name the server). */
  tmux?: string | undefined;
  /** The inbox: a Unix socket, present when the inbox is on. */
  socket?: string | undefined;
  /** `idle`, `busy` or `waiting`. */
  status?: string | undefined;
  /** With `waiting`: `permission prompt`, `dialog open`. */
  waitingFor?: string | undefined;
  /** When the status was written (ms since the epoch). */
  statusAtMs?: number | undefined;
  /** The config folder it was found in (`~/.claude`), and its file. */
  configDir: string;
  file: string;
}

/**
 * The folders Claude Code keeps its state in, for an environment: `$CLAUDE_CONFIG_DIR`, else
 * `$HOME/.claude`.
 */
export function claudeConfigDirs(env: Record<string, string | undefined>): string[] {
  const dirs: string[] = [];
  if (env.CLAUDE_CONFIG_DIR) dirs.push(env.CLAUDE_CONFIG_DIR);
  if (env.HOME) dirs.push(join(env.HOME, '.claude'));
  return [...new Set(dirs)];
}

/** A session record as read, or undefined when it is not one (a half-written file, another
 * shape). */
export function checkSessionRecord(
  value: unknown,
  where: {configDir: string; file: string},
): ClaudeSession | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  if (!Number.isSafeInteger(r.pid) || (r.pid as number) <= 0) return undefined;
  if (typeof r.sessionId !== 'string' || !/^[A-Za-z0-9-]{1,100}$/.test(r.sessionId))
    return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    pid: r.pid as number,
    sessionId: r.sessionId,
    procStart: text(r.procStart),
    version: text(r.version),
    cwd: text(r.cwd),
    tmux: text(r.tmux),
    socket: text(r.messagingSocketPath),
    status: text(r.status),
    waitingFor: text(r.waitingFor),
    statusAtMs: num(r.statusUpdatedAt) ?? num(r.updatedAt),
    ...where,
  };
}

/** The session's record as it is now (it is rewritten at each change of status), or
 * undefined once it is gone or names another process. */
export async function rereadSession(session: ClaudeSession): Promise<ClaudeSession | undefined> {
  try {
    const where = {configDir: session.configDir, file: session.file};
    const again = checkSessionRecord(
      JSON.parse(await readTextCapped(session.file, READ_LIMITS.record)),
      where,
    );
    return again?.pid === session.pid ? again : undefined;
  } catch {
    return undefined;
  }
}

/** The session records in `configDir` (none when it has no sessions folder). */
export async function readSessions(configDir: string): Promise<ClaudeSession[]> {
  const dir = join(configDir, 'sessions');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: ClaudeSession[] = [];
  for (const name of names.filter((n) => /^\d+\.json$/.test(n))) {
    const file = join(dir, name);
    try {
      const s = checkSessionRecord(JSON.parse(await readTextCapped(file, READ_LIMITS.record)), {
        configDir,
        file,
      });
      if (s) found.push(s);
    } catch {
      // being written, or just removed
    }
  }
  return found;
}

/**
 * The Claude Code session running in a pane, tied to the `claude` process itself (issue 61):
 * a record counts when its pid is a process of the pane (the pane's first process or below it)
 * in the foreground of the pane's terminal, whose command line names Claude Code, started when
 * the record says (field 22 of its stat,
 * where /proc tells it: a record without it is then refused too). Of several such records the
 * one nearest the pane is the session — a process Claude's own tools started, named `claude`
 * and writing a record of its own, sits below it. Matched by process, never by the record's
 * `tmux` field alone (two tmux servers can both have a %1). Why none, otherwise.
 */
export async function sessionOfPane(
  tree: ProcessTree,
  panePid: number,
  configDirs: readonly string[],
): Promise<{session: ClaudeSession} | {why: string}> {
  if (configDirs.length === 0) return {why: 'no HOME or CLAUDE_CONFIG_DIR to find its sessions in'};
  let records = 0;
  let best: {session: ClaudeSession; depth: number} | undefined;
  for (const dir of configDirs) {
    for (const session of await readSessions(dir)) {
      records++;
      const chain = await tree.ancestry(session.pid);
      const depth = chain.findIndex((l) => l.pid === panePid);
      if (depth < 0 || !namesClaude(chain[0]?.command ?? '')) continue;
      // The program the pane's terminal gives its keys to: a process the pane started in the
      // background is not it, whatever it calls itself.
      const [own, pane] = await Promise.all([tree.groupsOf(session.pid), tree.groupsOf(panePid)]);
      if (own && pane && own.group !== pane.foreground) continue;
      const start = await tree.procStartOf(session.pid);
      if (start !== undefined && start !== session.procStart) continue;
      if (best === undefined || depth < best.depth) best = {session, depth};
    }
  }
  if (best) return {session: best.session};
  return {
    why:
      records === 0
        ? `no Claude Code session record in ${configDirs.map((d) => join(d, 'sessions')).join(' or ')}`
        : `none of the ${records} Claude Code session record(s) is of the Claude Code process in the pane`,
  };
}

/** Whether a command line (its words joined by spaces) runs Claude Code: its executable, or the
 * script an interpreter runs, is Claude's (the profile's `programs`). */
function namesClaude(command: string): boolean {
  return agentOfCommandLine(command.split(' ')) === 'claude';
}
