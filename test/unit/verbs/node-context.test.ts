/**
 * The context of a real nudge process (src/verbs/node-context.ts): the node nudge writes into
 * agent files (`self.node`, a walk of PATH) is found on first use, never by a command that
 * copies its context with a spread (`submit` does, on its way to the pane).
 */
import {expect, test} from 'vitest';
import {nodeContext} from '../../../src/verbs/node-context.js';

test('a spread of the context does not walk PATH; self.node does, once', () => {
  let reads = 0;
  const env = {
    get PATH() {
      reads++;
      return '/nowhere-nudge-test';
    },
  };
  const ctx = nodeContext(
    {
      env,
      cwd: '/',
      pid: process.pid,
      uid: 0,
      signal: new AbortController().signal,
      readStdin: async () => '',
      readStdinBytes: async () => new Uint8Array(),
      node: '/opt/node/bin/node',
    },
    new URL('file:///opt/nudge/dist/src/'),
  );
  const copy = {...ctx, stateDir: '/tmp/x'};
  expect(reads).toBe(0);
  expect(copy.self.cli).toBe('/opt/nudge/dist/src/cli.js');
  expect(reads).toBe(0);
  expect(copy.self.node).toBe('/opt/node/bin/node');
  expect(ctx.self.node).toBe('/opt/node/bin/node');
  expect(reads).toBe(1);
});
