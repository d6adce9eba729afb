import {mkdirSync} from 'node:fs';
import {createConnection, createServer} from 'node:net';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {
  checkRecord,
  ownToken,
  postToQwen,
  type QwenSession,
} from '../../../src/doors/qwen-inbox.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const TOKEN = 'a'.repeat(64);
const record = (over: Record<string, unknown> = {}) => ({
  schemaVersion: 1,
  pid: 4242,
  sessionId: 's-1',
  ipcPath: '/run/q/4242.sock',
  ipcToken: TOKEN,
  startedAt: 5,
  ...over,
});

describe('the registry', () => {
  test('a record is used only when its file name, version and fields agree', () => {
    expect(checkRecord('4242.json', record())).toMatchObject({pid: 4242, sessionId: 's-1'});
    expect(checkRecord('4242-0a1b2c3d.json', record())?.pid).toBe(4242);
    expect(checkRecord('4243.json', record())).toBeUndefined();
    expect(checkRecord('04242.json', record())).toBeUndefined();
    expect(checkRecord('4242.json', record({schemaVersion: 2}))).toBeUndefined();
    expect(checkRecord('4242.json', record({ipcToken: 'short'}))).toBeUndefined();
    expect(checkRecord('4242.json', record({ipcPath: 'relative.sock'}))).toBeUndefined();
  });

  test("posted only with the token Qwen Code gave the submitter, for that session's inbox", () => {
    const s = checkRecord('4242.json', record()) as QwenSession;
    const own = {QWEN_CODE_MESSAGING_SOCKET: s.ipcPath, QWEN_CODE_MESSAGING_TOKEN: 'child'};
    expect(ownToken(s, own)).toBe('child');
    expect(ownToken(s, {...own, QWEN_CODE_MESSAGING_SOCKET: '/run/q/other.sock'})).toMatchObject({
      why: expect.stringMatching(/review/),
    });
    expect(ownToken(s, {})).toHaveProperty('why');
  });
});

/** A stand-in session inbox: records each connection's lines, and answers `status` to the
 * sender's inbox with its reply token, as the protocol says. */
function session(dir: string, status: string | undefined) {
  const path = join(dir, 'q.sock');
  const got: Array<Record<string, unknown>> = [];
  const server = createServer((conn) => {
    let text = '';
    conn.setEncoding('utf8');
    conn.on('data', (c: string) => {
      text += c;
    });
    conn.on('end', () => {
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      got.push(...lines);
      conn.end();
      const frame = lines[1];
      if (!status || !frame || typeof frame.from !== 'string') return;
      const back = createConnection(frame.from);
      back.end(
        `${JSON.stringify({msgV: 1, type: 'auth', token: frame.replyToken})}\n${JSON.stringify({msgV: 1, type: 'control', action: 'delivery_status', status, origMsgId: frame.msgId, reason: 'because'})}\n`,
      );
      back.on('error', () => {});
    });
  });
  onTestFinished(() => void server.close());
  return new Promise<{path: string; got: typeof got}>((resolve) =>
    server.listen(path, () => resolve({path, got})),
  );
}

describe('a post', () => {
  const post = async (status: string | undefined) => {
    const dir = useTempDir('qwen-door-');
    mkdirSync(join(dir, 'doors'));
    const s = await session(dir, status);
    const result = await postToQwen({
      session: {pid: 1, sessionId: 's-1', ipcPath: s.path, startedAt: 0},
      token: 'child',
      body: '[SYSTEM COMMAND] Command complete. Resume.',
      fromName: 'nudge (from %3)',
      inboxDir: join(dir, 'doors'),
      name: 'job1',
      confirmMs: 3_000,
      signal: new AbortController().signal,
    });
    return {result, got: s.got};
  };

  test('the auth line, then one user frame to the session, from nudge (from %3); delivered is queued', async () => {
    const {result, got} = await post('delivered');
    expect(result).toEqual({ok: true, delivery: 'queued'});
    expect(got[0]).toEqual({msgV: 1, type: 'auth', token: 'child'});
    expect(got[1]).toMatchObject({
      msgV: 1,
      type: 'user',
      toSessionId: 's-1',
      fromName: 'nudge (from %3)',
      priority: 'next',
      message: {role: 'user', content: '[SYSTEM COMMAND] Command complete. Resume.'},
    });
    expect(String(got[1]?.msgId)).toMatch(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/);
  });

  test.each([
    ['held', 'held'],
    ['misaddressed', 'refused'],
    ['dropped', 'refused'],
  ])('a receipt %s: %s, with its reason', async (status, result) => {
    const r = await post(status);
    expect(r.result).toEqual({ok: false, result, why: `Qwen Code answered "${status}": because`});
  });

  test('no receipt: unconfirmed after the window', async () => {
    const r = await post(undefined);
    expect(r.result).toMatchObject({ok: false, result: 'unconfirmed'});
  });
});
