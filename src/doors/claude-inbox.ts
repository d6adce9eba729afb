import {randomUUID} from 'node:crypto';
import {open, readdir, stat, unlink} from 'node:fs/promises';
import {createConnection, createServer, type Server} from 'node:net';
import {dirname, join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {READ_LIMITS, readTextCapped} from '../base/bounded-read.js';
import {realClock} from '../base/clock.js';
import {socketPathProblem} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {type ClaudeSession, rereadSession} from './claude-session.js';

/**
 * Claude Code's inbox (2.1.224 and newer): every interactive session listens on a Unix
 * socket for JSON lines; a `{"type":"user",…}` line is read between tool calls during a turn
 * and starts a turn when the session is idle, shown to the model as a message from "another
 * Claude session". Measured on 2.1.332: docs/agents.md, "Doors".
 *
 * Nothing is written back on the sending connection, so a message counts as delivered only
 * when Claude's own transcript shows it: a `queue-operation` `enqueue` line with its exact
 * text (taken into the queue), then a `user` line of peer origin holding it (given to the
 * model). A message Claude holds for the person's review is told by a receipt, which Claude
 * writes back only to a socket of the sending process in its own socket folder.
 */

/** How a post ended. */
export type InboxResult =
  | {kind: 'submitted' | 'queued'; ms: number}
  | {kind: 'refused' | 'held' | 'unconfirmed' | 'not-applicable'; why: string; ms: number};

export interface InboxPost {
  session: ClaudeSession;
  body: string;
  /** The token Claude gave its children (`CLAUDE_CODE_MESSAGING_TOKEN`), for this socket. */
  token?: string | undefined;
  /** A name for the receipt socket (the job's id). */
  name: string;
  /** How long to wait for the transcript to show it. */
  confirmMs: number;
  /** A session at work: how long an `enqueue` may stand without the `user` line before it
   * counts as queued behind the running turn. An idle session's message is waited for until
   * it is given to the model (within ~50 ms measured; the whole window on a loaded machine). */
  queuedAfterMs: number;
  signal: AbortSignal;
}

/** Receipts that say the message did not reach the model. */
const NOT_DELIVERED = new Set(['held', 'denied', 'refused', 'dropped', 'expired']);

/** Why Claude would hold a message from a process outside it, if it would: a session in
 * bypass mode (its transcript's last permission mode), or `crossSessionInbound: "hold"` in a
 * settings file. Then a post would only wait for the person's review. */
export async function holdsOutsideMessages(
  session: ClaudeSession,
  transcript: string | undefined,
): Promise<string | undefined> {
  const settings = [
    join(session.configDir, 'settings.json'),
    ...(session.cwd
      ? [
          join(session.cwd, '.claude', 'settings.json'),
          join(session.cwd, '.claude', 'settings.local.json'),
        ]
      : []),
  ];
  for (const file of settings) {
    const value = await readJson(file);
    if (
      value &&
      typeof value === 'object' &&
      (value as Record<string, unknown>).crossSessionInbound === 'hold'
    )
      return `${file} sets crossSessionInbound to "hold": Claude Code holds outside messages for review`;
  }
  if (transcript && (await lastPermissionMode(transcript)) === 'bypassPermissions')
    return 'the session runs with --dangerously-skip-permissions, where Claude Code holds a message from outside it for review';
  return undefined;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readTextCapped(file, READ_LIMITS.record));
  } catch {
    return undefined;
  }
}

/** The last `permission-mode` a transcript records (its last 256 KiB are read). */
async function lastPermissionMode(file: string): Promise<string | undefined> {
  let mode: string | undefined;
  for (const line of (await readTail(file, 256 * 1024)).split('\n')) {
    if (!line.includes('"permission-mode"')) continue;
    try {
      const entry = JSON.parse(line) as {type?: unknown; permissionMode?: unknown};
      if (entry.type === 'permission-mode' && typeof entry.permissionMode === 'string')
        mode = entry.permissionMode;
    } catch {
      // a torn line
    }
  }
  return mode;
}

async function readTail(file: string, bytes: number): Promise<string> {
  try {
    const size = (await stat(file)).size;
    return await readFrom(file, Math.max(0, size - bytes));
  } catch {
    return '';
  }
}

async function readFrom(file: string, offset: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const {size} = await handle.stat();
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    const {bytesRead} = await handle.read(buffer, 0, buffer.length, offset);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The session's transcript: `<config dir>/projects/<folder>/<session id>.jsonl`. */
export async function transcriptOf(session: ClaudeSession): Promise<string | undefined> {
  const projects = join(session.configDir, 'projects');
  let folders: string[];
  try {
    folders = await readdir(projects);
  } catch {
    return undefined;
  }
  for (const folder of folders) {
    const file = join(projects, folder, `${session.sessionId}.jsonl`);
    if (
      await stat(file).then(
        (s) => s.isFile(),
        () => false,
      )
    )
      return file;
  }
  return undefined;
}

/** Post `body` to the session's inbox and wait until its transcript shows it taken. */
export async function postToInbox(p: InboxPost): Promise<InboxResult> {
  const started = realClock.now();
  const ms = () => realClock.now() - started;
  const socket = p.session.socket;
  if (!socket)
    return {kind: 'not-applicable', why: 'its inbox is off (no messagingSocketPath)', ms: ms()};
  const transcript = await transcriptOf(p.session);
  const holds = await holdsOutsideMessages(p.session, transcript);
  if (holds) return {kind: 'not-applicable', why: holds, ms: ms()};
  const offset = transcript
    ? await stat(transcript).then(
        (s) => s.size,
        () => 0,
      )
    : 0;
  // The session's status as it is now (the record is rewritten at each change).
  const idle = ((await rereadSession(p.session)) ?? p.session).status === 'idle';
  const receipts = await listenForReceipts(join(dirname(socket), `nudge-${p.name}.sock`));
  try {
    const msgId = randomUUID();
    const lines = [
      ...(p.token ? [{type: 'auth', token: p.token}] : []),
      {
        type: 'user',
        msgV: 1,
        msg_id: msgId,
        ...(receipts ? {from: `uds:${receipts.path}`} : {}),
        priority: 'next',
        message: {role: 'user', content: p.body},
      },
    ];
    const sent = await writeLines(
      socket,
      lines.map((l) => JSON.stringify(l)),
    );
    if (sent)
      return {kind: 'refused', why: `its inbox ${socket} refused the message: ${sent}`, ms: ms()};
    return await confirm(p, {transcript, offset, receipts, msgId, ms, idle});
  } finally {
    await receipts?.close();
  }
}

/** Write the lines to the socket and close; an error's words, or undefined when written. */
function writeLines(path: string, lines: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    c.setTimeout(5_000, () => {
      c.destroy();
      resolve('it did not accept a connection within 5 s');
    });
    c.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    c.on('connect', () => c.end(`${lines.join('\n')}\n`, () => resolve(undefined)));
  });
}

interface Receipts {
  path: string;
  /** The last status a receipt for `msgId` gave. */
  statusOf(msgId: string): {status: string; reason: string} | undefined;
  close(): Promise<void>;
}

/** Listen for Claude's receipts at `path` (in its socket folder), or undefined where a
 * socket cannot be made there: the post then goes without asking for receipts. */
async function listenForReceipts(path: string): Promise<Receipts | undefined> {
  // A path too long to bind: no receipts (the transcript still confirms the post).
  if (socketPathProblem(path, thisProcess.platform)) return undefined;
  const got = new Map<string, {status: string; reason: string}>();
  const server: Server = createServer((conn) => {
    let buffered = '';
    conn.setEncoding('utf8');
    conn.on('data', (chunk: string) => {
      buffered = (buffered + chunk).slice(-65_536);
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const r = JSON.parse(line) as Record<string, unknown>;
          if (r.action === 'peer_message_status' && typeof r.orig_msg_id === 'string')
            got.set(r.orig_msg_id, {status: String(r.status), reason: String(r.reason ?? '')});
        } catch {
          // not a receipt
        }
      }
    });
    conn.on('error', () => {});
  });
  await unlink(path).catch(() => {});
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(path, () => resolve(true));
  });
  if (!listening) return undefined;
  return {
    path,
    statusOf: (id) => got.get(id),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(path).catch(() => {});
    },
  };
}

/** Wait for the transcript to show the message taken, a receipt to say it was not, or the
 * window to pass. */
async function confirm(
  p: InboxPost,
  o: {
    transcript: string | undefined;
    offset: number;
    receipts: Receipts | undefined;
    msgId: string;
    ms: () => number;
    /** Whether the session was idle when the message was posted. */
    idle: boolean;
  },
): Promise<InboxResult> {
  let transcript = o.transcript;
  let enqueuedAt: number | undefined;
  for (;;) {
    const receipt = o.receipts?.statusOf(o.msgId);
    if (receipt && NOT_DELIVERED.has(receipt.status))
      return {
        kind: 'held',
        why: `Claude Code answered "${receipt.status}": ${receipt.reason}`,
        ms: o.ms(),
      };
    transcript ??= await transcriptOf(p.session);
    if (transcript) {
      const seen = seenIn(
        await readFrom(transcript, transcript === o.transcript ? o.offset : 0).catch(() => ''),
        p.body,
      );
      if (seen === 'user') return {kind: 'submitted', ms: o.ms()};
      if (seen === 'enqueued') enqueuedAt ??= o.ms();
    }
    if (enqueuedAt !== undefined && !o.idle && o.ms() - enqueuedAt >= p.queuedAfterMs)
      return {kind: 'queued', ms: o.ms()};
    if (o.ms() >= p.confirmMs) {
      return enqueuedAt !== undefined
        ? {kind: 'queued', ms: o.ms()}
        : {
            kind: 'unconfirmed',
            why: `its transcript did not show the message within ${p.confirmMs} ms`,
            ms: o.ms(),
          };
    }
    await sleep(50, undefined, {signal: p.signal});
  }
}

/** How far the transcript lines show `body`: given to the model (a `user` line of peer
 * origin holding it), taken into the queue (an `enqueue` of exactly it), or not at all. */
export function seenIn(lines: string, body: string): 'user' | 'enqueued' | undefined {
  let seen: 'enqueued' | undefined;
  for (const line of lines.split('\n')) {
    if (!line.includes('"queue-operation"') && !line.includes('"user"')) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (entry.type === 'queue-operation' && entry.operation === 'enqueue' && entry.content === body)
      seen = 'enqueued';
    if (entry.type === 'user' && contentHolds(entry.message, body)) return 'user';
  }
  return seen;
}

function contentHolds(message: unknown, body: string): boolean {
  const content = (message as {content?: unknown} | undefined)?.content;
  if (typeof content === 'string') return content.includes(`\n${body}\n`);
  if (!Array.isArray(content)) return false;
  return content.some(
    (part) =>
      part &&
      typeof part === 'object' &&
      typeof (part as {text?: unknown}).text === 'string' &&
      (part as {text: string}).text.includes(`\n${body}\n`),
  );
}
