import {describe, expect, test} from 'vitest';
import {unreadable} from '../../../src/records/reply.js';

/** A pane whose foreground program runs `argv`. */
const running = (argv: string[] | undefined) => ({
  foreground: {group: async () => undefined, commandLine: async () => argv},
});

describe('unreadable: known before anything is typed', () => {
  test('opencode without --port: its record is its server, which cannot be found', async () => {
    expect(await unreadable(running(['opencode']), 'opencode-server', 42)).toMatch(
      /started with --port N/,
    );
    expect(await unreadable(running(undefined), 'opencode-server', 42)).toMatch(/--port N/);
  });

  test('opencode with --port, and every format kept in files: readable', async () => {
    expect(await unreadable(running(['opencode', '--port', '4096']), 'opencode-server', 42)).toBe(
      undefined,
    );
    expect(await unreadable(running(['opencode']), 'claude-transcript', 42)).toBe(undefined);
  });
});
