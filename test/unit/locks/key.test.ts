import {expect, test} from 'vitest';
import {fnv1a64, paneKey} from '../../../src/locks/key.js';

test("a pane's key names its server (socket and pid) and the pane: a restarted server's %0 is another key", () => {
  const ref = {socketPath: '/tmp/tmux-0/default', serverPid: 42, pane: '%0'};
  expect(paneKey(ref)).toMatch(/^[0-9a-f]{12}-42-p0$/);
  expect(paneKey({...ref, serverPid: 43})).not.toBe(paneKey(ref));
  expect(paneKey({...ref, socketPath: '/tmp/other'})).not.toBe(paneKey(ref));
});

test('fnv1a64: the published test vectors', () => {
  expect(fnv1a64('')).toBe('cbf29ce484222325');
  expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
  expect(fnv1a64('foobar')).toBe('85944171f73967e8');
});
