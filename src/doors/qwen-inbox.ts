import {randomBytes, randomUUID} from 'node:crypto';
import {mkdir, readdir, unlink} from 'node:fs/promises';
import {createConnection, createServer, type Server} from 'node:net';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {READ_LIMITS, readTextCapped} from '../base/bounded-read.js';
import {realClock} from '../base/clock.js';
import {DIR_MODE, socketPathProblem} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {descendsFrom, type ProcessTree} from '../process/tree.js';

/**
 * Qwen Code's door: its Cross-Session Protocol v1 (the "Cross-Session Protocol" page of
 * QwenLM/qwen-code's user docs; on by default, `agents.crossSessionMessaging`).
 * Each session publishes `$QWEN_HOME/sessions/<pid>.json` (its `sessionId`, its inbox
 * `ipcPath`, its `ipcToken`); a connection to the inbox carries an auth line and one `user`
 * frame (NDJSON), and the session answers on a connection to the sender's own inbox with
 * `delivery_status` receipts: `held`, `delivered` (queued for the model), `denied`,
 * `refused`, `expired`, `misaddressed`, `dropped`.
 *
 * nudge posts only with the token Qwen Code gave its own children
 * (`QWEN_CODE_MESSAGING_TOKEN`, beside `QWEN_CODE_MESSAGING_SOCKET` naming the session's
 * inbox): a job submitted from that session's own tool, which Qwen Code delivers without
 * review. From anywhere else a message would wait for the person's review (the protocol's
 * parity rule: nudge claims no review class it cannot prove), so the notice is typed instead.
 */

/** A session's record as the registry holds it (the fields nudge reads, checked). */
export interface QwenSession {
  pid: number;
  sessionId: string;
  ipcPath: string;
  ipcToken?: string | undefined;
  version?: string | undefined;
  startedAt: number;
}

/** What a post came to: the session's receipt, or why there is none. */
export type QwenResult =
  | {ok: true; delivery: 'queued'}
  | {ok: false; result: 'held' | 'refused' | 'unconfirmed'; why: string};

/** The folders sessions publish their records in: `$QWEN_HOME`, else `$HOME/.qwen`. */
export function qwenHomes(env: Record<string, string | undefined>): string[] {
  const dirs: string[] = [];
  if (env.QWEN_HOME) dirs.push(env.QWEN_HOME);
  if (env.HOME) dirs.push(join(env.HOME, '.qwen'));
  return [...new Set(dirs)];
}

const TOKEN = /^[0-9a-f]{64}$/;
const RECORD_NAME = /^(\d+)(?:-[0-9a-f]{8})?\.json$/;
/** Records read from one registry at most (a folder of a machine's sessions). */
const MOST_RECORDS = 256;

/** A record read from `file` named `name`, or undefined when it is not one nudge can use. */
export function checkRecord(name: string, value: unknown): QwenSession | undefined {
  // Compared in canonical decimal form: a zero-padded name agrees with nothing.
  const pidOfName = RECORD_NAME.exec(name)?.[1];
  if (!value || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  const ok =
    r.schemaVersion === 1 &&
    typeof r.pid === 'number' &&
    String(r.pid) === pidOfName &&
    typeof r.sessionId === 'string' &&
    typeof r.ipcPath === 'string' &&
    r.ipcPath.startsWith('/') &&
    (r.ipcToken === undefined || (typeof r.ipcToken === 'string' && TOKEN.test(r.ipcToken)));
  if (!ok) return undefined;
  return {
    pid: r.pid as number,
    sessionId: r.sessionId as string,
    ipcPath: r.ipcPath as string,
    ipcToken: r.ipcToken as string | undefined,
    version: typeof r.qwenVersion === 'string' ? r.qwenVersion : undefined,
    startedAt: typeof r.startedAt === 'number' ? r.startedAt : 0,
  };
}

/** The pane's Qwen Code session: the newest record whose process runs in the pane. */
export async function qwenSessionOfPane(
  tree: ProcessTree,
  panePid: number,
  homes: readonly string[],
): Promise<{session: QwenSession} | {why: string}> {
  if (homes.length === 0) return {why: 'no HOME or QWEN_HOME to find its sessions in'};
  let best: QwenSession | undefined;
  for (const home of homes) {
    const dir = join(home, 'sessions');
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) =>
      RECORD_NAME.test(n),
    );
    for (const name of names.slice(0, MOST_RECORDS)) {
      const text = await readTextCapped(join(dir, name), READ_LIMITS.record).catch(() => '');
      let session: QwenSession | undefined;
      try {
        session = checkRecord(name, JSON.parse(text));
      } catch {
        continue;
      }
      if (!session || !(await descendsFrom(tree, session.pid, panePid))) continue;
      if (!best || session.startedAt > best.startedAt) best = session;
    }
  }
  if (best) return {session: best};
  return {
    why: `no Qwen Code session record of this pane in ${homes.map((h) => join(h, 'sessions')).join(' or ')} (agents.crossSessionMessaging off?)`,
  };
}

/** Whether nudge may post to `session`: only with the token Qwen Code gave the process that
 * submitted the job, for that session's inbox. */
export function ownToken(
  session: QwenSession,
  env: Record<string, string | undefined>,
): string | {why: string} {
  const token = env.QWEN_CODE_MESSAGING_TOKEN;
  if (env.QWEN_CODE_MESSAGING_SOCKET === session.ipcPath && token) return token;
  return {
    why: "the job was not submitted from this Qwen Code session's own tool, and a message from outside it waits for the person's review",
  };
}

/** Post one message and wait for the session's receipt (within `confirmMs`). `inboxDir`:
 * where nudge's own inbox for the receipts is made (0700). */
export async function postToQwen(p: {
  session: QwenSession;
  token: string;
  body: string;
  /** Who it is from, as the session shows it (the frame's `fromName`). */
  fromName: string;
  inboxDir: string;
  name: string;
  confirmMs: number;
  signal: AbortSignal;
}): Promise<QwenResult> {
  await mkdir(p.inboxDir, {recursive: true, mode: DIR_MODE});
  const replyToken = randomBytes(32).toString('hex');
  const inbox = await listen(join(p.inboxDir, `qwen-${p.name}.sock`), replyToken);
  try {
    const msgId = randomUUID();
    const frames = [
      {msgV: 1, type: 'auth', token: p.token},
      {
        msgV: 1,
        msgId,
        type: 'user',
        ...(inbox ? {from: inbox.path, replyToken} : {}),
        fromName: p.fromName,
        toSessionId: p.session.sessionId,
        priority: 'next',
        message: {role: 'user', content: p.body},
      },
    ];
    const sent = await writeFrames(
      p.session.ipcPath,
      frames.map((f) => JSON.stringify(f)),
    );
    if (sent) return {ok: false, result: 'refused', why: `its inbox ${p.session.ipcPath}: ${sent}`};
    if (!inbox)
      return {ok: false, result: 'unconfirmed', why: 'no inbox of nudge’s for its receipts'};
    return await receiptOf(inbox, msgId, p.confirmMs, p.signal);
  } finally {
    await inbox?.close();
  }
}

/** Receipts that end a post without the message queued for the model. */
const NOT_DELIVERED: Record<string, 'held' | 'refused'> = {
  held: 'held',
  denied: 'refused',
  refused: 'refused',
  expired: 'refused',
  misaddressed: 'refused',
  dropped: 'refused',
};

async function receiptOf(
  inbox: Inbox,
  msgId: string,
  confirmMs: number,
  signal: AbortSignal,
): Promise<QwenResult> {
  const started = realClock.now();
  for (;;) {
    const r = inbox.statusOf(msgId);
    if (r?.status === 'delivered') return {ok: true, delivery: 'queued'};
    const not = r ? NOT_DELIVERED[r.status] : undefined;
    if (r && not)
      return {ok: false, result: not, why: `Qwen Code answered "${r.status}": ${r.why}`};
    if (realClock.now() - started >= confirmMs)
      return {ok: false, result: 'unconfirmed', why: `no receipt within ${confirmMs} ms`};
    await sleep(50, undefined, {signal});
  }
}

/** Write the lines to the socket, half-close, and wait for the peer to close; an error's
 * words, or undefined. */
function writeFrames(path: string, lines: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const c = createConnection(path);
    c.setTimeout(5_000, () => {
      c.destroy();
      resolve('it did not take the message within 5 s');
    });
    c.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    c.on('connect', () => c.end(`${lines.join('\n')}\n`));
    c.on('close', () => resolve(undefined));
    c.resume();
  });
}

interface Inbox {
  path: string;
  statusOf(msgId: string): {status: string; why: string} | undefined;
  close(): Promise<void>;
}

/** nudge's own inbox for the session's receipts: a frame counts only on a connection whose
 * auth line presents `token`; lines and connections bounded. */
async function listen(path: string, token: string): Promise<Inbox | undefined> {
  if (socketPathProblem(path, thisProcess.platform)) return undefined;
  const got = new Map<string, {status: string; why: string}>();
  const server: Server = createServer((conn) => {
    let buffered = '';
    let authed = false;
    conn.setEncoding('utf8');
    conn.setTimeout(30_000, () => conn.destroy());
    conn.on('data', (chunk: string) => {
      buffered = (buffered + chunk).slice(-65_536);
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const frame = parseFrame(line);
        if (!frame) continue;
        if (!authed) {
          authed = frame.type === 'auth' && frame.token === token;
          if (!authed) return void conn.destroy();
          continue;
        }
        if (frame.action === 'delivery_status' && typeof frame.origMsgId === 'string')
          got.set(frame.origMsgId, {status: String(frame.status), why: String(frame.reason ?? '')});
      }
    });
    conn.on('error', () => {});
  });
  server.maxConnections = 16;
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

function parseFrame(line: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(line) as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
