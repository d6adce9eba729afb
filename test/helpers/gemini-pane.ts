/**
 * Gemini CLI's input line as delivery sees it, in memory and virtual time: a program that tells
 * a lone Escape from the start of a key sequence by a timer (50 ms on its event loop, which a
 * loaded machine delays), with a prompt mode and a shell mode (`!` on an empty line), a
 * transcript of what was sent, and knobs for a lossy or a slow screen. Used by the unit tests
 * of src/pane/ (deliver, composer, mode-interrupt); the real program is driven in
 * test/integration/agents-at-model.test.ts.
 */
import {PROFILES} from '../../src/agents/registry.js';
import {deliver} from '../../src/pane/deliver.js';
import type {PaneEvents} from '../../src/pane/events.js';
import type {PaneIo} from '../../src/pane/keys.js';
import type {Tmux} from '../../src/tmux/tmux.js';
import type {PaneView} from '../../src/tmux/view.js';
import {FakeClock} from './fake-clock.js';
import {paneViewOf} from './pane-views.js';

export const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
const RULE = '─'.repeat(80);

/** Gemini CLI's input line, as far as delivery sees it. */
export class EscapeHoldingPane {
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
  /** A turn runs: its footer says so. */
  busy = false;
  /** A turn runs until then (virtual time). */
  busyUntil = 0;
  /** A person types `text` into the line at `at` (virtual time). */
  personTypes: {at: number; text: string} | undefined;
  /** Rows drawn instead of the composer (a dialog, a menu). */
  overlay: string[] | undefined;
  /** How long the screen stays blank after a line is sent (a program that redraws slowly,
   * as opencode does going from its start screen to the session on a loaded machine). */
  blankAfterSendMs = 0;
  /** How long after the line is sent the blank starts (the emptied input line shows first). */
  blankFromMs = 0;
  private blankFrom = 0;
  private blankUntil = 0;
  /** A sent line is not drawn in the transcript (scrolled away, drawn differently). */
  drawsNoEcho = false;
  /** Until when the program reads no keys (stalled on a loaded machine): keys pressed
   * meanwhile wait in the terminal and are read, in order, when it goes on. */
  stalledUntil = 0;
  /** Enter does nothing (a program that never takes the line). */
  ignoresEnter = false;
  private pending: string[] = [];
  private transcript: string[] = [];

  private press(keys: readonly string[]): void {
    for (const key of keys) {
      this.keys.push(key);
      this.settle();
      if (key === 'Escape') {
        this.heldSince = this.clock.now();
        continue;
      }
      if (this.swallowed()) continue;
      if (key === 'C-u') this.line = '';
      // Enter on an empty prompt line sends nothing; a shell command while a turn runs is
      // refused, the line kept ("Shell commands cannot be queued", measured on 0.61.0).
      if (key === 'Enter' && this.mode === 'shell' && this.turnRuns()) continue;
      if (key === 'Enter' && !this.ignoresEnter && (this.line !== '' || this.mode === 'shell')) {
        this.received.push(this.mode === 'shell' ? `!${this.line}` : this.line);
        if (!this.drawsNoEcho)
          this.transcript.push(this.mode === 'shell' ? ` $ ${this.line}` : ` > ${this.line}`, '');
        this.line = '';
        this.blankFrom = this.clock.now() + this.blankFromMs;
        this.blankUntil = this.blankFrom + this.blankAfterSendMs;
      }
    }
  }

  constructor(
    private readonly clock: FakeClock,
    /** How long a lone Escape is held before it counts (its timer, delayed by a busy loop). */
    private readonly holdMs: number,
  ) {}

  private turnRuns(): boolean {
    return this.busy || this.clock.now() < this.busyUntil;
  }

  /** The held Escape counts once its time has come. */
  private settle(): void {
    if (this.personTypes && this.clock.now() >= this.personTypes.at) {
      this.line += this.personTypes.text;
      this.personTypes = undefined;
    }
    if (this.pending.length > 0 && this.clock.now() >= this.stalledUntil)
      this.press(this.pending.splice(0));
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
    // The pane's marks (the half-line mark each line sets before its first key).
    marks: new Map<string, string>(),
    paneMark: async (_pane: string, option: string): Promise<string | undefined> =>
      this.tmux.marks.get(option),
    markPane: async (_pane: string, option: string, value: string | undefined) => {
      if (value === undefined) this.tmux.marks.delete(option);
      else this.tmux.marks.set(option, value);
    },
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
      const now = this.clock.now();
      if (now >= this.blankFrom && now < this.blankUntil) return paneViewOf([]);
      if (this.overlay) return paneViewOf([...this.transcript, ...this.overlay]);
      const footer = this.turnRuns() ? [' ⠼ Thinking... (esc to cancel, 2s)'] : [];
      return paneViewOf([
        ...this.transcript,
        ...footer,
        RULE,
        ` ${sign}   ${line || placeholder}`,
        RULE,
      ]);
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
      if (this.clock.now() < this.stalledUntil) this.pending.push(...keys);
      else this.press(keys);
    },
  };
}

export function geminiWorld(holdMs: number) {
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
        busyWaitMs: 5_000,
        ownText: text,
        owner: 'J1',
        ...(typed ? {typed} : {}),
      },
      new AbortController().signal,
    );
  return {clock, pane, events, io, send, names: () => events.map((e) => e.event)};
}
