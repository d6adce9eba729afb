/**
 * sendOwnLine: a line of nudge's own goes under the pane's lock as ownLineWay says — typed as
 * a comment to a shell at its prompt, shown as a tmux message (nothing typed) where a program
 * holds the shell's terminal. A shell's one-line editor in memory (test/helpers/fake-tmux.ts).
 */
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {sendOwnLine} from '../../../src/pane/own-line-out.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

const OPTIONS = {
  enter: true,
  typeDelayMs: 0,
  enterDelayMs: 0,
  clear: false,
  clearDraft: false,
  draftWaitMs: 1_000,
  busyWaitMs: 1_000,
  ownText: 'x',
};

function io(tmux: FakeTmux) {
  const notes: Array<[string, unknown]> = [];
  let guarded = 0;
  return {
    notes,
    guarded: () => guarded,
    io: {
      tmux,
      clock: new FakeClock(),
      note: async (event: string, data: unknown) => void notes.push([event, data]),
      guard: () => void guarded++,
    },
  };
}

/** `Resume.` sent as nudge's own line into `tmux`'s pane, read by `profile`. */
async function resume(tmux: FakeTmux, profile: Profile) {
  const w = io(tmux);
  const sent = await sendOwnLine(
    w.io,
    '%1',
    'Resume.',
    profile,
    OPTIONS,
    AbortSignal.timeout(5_000),
  );
  return {sent, w};
}

describe('sendOwnLine', () => {
  test('a shell at its prompt: typed as a comment, Enter pressed', async () => {
    const tmux = new FakeTmux();
    const {sent} = await resume(tmux, PROFILES.shell);
    expect(sent.via).toBe('comment');
    expect(tmux.typed()).toBe('# Resume.\r');
  });

  test("a program in the shell's foreground: shown, nothing typed, under the lock", async () => {
    const tmux = new FakeTmux({currentCommand: 'sleep'});
    const {sent, w} = await resume(tmux, PROFILES.raw);
    expect(sent).toMatchObject({delivery: 'shown', via: 'message'});
    expect(tmux.typed()).toBe('');
    expect(tmux.calls.filter((c) => c[0] === 'announce')).toEqual([['announce', 'Resume.']]);
    expect(w.guarded()).toBe(1);
    expect(w.notes.map(([e]) => e)).toEqual(['own-line-shown']);
  });
});
