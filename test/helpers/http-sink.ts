import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import {onTestFinished} from 'vitest';
import {waitFor} from './wait-for.js';

/** A request an HTTP sink received. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/**
 * An HTTP server on 127.0.0.1 (port 0) that records what it is sent — a webhook receiver, an
 * ntfy topic — answering each request with the next status of `statuses` (the last repeats;
 * default 200). Closed after the test.
 */
export async function startHttpSink(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200);
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    /** The requests to `path`, once there are `count` of them. */
    async waitFor(path: string, count = 1, timeoutMs = 30_000): Promise<Received[]> {
      return waitFor(
        `${count} request(s) to ${path}`,
        async () => {
          const got = received.filter((r) => r.path === path);
          return got.length >= count ? got : undefined;
        },
        {timeoutMs, describe: () => JSON.stringify(received)},
      );
    },
  };
}
