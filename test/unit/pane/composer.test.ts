/**
 * prepareComposer: what is in an agent's input line before nudge types. A person's draft is
 * waited for and never destroyed (unless --clear-draft); nudge's own text put back after an
 * interruption is cleared; an input mode is left once no turn runs, never during one; a screen
 * without an input line nudge can read is waited for, never typed into. Gemini CLI's line in
 * memory and virtual time (test/helpers/gemini-pane.ts).
 */
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {type ComposerPolicy, prepareComposer, preview} from '../../../src/pane/composer.js';
import {PaneFailure} from '../../../src/pane/failures.js';
import {geminiWorld} from '../../helpers/gemini-pane.js';

const POLICY: ComposerPolicy = {
  clear: false,
  clearDraft: false,
  draftWaitMs: 5_000,
  ownText: 'npm test',
  owner: 'J1',
};

function prepare(w: ReturnType<typeof geminiWorld>, policy: Partial<ComposerPolicy> = {}) {
  return prepareComposer(
    w.io,
    '%1',
    PROFILES.gemini!,
    {...POLICY, ...policy},
    new AbortController().signal,
  ).then(
    () => 'ready',
    (error: unknown) => error,
  );
}

describe('prepareComposer', () => {
  test('an empty input line is ready at once: no key is pressed', async () => {
    const w = geminiWorld(50);
    expect(await prepare(w)).toBe('ready');
    expect(w.pane.keys).toEqual([]);
    expect(w.names()).toEqual([]);
  });

  test("a person's draft is waited for, then the work fails having typed nothing, the draft kept", async () => {
    const w = geminiWorld(50);
    w.pane.line = 'half a thought';
    const failure = await prepare(w);
    expect(failure).toBeInstanceOf(PaneFailure);
    expect((failure as Error).message).toBe(
      'Pane %1 has a draft in its input line ("half a thought") that was not sent or cleared within 5.0s; nothing was typed (use --clear-draft to clear it).',
    );
    expect(w.pane.line).toBe('half a thought');
    expect(w.pane.keys).toEqual([]);
    expect(w.events).toEqual([{event: 'waiting-for-draft', data: {pane: '%1', chars: 14}}]);
  });

  test('a draft sent meanwhile: ready once the line is empty', async () => {
    const w = geminiWorld(50);
    w.pane.line = 'half a thought';
    // The person sends it after the third look.
    const view = w.pane.tmux.view;
    let looks = 0;
    w.pane.tmux.view = async () => {
      if (++looks === 3) w.pane.line = '';
      return view();
    };
    expect(await prepare(w, {draftWaitMs: 60_000})).toBe('ready');
    expect(w.pane.keys).toEqual([]);
  });

  test('--clear-draft clears the draft, and says so', async () => {
    const w = geminiWorld(50);
    w.pane.line = 'half a thought';
    expect(await prepare(w, {clearDraft: true})).toBe('ready');
    expect(w.pane.line).toBe('');
    expect(w.events[0]).toEqual({event: 'draft-cleared', data: {pane: '%1', chars: 14}});
  });

  test('its own text, put back by the agent after an interruption, is cleared', async () => {
    const w = geminiWorld(50);
    w.pane.line = 'npm   test';
    expect(await prepare(w)).toBe('ready');
    expect(w.pane.line).toBe('');
    expect(w.events[0]).toEqual({event: 'own-text-cleared', data: {pane: '%1', chars: 10}});
  });

  test('shell mode is left with the profile’s keys once no turn runs', async () => {
    const w = geminiWorld(50);
    w.pane.mode = 'shell';
    expect(await prepare(w)).toBe('ready');
    expect(w.pane.mode).toBe('prompt');
    expect(w.pane.keys).toEqual(['Escape']);
    expect(w.names()).toEqual(['left-input-mode']);
  });

  test('shell mode during a turn is waited out, not left (the keys could cancel the turn)', async () => {
    const w = geminiWorld(50);
    w.pane.mode = 'shell';
    w.pane.busy = true;
    const failure = await prepare(w);
    expect((failure as Error).message).toBe(
      'Pane %1 is in shell mode while the agent works within 5.0s; nothing was typed.',
    );
    expect(w.pane.keys).toEqual([]);
    expect(w.events).toEqual([
      {event: 'waiting-to-leave-mode', data: {pane: '%1', mode: 'shell mode'}},
    ]);
  });

  test('a screen with no input line nudge can read (a dialog) is waited for, never typed into', async () => {
    const w = geminiWorld(50);
    w.pane.overlay = ['Allow execution of: rm?', '● 1. Yes', '  2. No'];
    const failure = await prepare(w);
    expect(failure).toBeInstanceOf(PaneFailure);
    expect((failure as Error).message).toMatch(/^Pane %1 shows no input line nudge can read/);
    expect(w.pane.keys).toEqual([]);
  });
});

describe('preview', () => {
  test('at most 40 characters, the cut marked', () => {
    expect(preview('short')).toBe('short');
    expect(preview('x'.repeat(41))).toBe(`${'x'.repeat(39)}…`);
    expect([...preview('x'.repeat(100))].length).toBe(40);
  });
});
