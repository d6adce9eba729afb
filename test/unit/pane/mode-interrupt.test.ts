/**
 * A person puts the pane in copy mode while nudge types (tmux then refuses the keys): nudge
 * waits for the mode to end, and goes on only with a line it can prove is its own — cleared
 * and typed again whole — or fails with how much arrived, Enter never pressed on a line that
 * holds anything else. A shell's one-line editor in memory (test/helpers/fake-tmux.ts), in
 * virtual time.
 */
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {PaneFailure} from '../../../src/pane/failures.js';
import type {PaneIo} from '../../../src/pane/keys.js';
import {
  holdsWhole,
  PaneInMode,
  pressEnter,
  recoverFromMode,
  waitOutOfMode,
} from '../../../src/pane/mode-interrupt.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

/** A pane in copy mode for `looks` more looks (Infinity: for good). */
function world(looks: number) {
  const tmux = new FakeTmux({inMode: true, mode: 'copy-mode'});
  let left = looks;
  const describe = tmux.describePane.bind(tmux);
  tmux.describePane = async (target) => {
    if (left-- <= 0) tmux.info.inMode = false;
    return describe(target);
  };
  const notes: Array<[string, unknown]> = [];
  const io: PaneIo = {
    tmux,
    clock: new FakeClock(),
    note: async (event, data) => void notes.push([event, data]),
    guard: () => {},
  };
  return {tmux, io, notes};
}

const signal = new AbortController().signal;
const SHELL = PROFILES.shell!;
const RAW = PROFILES.raw!;

describe('waitOutOfMode', () => {
  test('returns once the pane leaves the mode', async () => {
    const w = world(3);
    await waitOutOfMode(w.io, '%1', 10_000, signal, '4 of 8 characters arrived');
    expect(w.tmux.info.inMode).toBe(false);
  });

  test('a mode that lasts past the wait: one sentence with what arrived', async () => {
    const w = world(Number.POSITIVE_INFINITY);
    await expect(
      waitOutOfMode(w.io, '%1', 10_000, signal, '4 of 8 characters arrived'),
    ).rejects.toThrow(
      'The pane %1 entered copy mode while typing and stayed in it for 10.0s; 4 of 8 characters arrived; Enter was not pressed.',
    );
  });

  test('a pane closed meanwhile', async () => {
    const w = world(Number.POSITIVE_INFINITY);
    await expect(waitOutOfMode(w.io, '%9', 10_000, signal, 'nothing arrived')).rejects.toThrow(
      'Pane %9 closed while it was in copy mode; nothing arrived.',
    );
  });
});

describe('recoverFromMode', () => {
  test('a line holding exactly what nudge typed is cleared, to be typed again whole', async () => {
    const w = world(2);
    w.tmux.input = 'make';
    await recoverFromMode(w.io, '%1', SHELL, 'make build', 4, 10_000, signal);
    expect(w.tmux.input).toBe('');
    expect(w.notes.map(([e]) => e)).toEqual(['mode-entered', 'retyping']);
    expect(w.tmux.typed()).not.toContain('\r');
  });

  test('a line that holds anything else is left as it is, Enter not pressed', async () => {
    const w = world(2);
    w.tmux.input = 'makeXY';
    const failure = await recoverFromMode(w.io, '%1', SHELL, 'make build', 4, 10_000, signal).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(PaneFailure);
    expect((failure as Error).message).toBe(
      'The pane %1 entered copy mode while typing; 4 of 10 characters arrived, and its input line reads "makeXY", not only what nudge typed; it was left as it is and Enter was not pressed.',
    );
    expect(w.tmux.input).toBe('makeXY');
    expect(w.tmux.typed()).toBe('');
  });

  test('a program nudge has no profile for cannot be cleared: fails with how much arrived', async () => {
    const w = world(2);
    await expect(recoverFromMode(w.io, '%1', RAW, 'make build', 4, 10_000, signal)).rejects.toThrow(
      'The pane %1 entered copy mode while typing; 4 of 10 characters arrived, and nudge has no profile for its program, so it cannot clear them; Enter was not pressed.',
    );
  });

  test('nothing typed yet: only the wait', async () => {
    const w = world(2);
    await recoverFromMode(w.io, '%1', RAW, 'make build', 0, 10_000, signal);
    expect(w.tmux.typed()).toBe('');
  });
});

describe('pressEnter', () => {
  test('refused while in a mode: pressed once the mode ends and the line still holds the text', async () => {
    const w = world(2);
    w.tmux.input = 'make build';
    const press = w.tmux.pressKeys.bind(w.tmux);
    let refusals = 1;
    w.tmux.pressKeys = async (pane, keys) => {
      if (refusals-- > 0) throw new PaneInMode(pane);
      return press(pane, keys);
    };
    await pressEnter(w.io, '%1', SHELL, 'make build', 'Enter', 10_000, signal);
    expect(w.tmux.typed()).toBe('\r');
    expect(w.notes).toEqual([['mode-entered', {pane: '%1', before: 'Enter'}]]);
  });
});

describe('holdsWhole', () => {
  test('the whole text: fine; part of it, or someone else’s keys: one sentence, no Enter', async () => {
    const w = world(0);
    w.tmux.input = 'make build';
    await holdsWhole(w.io, '%1', SHELL, 'make build');
    w.tmux.input = 'make';
    await expect(holdsWhole(w.io, '%1', SHELL, 'make build')).rejects.toThrow(
      "Only 4 of 9 characters of the text are in pane %1's input line; Enter was not pressed and the line was left as it is.",
    );
    w.tmux.input = 'make buildrm';
    await expect(holdsWhole(w.io, '%1', SHELL, 'make build')).rejects.toThrow(
      'Someone typed into pane %1 while the job typed (its input line reads "make buildrm"); Enter was not pressed and the line was left as it is.',
    );
  });
});
