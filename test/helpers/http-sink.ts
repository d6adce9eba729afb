import {appendFileSync, mkdirSync} from 'node:fs';
import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {onTestFinished} from 'vitest';
import {useTempDir} from './temp-dir.js';
import {waitFor} from './wait-for.js';

/**
 * The person's config (in `dir`, else a new folder) letting a flag name these sinks: a
 * `webhook:` or `ntfy:` sink sends data off the machine, so `--notify` takes one only when
 * config.toml lists it (`[notify] allow`; issue 42). Returns the env that points at it.
 */
export function allowSinks(
  specs: readonly string[],
  dir = useTempDir('nudge-config-'),
): {XDG_CONFIG_HOME: string} {
  mkdirSync(join(dir, 'nudge'), {recursive: true});
  appendFileSync(
    join(dir, 'nudge', 'config.toml'),
    `\n[notify]\nallow = ${JSON.stringify(specs)}\n`,
  );
  return {XDG_CONFIG_HOME: dir};
}

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
