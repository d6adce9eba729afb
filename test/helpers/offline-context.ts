import type {CommandContext} from '../../src/verbs/context.js';
import {FakeClock} from './fake-clock.js';

/** A CommandContext for commands that need no tmux and start no worker (install, schedule's
 * text, option parsing): every tmux-facing member throws. */
export function offlineContext(over: Partial<CommandContext> = {}): CommandContext {
  return {
    env: {},
    cwd: '/',
    pid: 1,
    uid: 1000,
    signal: new AbortController().signal,
    readStdin: async () => '',
    readStdinBytes: async () => new Uint8Array(),
    clock: new FakeClock(),
    tmux: () => {
      throw new Error('no tmux in this test');
    },
    tree: {
      parentOf: async () => undefined,
      procStartOf: async () => undefined,
      terminalOf: async () => undefined,
      groupsOf: async () => undefined,
      ancestry: async () => [],
    },
    foreground: {
      commandLine: async () => undefined,
      group: async () => undefined,
      inputState: async () => ({kind: 'unknown' as const, why: 'no tmux in this test'}),
    },
    workerEntry: '/nonexistent/job-worker.js',
    watchWorkerEntry: '/nonexistent/watch-worker.js',
    runWorkerEntry: '/nonexistent/run-worker.js',
    relayWorkerEntry: '/nonexistent/relay-worker.js',
    self: {node: process.execPath, cli: '/nonexistent/cli.js'},
    dataDir: '/nonexistent/data',
    ...over,
  };
}
