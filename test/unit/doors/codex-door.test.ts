import {createServer} from 'node:http';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {WebSocketServer} from 'ws';
import {postToCodex, remoteSocketOf} from '../../../src/doors/codex-door.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A stand-in app-server on a Unix socket: JSON-RPC over a WebSocket, two loaded threads. */
async function fakeAppServer(o: {active?: boolean} = {}) {
  const sock = join(useTempDir('codex-door-'), 'app.sock');
  const calls: Array<{method: string; params: unknown}> = [];
  const http = createServer();
  const wss = new WebSocketServer({server: http});
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as {id?: number; method: string; params: unknown};
      calls.push({method: m.method, params: m.params});
      if (m.id === undefined) return;
      const answer = (result: unknown) => ws.send(JSON.stringify({id: m.id, result}));
      if (m.method === 'initialize') return answer({userAgent: 'fake'});
      if (m.method === 'thread/loaded/list') return answer({data: ['t-old', 't-sub', 't-new']});
      if (m.method === 'thread/read') {
        const id = (m.params as {threadId: string}).threadId;
        return answer({
          thread: {
            id,
            ephemeral: false,
            parentThreadId: id === 't-sub' ? 't-new' : null,
            updatedAt: {'t-old': 1, 't-sub': 99, 't-new': 5}[id],
            status: {type: o.active ? 'active' : 'idle'},
          },
        });
      }
      if (m.method === 'turn/start') return answer({turn: {id: 'turn-1', status: 'inProgress'}});
    });
  });
  await new Promise<void>((r) => http.listen(sock, r));
  onTestFinished(
    () =>
      new Promise<void>((r) => {
        wss.close();
        http.close(() => r());
      }),
  );
  return {sock, calls};
}

describe("Codex's door", () => {
  test('the socket of a TUI started with --remote unix://PATH, and only that form', () => {
    expect(remoteSocketOf(['node', '/x/codex.js', '--remote', 'unix:///tmp/a.sock'])).toBe(
      '/tmp/a.sock',
    );
    expect(remoteSocketOf(['codex', '--remote=unix:///tmp/b.sock'])).toBe('/tmp/b.sock');
    expect(remoteSocketOf(['codex', '--remote', 'ws://127.0.0.1:9'])).toBeUndefined();
    expect(remoteSocketOf(['codex'])).toBeUndefined();
  });

  test("a turn started on the TUI's thread (the newest that is not a sub-agent's), the text whole", async () => {
    const f = await fakeAppServer();
    const text = 'Build finished: exit 3. Resume.';
    expect(await postToCodex(f.sock, text, 5_000)).toEqual({ok: true, delivery: 'submitted'});
    expect(f.calls.map((c) => c.method)).toEqual([
      'initialize',
      'initialized',
      'thread/loaded/list',
      'thread/read',
      'thread/read',
      'thread/read',
      'turn/start',
    ]);
    expect(f.calls.at(-1)?.params).toEqual({
      threadId: 't-new',
      input: [{type: 'text', text, text_elements: []}],
    });
  });

  test('a thread at work takes it into its turn (queued); no server: why', async () => {
    const f = await fakeAppServer({active: true});
    expect(await postToCodex(f.sock, 'x', 5_000)).toEqual({ok: true, delivery: 'queued'});
    expect(await postToCodex('/nonexistent/app.sock', 'x', 2_000)).toMatchObject({ok: false});
  });
});
