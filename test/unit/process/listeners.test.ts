import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {afterEach, describe, expect, test, vi} from 'vitest';
import {listenersOf, listeningInodes, pidsOfLsof} from '../../../src/process/listeners.js';

describe('listeningInodes', () => {
  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0',
    '   1: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1000        0 4343 1 0000000000000000 20 4 30 10 -1',
    '   2: 00000000:1F91 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4444 1 0000000000000000 100 0 0 10 0',
  ].join('\n');

  test('the LISTEN sockets on the port only (not its connections, not other ports)', () => {
    expect(listeningInodes(table, 8080)).toEqual(['4242']);
    expect(listeningInodes(table, 8081)).toEqual(['4444']);
    expect(listeningInodes(table, 9)).toEqual([]);
  });

  test('tcp6 addresses, and a header or garbage line, read right', () => {
    const six =
      '  sl  local_address                         remote_address                        st\n' +
      '   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 777 1\n' +
      'nonsense\n';
    expect(listeningInodes(six, 8080)).toEqual(['777']);
  });
});

test('pidsOfLsof: the p lines, once each', () => {
  expect(pidsOfLsof('p12\nf3\np40\np12\nx\n')).toEqual([12, 40]);
  expect(pidsOfLsof('')).toEqual([]);
});

describe.each(['proc', 'ps'] as const)('listenersOf, by %s', (view) => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test('this process, listening on a loopback port, is found; a free port has no one', async () => {
    vi.stubEnv('NUDGE_PROCESS_VIEW', view);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      expect(await listenersOf(port)).toEqual({pids: [process.pid]});
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await listenersOf(port)).toEqual({pids: []});
  });
});
