/**
 * waitUntilPaneIdle (`--when-idle`): nothing is queued for a pane until two looks in a row call
 * it idle; a wait that begins is noted once, with how long it took at its end; a pane that
 * stays busy past --idle-timeout, goes away, or asks a person ends the wait with one sentence.
 * A pane in memory, in virtual time.
 */
import {describe, expect, test} from 'vitest';
import {PaneBlocked, PaneFailure} from '../../../src/pane/failures.js';
import {waitUntilPaneIdle} from '../../../src/pane/idle.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import type {InputState} from '../../../src/process/foreground.js';
import {fakePane} from '../../helpers/fake-tmux.js';
import {capturedScreen} from '../../helpers/pane-views.js';

function world(o: Parameters<typeof fakePane>[0]) {
  const pane = fakePane(o);
  const notes: Array<[string, unknown]> = [];
  const io = {
    ...pane,
    note: async (event: string, data: unknown) => void notes.push([event, data]),
    paneMemory: {recall: async () => undefined, remember: async () => {}} as PaneMemory,
  };
  const wait = (pane = '%1') =>
    waitUntilPaneIdle(
      io as never,
      pane,
      {profile: 'auto', timeoutMs: 60_000},
      new AbortController().signal,
    );
  return {tmux: pane.tmux, clock: pane.clock, notes, wait};
}

const atPrompt: InputState = {kind: 'waiting-for-input', program: 'bash'};
const running: InputState = {kind: 'running', program: 'make'};

describe('waitUntilPaneIdle', () => {
  test('a shell at its prompt: goes at once, nothing noted', async () => {
    const w = world({input: () => atPrompt});
    await w.wait();
    expect(w.notes).toEqual([]);
  });

  test('a command that ends meanwhile: the wait is noted once, then how long it took', async () => {
    const started = 1_700_000_000_000;
    const w = world({input: () => (w.clock.now() < started + 10_000 ? running : atPrompt)});
    await w.wait();
    expect(w.notes.map(([e]) => e)).toEqual(['waiting-for-idle', 'idle']);
    const [, idle] = w.notes[1] as [string, {waitedMs: number}];
    expect(idle.waitedMs).toBeGreaterThanOrEqual(10_000);
  });

  test('busy past --idle-timeout: one sentence, nothing typed', async () => {
    const w = world({input: () => running});
    const failure = await w.wait().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaneFailure);
    expect((failure as Error).message).toMatch(
      /^Pane %1 stayed busy for 1m00s \(--idle-timeout; .*\); nothing was typed\.$/,
    );
    expect(w.tmux.typed()).toBe('');
  });

  test('a pane that is gone', async () => {
    const w = world({input: () => atPrompt});
    await expect(w.wait('%7')).rejects.toThrow('Pane %7 is gone; nothing was typed.');
  });

  test('an agent asking a person: blocked, not waited out', async () => {
    const w = world({
      input: () => ({kind: 'waiting-for-input', program: 'node'}),
      info: {currentCommand: 'node', startCommand: 'claude'},
      screen: () => capturedScreen('claude-permission-bash'),
    });
    await expect(w.wait()).rejects.toBeInstanceOf(PaneBlocked);
  });
});
