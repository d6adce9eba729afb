import {open, readdir, stat} from 'node:fs/promises';
import {join} from 'node:path';
import type {RecordFormat} from '../agents/replies.js';
import {claudeConfigDirs} from '../doors/claude-session.js';
import {entriesOf} from './formats.js';
import {replyOfTurn, type TurnReply} from './turns.js';

/**
 * Where each record format is kept, for the environment the agent runs in (its HOME,
 * CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, PI_CODING_AGENT_DIR, COPILOT_HOME), and the turn of a prompt found in them.
 */

/** How much of the end of a record is read: a turn asked for just now is at its end (a long
 * session's transcript runs to tens of MiB). */
export const TAIL_BYTES = 8 * 1024 * 1024;

type Env = Record<string, string | undefined>;

/** The formats kept in files (opencode's is its server's: src/records/reply.ts). */
export type FileFormat = Exclude<RecordFormat, 'opencode-server'>;

/** The folders whose files (or whose sub-folders' files, `depth`) are the format's records. */
function recordRoots(format: FileFormat, env: Env, sinceMs: number): string[] {
  const home = env.HOME;
  switch (format) {
    case 'claude-transcript':
      return claudeConfigDirs(env).map((d) => join(d, 'projects', '*'));
    case 'qwen-chat':
      return home ? [join(home, '.qwen', 'projects', '*', 'chats')] : [];
    case 'gemini-chat': {
      const root = env.GEMINI_CLI_HOME || home;
      return root ? [join(root, '.gemini', 'tmp', '*', 'chats')] : [];
    }
    case 'codex-rollout': {
      const codex = env.CODEX_HOME || (home ? join(home, '.codex') : undefined);
      return codex ? codexDays(sinceMs).map((d) => join(codex, 'sessions', d)) : [];
    }
    case 'pi-session': {
      const dir = env.PI_CODING_AGENT_DIR || (home ? join(home, '.pi', 'agent') : undefined);
      return dir ? [join(dir, 'sessions', '*')] : [];
    }
    case 'copilot-events': {
      const dir = env.COPILOT_HOME || (home ? join(home, '.copilot') : undefined);
      return dir ? [join(dir, 'session-state', '*')] : [];
    }
  }
}

/** The day folders (`YYYY/MM/DD`) a rollout begun since `sinceMs` may be in: the day before
 * it (a session started yesterday), its day and today, in UTC and local time. */
export function codexDays(sinceMs: number): string[] {
  const days = new Set<string>();
  for (const t of [sinceMs - 86_400_000, sinceMs, Date.now()]) {
    const d = new Date(t);
    for (const [y, m, day] of [
      [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()],
      [d.getFullYear(), d.getMonth() + 1, d.getDate()],
    ])
      days.add(join(String(y), String(m).padStart(2, '0'), String(day).padStart(2, '0')));
  }
  return [...days];
}

const NAMES: Record<FileFormat, RegExp> = {
  'claude-transcript': /^[0-9a-f-]{36}\.jsonl$/,
  'qwen-chat': /^[0-9a-f-]{36}\.jsonl$/,
  'gemini-chat': /^session-.*\.jsonl?$/,
  'codex-rollout': /^rollout-.*\.jsonl$/,
  'pi-session': /\.jsonl$/,
  'copilot-events': /^events\.jsonl$/,
};

/** The folders a root names (`…/projects/*` is each folder of `projects`). */
async function expand(root: string): Promise<string[]> {
  const parts = root.split('/');
  const star = parts.indexOf('*');
  if (star < 0) return [root];
  const base = parts.slice(0, star).join('/') || '/';
  const rest = parts.slice(star + 1);
  const names = await readdir(base).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names) out.push(...(await expand([base, n, ...rest].join('/'))));
  return out;
}

/** The records of `format` written since `sinceMs`, newest first. */
export async function recordsSince(
  format: FileFormat,
  env: Env,
  sinceMs: number,
): Promise<string[]> {
  const found: Array<{path: string; mtimeMs: number}> = [];
  for (const root of recordRoots(format, env, sinceMs))
    for (const folder of await expand(root)) {
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names.filter((n) => NAMES[format].test(n))) {
        const path = join(folder, name);
        const st = await stat(path).catch(() => undefined);
        if (st?.isFile() && st.mtimeMs >= sinceMs) found.push({path, mtimeMs: st.mtimeMs});
      }
    }
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs).map((f) => f.path);
}

/** The last {@link TAIL_BYTES} of a file, from its first whole line. */
export async function readTail(path: string, limit = TAIL_BYTES): Promise<string> {
  const file = await open(path, 'r');
  try {
    const {size} = await file.stat();
    const start = Math.max(0, size - limit);
    const buf = Buffer.alloc(size - start);
    const {bytesRead} = await file.read(buf, 0, buf.length, start);
    const text = buf.subarray(0, bytesRead).toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    await file.close();
  }
}

/** A reply found, and the record it is in. */
export interface FoundReply extends TurnReply {
  record: string;
}

/**
 * The turn of `prompt` asked at `sinceMs` in the records of `format`: the one record whose
 * last turn of that prompt began since then and holds its final reply. Two records with such
 * a turn (two sessions asked the same words at once) are no answer: which one is the pane's
 * cannot be told. `only`: the pane's own record, where it is known (Claude Code's session).
 */
export async function findReply(
  format: FileFormat,
  prompt: string,
  o: {env: Env; sinceMs: number; only?: string | undefined},
): Promise<{reply: FoundReply} | {why: string}> {
  const files = o.only ? [o.only] : await recordsSince(format, o.env, o.sinceMs);
  if (files.length === 0) return {why: `no ${format} record changed since the prompt was typed`};
  const found: FoundReply[] = [];
  for (const record of files) {
    const text = await readTail(record).catch(() => '');
    const reply = replyOfTurn(entriesOf(format, text), prompt);
    // A turn of the same words from before the ask is an older answer, not this one.
    if (!reply || (reply.promptAtMs !== undefined && reply.promptAtMs < o.sinceMs)) continue;
    found.push({...reply, record});
  }
  const [one, other] = found;
  if (!one) return {why: `none of ${files.length} ${format} record(s) holds the turn's reply yet`};
  if (other)
    return {why: `${found.length} sessions hold a turn of these words since the prompt was typed`};
  return {reply: one};
}
