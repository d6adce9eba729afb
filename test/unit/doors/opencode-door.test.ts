import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import {describe, expect, onTestFinished, test} from 'vitest';
import {portOf, postToOpencode, serverOf} from '../../../src/doors/opencode-door.js';

/** A stand-in for opencode's server on 127.0.0.1: sessions, their messages, a prompt. */
async function fakeOpencode(o: {sessions?: unknown[]; takes?: boolean; busy?: boolean} = {}) {
  const messages: Array<{info: {role: string}; parts: Array<{type: string; text: string}>}> = [];
  const seen: Array<{method: string; url: string; auth?: string; body?: unknown}> = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      auth: req.headers.authorization,
      body: body ? JSON.parse(body) : undefined,
    });
    const json = (v: unknown) =>
      res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify(v));
    if (req.url === '/session')
      return json(
        o.sessions ?? [
          {id: 'ses_old', time: {updated: 1}},
          {id: 'ses_new', title: 'T', time: {updated: 9}},
        ],
      );
    if (req.url === '/session/status') return json(o.busy ? {ses_new: {type: 'busy'}} : {});
    if (req.url === '/session/ses_new/message') return json(messages);
    if (req.url === '/session/ses_new/prompt_async') {
      if (o.takes !== false) messages.push({info: {role: 'user'}, parts: JSON.parse(body).parts});
      return res.writeHead(204).end();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())));
  return {port: (server.address() as AddressInfo).port, seen};
}

const signal = new AbortController().signal;

describe("opencode's door", () => {
  test('the port of a command line started with --port, in either spelling', () => {
    expect(portOf(['opencode', '--port', '4096'])).toBe(4096);
    expect(portOf(['/x/opencode', '--port=5000', '--model', 'm'])).toBe(5000);
    expect(portOf(['opencode'])).toBeUndefined();
    expect(portOf(['opencode', '--port', 'lots'])).toBeUndefined();
  });

  test('posted to the newest session, confirmed in its messages; the password when given', async () => {
    const f = await fakeOpencode();
    const s = serverOf(f.port, {OPENCODE_SERVER_PASSWORD: 'pw'});
    expect(await postToOpencode(s, 'Build done. Resume.', 2_000, signal)).toEqual({
      ok: true,
      delivery: 'submitted',
      session: 'ses_new',
    });
    const prompt = f.seen.find((x) => x.url.endsWith('/prompt_async'));
    expect(prompt?.body).toEqual({parts: [{type: 'text', text: 'Build done. Resume.'}]});
    expect(prompt?.auth).toBe(`Basic ${Buffer.from('opencode:pw').toString('base64')}`);
  });

  test('a busy session queues it; one that never shows it is not delivered; none at all says so', async () => {
    const busy = await fakeOpencode({busy: true});
    expect(await postToOpencode(serverOf(busy.port, {}), 'x', 2_000, signal)).toMatchObject({
      ok: true,
      delivery: 'queued',
    });
    const deaf = await fakeOpencode({takes: false});
    expect(await postToOpencode(serverOf(deaf.port, {}), 'x', 500, signal)).toMatchObject({
      ok: false,
      why: expect.stringMatching(/did not show the notice within 500 ms/),
    });
    const empty = await fakeOpencode({sessions: []});
    expect(await postToOpencode(serverOf(empty.port, {}), 'x', 500, signal)).toEqual({
      ok: false,
      why: 'the TUI has no session yet (nothing was sent in it)',
    });
  });
});
