/**
 * After Enter, whether it took (src/pane/submitted.ts), through deliver into the in-memory
 * Gemini-like pane: a screen being redrawn is waited for, never pressed into; a program that
 * reads its keys late is given longer after the last Enter. Found on CI: opencode, started a
 * moment before, took a prompt after nudge had pressed Enter three times and reported the text
 * "not submitted" (data-agents-at-model.test.ts, "while the agent is still starting").
 */
import {describe, expect, test} from 'vitest';
import {NOTICE, geminiWorld as world} from '../../helpers/gemini-pane.js';

describe('whether an Enter took', () => {
  test('a screen left blank for 7 s after Enter while the program redraws: one Enter, and the prompt counts as submitted once it shows', async () => {
    const w = world(200);
    w.pane.blankAfterSendMs = 7_000;
    const {delivery} = await w.send(NOTICE);
    expect(w.pane.keys.filter((k) => k === 'Enter')).toEqual(['Enter']);
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted');
  });

  test('a program that reads no keys for 8 s after the text is drawn: the last Enter is looked at longer, and the prompt it then takes counts as submitted', async () => {
    const w = world(200);
    // Stalled from the moment the text is drawn: Enter waits in the terminal.
    const type = w.pane.tmux.typeLiteral;
    w.pane.tmux.typeLiteral = async (pane, chars) => {
      await type(pane, chars);
      w.pane.stalledUntil = w.clock.now() + 8_000;
    };
    const {delivery} = await w.send(NOTICE);
    await w.pane.tmux.view();
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted-after-retry');
    expect(w.names()).toEqual(['enter-retry', 'enter-retry']);
  });

  test('a text still in the input line after each Enter: three Enters, and the failure says so', async () => {
    const w = world(200);
    w.pane.ignoresEnter = true;
    const failure = await w.send(NOTICE).catch((e: unknown) => e);
    expect(String((failure as Error).message)).toBe(
      'The text typed into pane %1 was not submitted: after 3 Enters it did not show in the transcript as a prompt.',
    );
    expect(w.pane.keys.filter((k) => k === 'Enter')).toHaveLength(3);
    expect(w.names()).toEqual(['enter-retry', 'enter-retry', 'not-submitted']);
  });

  test('a line seen leaving the input line, then a screen blank for long: no second Enter; sent, unconfirmed', async () => {
    const w = world(200);
    w.pane.drawsNoEcho = true;
    w.pane.blankFromMs = 500;
    w.pane.blankAfterSendMs = 60_000;
    const {delivery} = await w.send(NOTICE);
    expect(w.pane.keys.filter((k) => k === 'Enter')).toEqual(['Enter']);
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('unconfirmed');
  });
});
