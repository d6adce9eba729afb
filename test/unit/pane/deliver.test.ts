/**
 * Delivery into a program that tells a lone Escape from the start of a key sequence by a
 * timer, as Gemini CLI does (50 ms on its event loop, which a loaded machine delays): a key
 * that arrives while it still holds an Escape is read with it — `[` and the next character as
 * a CSI sequence, any other character as Alt-character — and never reaches the input line.
 * Measured with the real Gemini CLI 0.61: the notice `[SYSTEM COMMAND] …`, typed 60 ms after
 * a second Escape pressed to leave shell mode, reached the model as `YSTEM COMMAND] …`.
 * The pane here plays that program (pure logic, virtual time); the real one is driven in
 * test/integration/agents-at-model.test.ts.
 */
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {goesAsPaste} from '../../../src/pane/deliver.js';
import {NotDelivered, PaneFailure} from '../../../src/pane/failures.js';
import {NOTICE, geminiWorld as world} from '../../helpers/gemini-pane.js';

/** Delivery of `text` failed with `message`: Enter was never pressed, nothing reached the
 * program, and the line was left empty. */
async function expectCleared(w: ReturnType<typeof world>, text: string, message: string) {
  const failure = await w.send(text).catch((e: unknown) => e);
  expect(failure).toBeInstanceOf(NotDelivered);
  expect(String((failure as Error).message)).toBe(message);
  expect(w.pane.keys).not.toContain('Enter');
  expect(w.pane.received).toEqual([]);
  expect(w.pane.line).toBe('');
}

describe('delivery into a program that holds a lone Escape', () => {
  test('shell mode is left with one Escape: nothing is sent until the screen shows it left, and the notice arrives whole', async () => {
    // The Escape counts 400 ms after it arrived: longer than the pause after it.
    const w = world(400);
    w.pane.mode = 'shell';
    const {delivery} = await w.send(NOTICE);
    expect(w.pane.keys.filter((k) => k === 'Escape')).toEqual(['Escape']);
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted');
    expect(w.names()).toEqual(['left-input-mode']);
  });

  test('a line that lost its first characters is cleared and typed once more, then sent whole', async () => {
    const w = world(200);
    // An Escape the program still holds when typing starts (its screen shows no sign of it).
    w.pane.heldSince = w.clock.now();
    const typed: number[] = [];
    const {delivery} = await w.send(NOTICE, (n) => typed.push(n));
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted');
    expect(w.events).toContainEqual({
      event: 'retyping',
      data: {pane: '%1', why: 'lost-start', read: 'YSTEM COMMAND] Command complete. Resume.'},
    });
    // The count of what went out starts again with the second typing.
    expect(typed.reduce((a, b) => a + b, 0)).toBe([...NOTICE].length);
  });

  test('a start lost twice: Enter is never pressed, the line is cleared, and the failure says what the line read', async () => {
    const w = world(200);
    w.pane.lossyBursts = 2;
    await expectCleared(
      w,
      NOTICE,
      'The text typed into pane %1 lost its first characters 2 times (its input line read "YSTEM COMMAND] Command complete. Resume."); Enter was not pressed and the line was cleared.',
    );
    expect(w.names()).toEqual(['retyping', 'not-submitted']);
  });

  test('text that starts with the shell prefix shows without it, in shell mode: not a lost start', async () => {
    const w = world(200);
    const {delivery} = await w.send('!make build');
    expect(w.pane.received).toEqual(['!make build']);
    expect(delivery).toBe('submitted');
    expect(w.names()).not.toContain('retyping');
  });

  test('a shell-mode command the program is slow to draw is waited for, not read as someone typing', async () => {
    const w = world(200);
    w.pane.slowDraws = 3;
    const {delivery} = await w.send('!echo ran >> /tmp/ran.log; sleep 2; echo build-output-42');
    expect(w.pane.received).toEqual(['!echo ran >> /tmp/ran.log; sleep 2; echo build-output-42']);
    expect(delivery).toBe('submitted');
  });

  test('a prompt the program is slow to draw is waited for too', async () => {
    const w = world(200);
    w.pane.slowDraws = 3;
    const {delivery} = await w.send(NOTICE);
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted');
  });

  test('a shell-mode command typed while a turn runs: Enter waits for the turn to end, then the command runs once', async () => {
    // Gemini CLI refuses a shell command while a turn runs (opencode drops it, Qwen Code sends
    // it to the model as a prompt): Enter pressed then would be lost.
    const w = world(200);
    w.pane.busyUntil = w.clock.now() + 3_000;
    const {delivery} = await w.send('!make build');
    expect(w.pane.received).toEqual(['!make build']);
    expect(w.pane.keys.filter((k) => k === 'Enter')).toEqual(['Enter']);
    expect(w.clock.now()).toBeGreaterThanOrEqual(w.pane.busyUntil);
    expect(delivery).toBe('submitted');
    expect(w.names()).toContain('waiting-for-turn');
  });

  test('a turn that outlasts the wait: Enter is never pressed, the line is cleared, and the failure says why', async () => {
    const w = world(200);
    w.pane.busy = true;
    await expectCleared(
      w,
      '!make build',
      "Pane %1's agent stayed busy for 5.0s, and its shell mode drops a command sent while a turn runs; Enter was not pressed and the line was cleared.",
    );
  });

  test('a person who types into the line while it waits for the turn: Enter is never pressed, their keys stay', async () => {
    const w = world(200);
    w.pane.busyUntil = w.clock.now() + 3_000;
    w.pane.personTypes = {at: w.clock.now() + 1_000, text: ' && rm x'};
    const failure = await w.send('!make build').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PaneFailure);
    expect(String((failure as Error).message)).toMatch(
      /^Someone typed into pane %1 while the job waited for its agent's turn to end \(its input line reads "make build && rm x"\); Enter was not pressed/,
    );
    expect(w.pane.keys).not.toContain('Enter');
    expect(w.pane.line).toBe('make build && rm x');
  });

  test('a prompt typed while a turn runs is not held back', async () => {
    const w = world(200);
    w.pane.busyUntil = w.clock.now() + 60_000;
    const {delivery} = await w.send(NOTICE);
    expect(w.pane.received).toEqual([NOTICE]);
    expect(delivery).toBe('submitted');
    expect(w.names()).not.toContain('waiting-for-turn');
  });
});

describe('what goes as one paste', () => {
  const long = 'x'.repeat(201);
  test("an agent's text longer than its pasteOver, of several lines, or that would open a picker", () => {
    const claude = PROFILES.claude!;
    expect(claude.pasteOver).toBe(200);
    expect(goesAsPaste(claude, long)).toBe(true);
    expect(goesAsPaste(claude, 'x'.repeat(200))).toBe(false);
    // Characters, not UTF-16 units: 200 of them outside the BMP are 400 units.
    expect(goesAsPaste(claude, '😀'.repeat(200))).toBe(false);
    expect(goesAsPaste(claude, 'one\ntwo')).toBe(true);
    expect(goesAsPaste(claude, 'read @notes.txt')).toBe(true);
    expect(goesAsPaste(claude, 'fix the parser')).toBe(false);
  });
  test('a profile without pasteOver types a long line key by key', () => {
    expect(PROFILES.shell!.pasteOver).toBeUndefined();
    expect(goesAsPaste(PROFILES.shell!, long)).toBe(false);
  });
});
