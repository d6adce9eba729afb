/**
 * opencode's door: its TUI is a client of its own HTTP server, which it opens on a port of its
 * choosing — one nudge can know only when opencode was started with `--port N` (as
 * `opencode --port 4096`; `nudge run --agent opencode` may start it so). A notice is posted
 * to the session the TUI works in (`POST /session/<id>/prompt_async`: the input line and a
 * person's draft are not touched) and counts once the session's messages hold it. Measured on
 * 1.18.33 (test/integration/doors-at-model.test.ts).
 */
import {realClock} from '../base/clock.js';

/** The `--port` of an opencode command line, if it has one. */
export function portOf(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const value = a === '--port' ? argv[i + 1] : a.startsWith('--port=') ? a.slice(7) : undefined;
    if (value === undefined) continue;
    const port = Number(value);
    return Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined;
  }
  return undefined;
}

export interface OpencodeServer {
  base: string;
  headers: Record<string, string>;
}

/** The server of an opencode started with `--port`, on loopback, with its password when the
 * environment gives one (OPENCODE_SERVER_PASSWORD). */
export function serverOf(port: number, env: Record<string, string | undefined>): OpencodeServer {
  const headers: Record<string, string> = {'content-type': 'application/json'};
  if (env.OPENCODE_SERVER_PASSWORD) {
    const user = env.OPENCODE_SERVER_USERNAME || 'opencode';
    headers.authorization = `Basic ${Buffer.from(`${user}:${env.OPENCODE_SERVER_PASSWORD}`).toString('base64')}`;
  }
  return {base: `http://127.0.0.1:${port}`, headers};
}

async function call(
  s: OpencodeServer,
  method: 'GET' | 'POST',
  path: string,
  timeoutMs: number,
  body?: unknown,
): Promise<{status: number; json: unknown}> {
  const r = await fetch(`${s.base}${path}`, {
    method,
    headers: s.headers,
    signal: AbortSignal.timeout(timeoutMs),
    ...(body === undefined ? {} : {body: JSON.stringify(body)}),
  });
  const text = await r.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {status: r.status, json};
}

/** The session the TUI works in: the most recently updated one. */
export async function currentSession(
  s: OpencodeServer,
  timeoutMs: number,
): Promise<{id: string; title: string} | {why: string}> {
  let listed: {status: number; json: unknown};
  try {
    listed = await call(s, 'GET', '/session', timeoutMs);
  } catch (error) {
    return {why: `its server at ${s.base} did not answer: ${(error as Error).message}`};
  }
  if (listed.status !== 200 || !Array.isArray(listed.json))
    return {why: `its server at ${s.base} answered ${listed.status} to GET /session`};
  const sessions = (
    listed.json as Array<{id?: unknown; title?: unknown; time?: {updated?: unknown}}>
  )
    .filter((x) => typeof x.id === 'string' && /^ses_[A-Za-z0-9]+$/.test(x.id))
    .sort((a, b) => Number(b.time?.updated ?? 0) - Number(a.time?.updated ?? 0));
  const first = sessions[0];
  if (!first) return {why: 'the TUI has no session yet (nothing was sent in it)'};
  return {id: String(first.id), title: String(first.title ?? '')};
}

/** Post `text` to the session and wait until its messages hold it. */
export async function postToOpencode(
  s: OpencodeServer,
  text: string,
  confirmMs: number,
  signal: AbortSignal,
): Promise<
  {ok: true; delivery: 'submitted' | 'queued'; session: string} | {ok: false; why: string}
> {
  const session = await currentSession(s, confirmMs);
  if ('why' in session) return {ok: false, why: session.why};
  const path = `/session/${session.id}`;
  try {
    const status = await call(s, 'GET', '/session/status', confirmMs);
    const busy = !!(status.json as Record<string, unknown> | undefined)?.[session.id];
    const before = await userTexts(s, path, confirmMs);
    const posted = await call(s, 'POST', `${path}/prompt_async`, confirmMs, {
      parts: [{type: 'text', text}],
    });
    if (posted.status >= 300)
      return {ok: false, why: `its server answered ${posted.status} to the prompt`};
    const deadline = realClock.now() + confirmMs;
    while (realClock.now() < deadline) {
      const now = await userTexts(s, path, confirmMs);
      if (now.filter((t) => t === text).length > before.filter((t) => t === text).length)
        return {ok: true, delivery: busy ? 'queued' : 'submitted', session: session.id};
      await new Promise((r) => setTimeout(r, 100));
      signal.throwIfAborted();
    }
    return {ok: false, why: `session ${session.id} did not show the notice within ${confirmMs} ms`};
  } catch (error) {
    if (signal.aborted) throw error;
    return {ok: false, why: `its server at ${s.base} failed: ${(error as Error).message}`};
  }
}

/** The messages of the session the TUI works in, as its server gives them (JSON text), and
 * the session's id; or why not. */
export async function sessionMessages(
  s: OpencodeServer,
  timeoutMs: number,
): Promise<{session: string; json: string} | {why: string}> {
  const session = await currentSession(s, timeoutMs);
  if ('why' in session) return session;
  try {
    const r = await call(s, 'GET', `/session/${session.id}/message`, timeoutMs);
    if (r.status !== 200 || !Array.isArray(r.json))
      return {why: `its server answered ${r.status} to the session's messages`};
    return {session: session.id, json: JSON.stringify(r.json)};
  } catch (error) {
    return {why: `its server at ${s.base} failed: ${(error as Error).message}`};
  }
}

async function userTexts(s: OpencodeServer, path: string, timeoutMs: number): Promise<string[]> {
  const r = await call(s, 'GET', `${path}/message`, timeoutMs);
  if (!Array.isArray(r.json)) return [];
  return (
    r.json as Array<{info?: {role?: unknown}; parts?: Array<{type?: unknown; text?: unknown}>}>
  )
    .filter((m) => m.info?.role === 'user')
    .flatMap((m) => (m.parts ?? []).filter((p) => p.type === 'text').map((p) => String(p.text)));
}
