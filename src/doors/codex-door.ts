/**
 * Codex's door: a TUI started as a client of an app-server (`codex --remote unix://PATH`)
 * shares its thread with any other client of that server, which can start a turn on it
 * (JSON-RPC over a WebSocket on the Unix socket: `initialize`, `thread/loaded/list`,
 * `thread/read`, `turn/start`). A plain `codex` talks to an app-server nudge cannot find, so
 * the door is there only with `--remote unix://…`. Measured on 0.169.0
 * (test/integration/doors-at-model.test.ts).
 */

/** The Unix socket of a Codex command line started with `--remote unix://PATH`. */
export function remoteSocketOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    const value =
      a === '--remote' ? argv[i + 1] : a.startsWith('--remote=') ? a.slice(9) : undefined;
    if (value === undefined) continue;
    const m = /^unix:\/\/(\/.+)$/.exec(value);
    return m?.[1];
  }
  return undefined;
}

interface Rpc {
  call(method: string, params: unknown): Promise<Record<string, unknown>>;
  notify(method: string): void;
  close(): void;
}

/** A JSON-RPC client over the app-server's WebSocket on `socket`. */
async function connect(socket: string, timeoutMs: number): Promise<Rpc> {
  // Loaded only here: a notice to a Codex app-server client is the one use of it.
  const {default: WebSocket} = await import('ws');
  const ws = new WebSocket(`ws+unix://${socket}:/`, {handshakeTimeout: timeoutMs});
  const waiting = new Map<
    number,
    {resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void}
  >();
  let next = 1;
  ws.on('message', (data) => {
    let m: {id?: unknown; result?: unknown; error?: {message?: unknown}};
    try {
      m = JSON.parse(String(data)) as typeof m;
    } catch {
      return;
    }
    const w = typeof m.id === 'number' ? waiting.get(m.id) : undefined;
    if (!w) return;
    waiting.delete(m.id as number);
    if (m.error) w.reject(new Error(String(m.error.message ?? 'an error')));
    else w.resolve((m.result ?? {}) as Record<string, unknown>);
  });
  const fail = (e: Error) => {
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  ws.on('close', () => fail(new Error('the app-server closed the connection')));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.on('error', fail);
  return {
    call(method, params) {
      const id = next++;
      ws.send(JSON.stringify({id, method, params}));
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`no answer to ${method} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (v) => {
            clearTimeout(t);
            resolve(v);
          },
          reject: (e) => {
            clearTimeout(t);
            reject(e);
          },
        });
      });
    },
    notify(method) {
      ws.send(JSON.stringify({method}));
    },
    close: () => ws.close(),
  };
}

interface ThreadSeen {
  id: string;
  updatedAt: number;
  active: boolean;
}

/** The thread the TUI works in: of the threads the server has loaded, the newest that is
 * not a sub-agent's and not ephemeral. */
async function tuiThread(rpc: Rpc): Promise<ThreadSeen | undefined> {
  const loaded = await rpc.call('thread/loaded/list', {});
  const ids = (Array.isArray(loaded.data) ? loaded.data : []).filter(
    (x): x is string => typeof x === 'string',
  );
  const seen: ThreadSeen[] = [];
  for (const id of ids) {
    const r = await rpc.call('thread/read', {threadId: id});
    const t = (r.thread ?? {}) as {
      ephemeral?: unknown;
      parentThreadId?: unknown;
      updatedAt?: unknown;
      status?: {type?: unknown};
    };
    if (t.ephemeral === true || (t.parentThreadId !== null && t.parentThreadId !== undefined))
      continue;
    seen.push({id, updatedAt: Number(t.updatedAt ?? 0), active: t.status?.type === 'active'});
  }
  return seen.sort((a, b) => b.updatedAt - a.updatedAt)[0];
}

/** Start a turn with `text` on the TUI's thread (added to the running turn when it works). */
export async function postToCodex(
  socket: string,
  text: string,
  timeoutMs: number,
): Promise<{ok: true; delivery: 'submitted' | 'queued'} | {ok: false; why: string}> {
  let rpc: Rpc | undefined;
  try {
    rpc = await connect(socket, timeoutMs);
    await rpc.call('initialize', {
      clientInfo: {name: 'nudge', title: null, version: '1'},
      capabilities: null,
    });
    rpc.notify('initialized');
    const thread = await tuiThread(rpc);
    if (!thread) return {ok: false, why: `the app-server at ${socket} has no thread loaded`};
    const started = await rpc.call('turn/start', {
      threadId: thread.id,
      input: [{type: 'text', text, text_elements: []}],
    });
    if (!started.turn) return {ok: false, why: 'the app-server started no turn'};
    return {ok: true, delivery: thread.active ? 'queued' : 'submitted'};
  } catch (error) {
    return {ok: false, why: `the app-server at ${socket}: ${(error as Error).message}`};
  } finally {
    rpc?.close();
  }
}
