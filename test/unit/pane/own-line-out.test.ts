/**
 * sendOwnLine: a line of nudge's own goes under the pane's lock as ownLineWay says — typed as
 * a comment to a shell at its prompt, shown as a tmux message (nothing typed) where a program
 * holds the shell's terminal. A shell's one-line editor in memory (test/helpers/fake-tmux.ts).
 */
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {PROMPT_GRACE_MS, sendOwnLine} from '../../../src/pane/own-line-out.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

/** Where every test's virtual clock starts. */
const START = new FakeClock().now();

const OPTIONS = {
  enter: true,
  typeDelayMs: 0,
  enterDelayMs: 0,
  clear: false,
  clearDraft: false,
  draftWaitMs: 1_000,
  busyWaitMs: 1_000,
  ownText: 'x',
  owner: 'J1',
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
    expect(w.notes.map(([e]) => e)).toEqual(['own-line-awaits-prompt', 'own-line-shown']);
    // It looked again for the prompt for PROMPT_GRACE_MS, then showed it.
    expect(w.io.clock.now() - START).toBeGreaterThanOrEqual(PROMPT_GRACE_MS);
  });

  test('a command ending a moment after the wait ended: the line waits for the prompt, then is a comment', async () => {
    const tmux = new FakeTmux({currentCommand: 'sleep'});
    const describe = tmux.describePane.bind(tmux);
    let looks = 0;
    // The command ends after the third look; the shell is back at its prompt.
    tmux.describePane = async (pane: string) => {
      if (++looks === 3) tmux.info.currentCommand = 'bash';
      return describe(pane);
    };
    const {sent, w} = await resume(tmux, PROFILES.shell);
    expect(sent.via).toBe('comment');
    expect(tmux.typed()).toBe('# Resume.\r');
    expect(w.notes.map(([e]) => e)).toEqual(['own-line-awaits-prompt']);
    expect(tmux.calls.filter((c) => c[0] === 'announce')).toEqual([]);
  });

  test('zsh at its prompt takes no comment: shown at once, nothing waited for', async () => {
    const tmux = new FakeTmux({currentCommand: 'zsh'});
    const {sent, w} = await resume(tmux, PROFILES.shell);
    expect(sent).toMatchObject({delivery: 'shown', via: 'message'});
    expect(w.notes.map(([e]) => e)).toEqual(['own-line-shown']);
    expect(w.io.clock.now()).toBe(START);
  });
});
