// Claude Code's inbox against a stand-in that behaves as 2.1.332 was measured to
// (docs/agents.md, "Doors"): a real Unix socket that reads JSON lines and writes
// what Claude writes to its transcript — or a receipt back to the sender's socket.
import {appendFileSync, mkdirSync, writeFileSync} from 'node:fs';
import {createConnection, createServer, type Server} from 'node:net';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {holdsOutsideMessages, postToInbox, seenIn} from '../../../src/doors/claude-inbox.js';
import type {ClaudeSession} from '../../../src/doors/claude-session.js';
import {useTempDir} from '../../helpers/temp-dir.js';

type Behaviour = 'deliver' | 'late' | 'queue' | 'hold' | 'ignore';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A stand-in session: its config folder, socket and transcript, and what it got. */
async function fakeClaude(behaviour: Behaviour, o: {mode?: string} = {}) {
  const root = useTempDir('claude-inbox-');
  const configDir = join(root, 'config');
  const socks = join(root, 'socks');
  mkdirSync(join(configDir, 'projects', '-work'), {recursive: true});
  mkdirSync(socks, {recursive: true});
  const transcript = join(configDir, 'projects', '-work', 'abc-123.jsonl');
  writeFileSync(
    transcript,
    `${JSON.stringify({type: 'permission-mode', permissionMode: o.mode ?? 'default'})}\n`,
  );
  const socket = join(socks, '42.sock');
  const lines: Array<Record<string, unknown>> = [];
  const server = createServer((conn) => {
    let buffered = '';
    conn.on('data', (chunk) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const part of parts) {
        const line = JSON.parse(part) as Record<string, unknown>;
        lines.push(line);
        if (line.type !== 'user') continue;
        const body = String((line.message as {content: string}).content);
        const write = (entry: unknown) => appendFileSync(transcript, `${JSON.stringify(entry)}\n`);
        if (behaviour !== 'hold' && behaviour !== 'ignore')
          write({type: 'queue-operation', operation: 'enqueue', content: body});
        const given = () =>
          write({
            type: 'user',
            message: {
              role: 'user',
              content: `Another Claude session sent a message:\n${body}\n\nThis came from…`,
            },
            origin: {kind: 'peer'},
          });
        if (behaviour === 'deliver') given();
        // A loaded machine: the turn starts well after the message was queued.
        if (behaviour === 'late') setTimeout(given, 900);
        if (behaviour === 'hold') {
          const back = createConnection(String(line.from).replace(/^uds:/, ''));
          back.end(
            `${JSON.stringify({type: 'control', action: 'peer_message_status', status: 'held', reason: 'held for review', orig_msg_id: line.msg_id})}\n`,
          );
        }
      }
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(socket, r));
  const session: ClaudeSession = {
    pid: 42,
    sessionId: 'abc-123',
    socket,
    cwd: join(root, 'work'),
    configDir,
    file: join(configDir, 'sessions', '42.json'),
  };
  return {session, lines, transcript, configDir, root};
}

const post = (session: ClaudeSession, extra: {token?: string; confirmMs?: number} = {}) =>
  postToInbox({
    session,
    body: 'From nudge: job x has ended.\n[SYSTEM COMMAND] Command complete. Resume.',
    name: 'job-x',
    confirmMs: extra.confirmMs ?? 5_000,
    queuedAfterMs: 300,
    token: extra.token,
    signal: new AbortController().signal,
  });

describe('postToInbox', () => {
  test('a session that takes it: submitted; one user line with the exact body, auth first', async () => {
    const c = await fakeClaude('deliver');
    const r = await post(c.session, {token: 'tok'});
    expect(r.kind).toBe('submitted');
    expect(c.lines.map((l) => l.type)).toEqual(['auth', 'user']);
    expect(c.lines[0]).toEqual({type: 'auth', token: 'tok'});
    expect(c.lines[1]).toMatchObject({
      type: 'user',
      msgV: 1,
      priority: 'next',
      message: {
        role: 'user',
        content: 'From nudge: job x has ended.\n[SYSTEM COMMAND] Command complete. Resume.',
      },
    });
    expect(String(c.lines[1]?.from)).toMatch(/^uds:.*nudge-job-x\.sock$/);
  });

  test('an idle session slow to start the turn: submitted, not taken for queued', async () => {
    const c = await fakeClaude('late');
    mkdirSync(join(c.configDir, 'sessions'), {recursive: true});
    writeFileSync(c.session.file, JSON.stringify({pid: 42, sessionId: 'abc-123', status: 'idle'}));
    expect((await post(c.session)).kind).toBe('submitted');
  });

  test('a busy session that queues it: queued', async () => {
    const c = await fakeClaude('queue');
    expect((await post(c.session)).kind).toBe('queued');
  });

  test('a held message is known from its receipt, not guessed', async () => {
    const c = await fakeClaude('hold');
    const r = await post(c.session);
    expect(r).toMatchObject({kind: 'held'});
    expect('why' in r && r.why).toMatch(/"held": held for review/);
  });

  test('no sign in the transcript within the window: unconfirmed', async () => {
    const c = await fakeClaude('ignore');
    const r = await post(c.session, {confirmMs: 400});
    expect(r).toMatchObject({kind: 'unconfirmed'});
  });

  test('a socket nobody listens on: refused, with the reason', async () => {
    const c = await fakeClaude('deliver');
    const r = await post({...c.session, socket: join(c.root, 'socks', 'gone.sock')});
    expect(r).toMatchObject({kind: 'refused'});
    expect(c.lines).toEqual([]);
  });

  test('a bypass-mode session, or crossSessionInbound "hold": not posted at all', async () => {
    const bypass = await fakeClaude('deliver', {mode: 'bypassPermissions'});
    expect(await post(bypass.session)).toMatchObject({kind: 'not-applicable'});
    expect(bypass.lines).toEqual([]);
    const hold = await fakeClaude('deliver');
    writeFileSync(join(hold.configDir, 'settings.json'), '{"crossSessionInbound": "hold"}');
    expect(await holdsOutsideMessages(hold.session, hold.transcript)).toMatch(/"hold"/);
    expect(await post(hold.session)).toMatchObject({kind: 'not-applicable'});
    expect(hold.lines).toEqual([]);
  });

  test('an inbox that is off (no socket in the record): not applicable', async () => {
    const c = await fakeClaude('deliver');
    expect(await post({...c.session, socket: undefined})).toMatchObject({kind: 'not-applicable'});
  });
});

describe('seenIn', () => {
  const body = 'line one\nline two';
  test('an enqueue of exactly the body, then its user line', () => {
    const enqueue = JSON.stringify({type: 'queue-operation', operation: 'enqueue', content: body});
    const user = JSON.stringify({
      type: 'user',
      message: {content: [{type: 'text', text: `Header:\n${body}\n\nfooter`}]},
    });
    expect(seenIn(enqueue, body)).toBe('enqueued');
    expect(seenIn(`${enqueue}\n${user}`, body)).toBe('user');
    expect(seenIn(`${enqueue.replace('two', 'TWO')}\n`, body)).toBeUndefined();
    expect(seenIn('{"type":"user", torn', body)).toBeUndefined();
  });
});
