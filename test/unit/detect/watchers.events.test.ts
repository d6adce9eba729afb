// The watchers' event-driven form (observeEvents): the same conditions as observe(), with
// stability read as a time window and the reaction gate opened by output.
import {describe, expect, test} from 'vitest';
import {
  type EventFacts,
  PromptWatcher,
  ReactionGate,
  StableWatcher,
  viewKey,
} from '../../../src/detect/watchers.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {screenOf} from '../../helpers/pane-views.js';

const screen = screenOf;

/** Facts for a view at `at` ms after Enter, quiet since `quietSince` (default: Enter). */
function facts(at: number, o: Partial<EventFacts> = {}): EventFacts {
  return {
    at,
    quietSince: 0,
    typedAt: 0,
    printedSinceTyped: (o.quietSince ?? 0) > 0,
    intervalMs: 1_000,
    ...o,
  };
}

const opts = {baselineKey: undefined, graceChecks: 2, ignore: [], shellPane: false};

describe('StableWatcher.observeEvents', () => {
  test('the window is stable-checks intervals: 3 checks at 1 s are 3 s of stillness', () => {
    expect(new StableWatcher(3, opts).quietWindowMs(1_000)).toBe(3_000);
    expect(new StableWatcher(2, opts).quietWindowMs(1_000)).toBe(2_000);
    expect(new StableWatcher(1, opts).quietWindowMs(250)).toBe(250);
    // Masks: silence cannot be required (masked text prints while idle).
    expect(new StableWatcher(2, {...opts, ignore: [/\d+s/]}).quietWindowMs(1_000)).toBe(undefined);
  });

  test('done once quiet for the window, to the millisecond', () => {
    const w = new StableWatcher(2, opts);
    const v = screen('$ make\nok\n$ ');
    expect(w.observeEvents(v, facts(2_499, {quietSince: 500})).status).toBe('pending');
    expect(w.observeEvents(v, facts(2_500, {quietSince: 500})).status).toBe('done');
  });

  test('the reaction gate: closed on an unchanged, silent screen until the grace period', () => {
    const before = screen('$ sleep 5');
    const w = new StableWatcher(1, {...opts, baselineKey: viewKey(before, [])});
    expect(w.observeEvents(before, facts(1_999)).status).toBe('pending');
    expect(w.observeEvents(before, facts(2_000)).status).toBe('done');
  });

  test('the reaction gate opens on output after Enter even if the screen looks the same', () => {
    const before = screen('$ x');
    const w = new StableWatcher(1, {...opts, baselineKey: viewKey(before, [])});
    expect(w.observeEvents(before, facts(1_010, {quietSince: 10})).status).toBe('done');
  });

  test('process liveness: a shell pane with another command in front is not done', () => {
    const w = new StableWatcher(1, {...opts, shellPane: true});
    const running = screen('$ sleep 9', {currentCommand: 'sleep'});
    expect(w.observeEvents(running, facts(5_000))).toMatchObject({
      status: 'pending',
      why: expect.stringContaining('sleep'),
    });
    expect(w.observeEvents(screen('$ sleep 9\n$ '), facts(6_000)).status).toBe('done');
  });

  test('with masks, the window runs from the last output that changed the masked screen', () => {
    const w = new StableWatcher(2, {...opts, ignore: [/\d\d:\d\d/]});
    // Real change at 200; clock ticks (masked) at 1000 and 2000 leave the key as it was.
    expect(w.observeEvents(screen('12:00 working'), facts(150, {quietSince: 100})).status).toBe(
      'pending',
    );
    expect(w.observeEvents(screen('12:00 done'), facts(250, {quietSince: 200})).status).toBe(
      'pending',
    );
    expect(w.observeEvents(screen('12:01 done'), facts(1_050, {quietSince: 1_000})).status).toBe(
      'pending',
    );
    expect(w.observeEvents(screen('12:02 done'), facts(2_199, {quietSince: 2_000})).status).toBe(
      'pending',
    );
    expect(w.observeEvents(screen('12:02 done'), facts(2_200, {quietSince: 2_000})).status).toBe(
      'done',
    );
  });

  test('switching to polling afterwards counts identical views from scratch', () => {
    const w = new StableWatcher(1, opts);
    const v = screen('$ ');
    expect(w.observeEvents(v, facts(500)).status).toBe('pending');
    // One poll right after: one view is not two identical ones.
    expect(w.observe(v).status).toBe('pending');
    expect(w.observe(v).status).toBe('done');
  });
});

describe('PromptWatcher.observeEvents', () => {
  const prompt = (v: PaneView) => v.rows.at(-1) === '> ';
  test('two views with the prompt in a row, after the pane reacted', () => {
    const before = screen('> ');
    const w = new PromptWatcher(prompt, {...opts, baselineKey: viewKey(before, [])});
    // Not reacted yet: the prompt is the old one.
    expect(w.observeEvents(before, facts(50)).status).toBe('pending');
    expect(w.observeEvents(before, facts(1_050)).status).toBe('pending');
    // Output after Enter: the gate opens; the prompt counts from here.
    expect(w.observeEvents(before, facts(1_100, {quietSince: 1_060})).status).toBe('pending');
    expect(w.observeEvents(before, facts(2_100, {quietSince: 1_060})).status).toBe('done');
  });
});

describe('ReactionGate.passedOnEvents', () => {
  test('opens on a changed screen, on output after Enter, or after the grace time', () => {
    const f = (o: Partial<EventFacts>) => facts(0, o);
    expect(new ReactionGate('k', 2).passedOnEvents('other', f({at: 10}))).toBe(true);
    expect(new ReactionGate('k', 2).passedOnEvents('k', f({at: 10, printedSinceTyped: true}))).toBe(
      true,
    );
    expect(new ReactionGate('k', 2).passedOnEvents('k', f({at: 1_999}))).toBe(false);
    expect(new ReactionGate('k', 2).passedOnEvents('k', f({at: 2_000}))).toBe(true);
    expect(new ReactionGate(undefined, 2).passedOnEvents('k', f({at: 0}))).toBe(true);
  });
});
