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
import {deliver} from '../../../src/pane/deliver.js';
import type {PaneEvents} from '../../../src/pane/events.js';
import {NotDelivered} from '../../../src/pane/failures.js';
import type {PaneIo} from '../../../src/pane/keys.js';
import type {Tmux} from '../../../src/tmux/tmux.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
const RULE = '─'.repeat(80);

/** Gemini CLI's input line, as far as delivery sees it. */
class EscapeHoldingPane {
  /** What the program received as prompts and shell commands, in order. */
  readonly received: string[] = [];
  readonly keys: string[] = [];
  mode: 'prompt' | 'shell' = 'prompt';
  line = '';
  /** When the Escape it holds arrived (undefined: none). */
  heldSince: number | undefined;
  /** Typing bursts whose first two characters are lost whatever nudge waits for. */
  lossyBursts = 0;
  /** Looks after typing that still show only the first half of the line (a program slow to
   * redraw on a loaded machine), and how many are left. */
  slowDraws = 0;
  private staleLooks = 0;
  private transcript: string[] = [];

  constructor(
    private readonly clock: FakeClock,
    /** How long a lone Escape is held before it counts (its timer, delayed by a busy loop). */
    private readonly holdMs: number,
  ) {}

  /** The held Escape counts once its time has come. */
  private settle(): void {
    if (this.heldSince === undefined || this.clock.now() < this.heldSince + this.holdMs) return;
    this.heldSince = undefined;
    if (this.mode === 'shell') this.mode = 'prompt';
    else this.line = '';
  }

  /** Whether the key is read as part of a sequence with a held Escape (and so lost). */
  private swallowed(): boolean {
    if (this.heldSince === undefined) return false;
    this.heldSince = undefined;
    return true;
  }

  readonly tmux = {
    // No marks on this pane: no half line a cancelled job left.
    paneMark: async (): Promise<string | undefined> => undefined,
    view: async (): Promise<PaneView> => {
      this.settle();
      const placeholder =
        this.mode === 'shell' ? 'Type your shell command' : 'Type your message or @path/to/file';
      const sign = this.mode === 'shell' ? '!' : '>';
      let line = this.line;
      if (this.staleLooks > 0) {
        this.staleLooks--;
        line = line.slice(0, Math.floor(line.length / 2));
      }
      return paneViewOf([...this.transcript, RULE, ` ${sign}   ${line || placeholder}`, RULE]);
    },
    typeLiteral: async (_pane: string, chars: string): Promise<void> => {
      this.settle();
      let rest = [...chars];
      if (this.lossyBursts > 0) {
        this.lossyBursts--;
        rest = rest.slice(2);
      }
      if (this.swallowed()) rest = rest.slice(rest[0] === '[' ? 2 : 1);
      this.staleLooks = this.slowDraws;
      for (const ch of rest) {
        if (ch === '!' && this.line === '' && this.mode === 'prompt') this.mode = 'shell';
        else this.line += ch;
      }
    },
    pressKeys: async (_pane: string, keys: readonly string[]): Promise<void> => {
      for (const key of keys) {
        this.keys.push(key);
        this.settle();
        if (key === 'Escape') {
          this.heldSince = this.clock.now();
          continue;
        }
        if (this.swallowed()) continue;
        if (key === 'C-u') this.line = '';
        if (key === 'Enter') {
          this.received.push(this.mode === 'shell' ? `!${this.line}` : this.line);
          this.transcript.push(this.mode === 'shell' ? ` $ ${this.line}` : ` > ${this.line}`, '');
          this.line = '';
        }
      }
    },
  };
}

function world(holdMs: number) {
  const clock = new FakeClock();
  const pane = new EscapeHoldingPane(clock, holdMs);
  const events: Array<{event: keyof PaneEvents; data: object}> = [];
  const io: PaneIo = {
    tmux: pane.tmux as unknown as Tmux,
    clock,
    note: async (event, data) => void events.push({event, data}),
    guard: () => {},
  };
  const send = (text: string, typed?: (n: number) => void) =>
    deliver(
      io,
      '%1',
      text,
      PROFILES.gemini!,
      {
        enter: true,
        typeDelayMs: 0,
        enterDelayMs: 0,
        clear: false,
        clearDraft: false,
        draftWaitMs: 5_000,
        ownText: text,
        ...(typed ? {typed} : {}),
      },
      new AbortController().signal,
    );
  return {clock, pane, events, send, names: () => events.map((e) => e.event)};
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
    const failure = await w.send(NOTICE).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NotDelivered);
    expect(String((failure as Error).message)).toBe(
      'The text typed into pane %1 lost its first characters 2 times (its input line read "YSTEM COMMAND] Command complete. Resume."); Enter was not pressed and the line was cleared.',
    );
    expect(w.pane.keys).not.toContain('Enter');
    expect(w.pane.received).toEqual([]);
    expect(w.pane.line).toBe('');
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
});
