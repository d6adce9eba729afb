import type {Profile} from '../agents/profile.js';
import type {Clock} from '../base/clock.js';
import type {Tmux} from '../tmux/tmux.js';
import {planTyping} from '../tmux/typing.js';
import type {Note} from './events.js';

/** What every pane service works with. */
export interface PaneIo {
  tmux: Tmux;
  clock: Clock;
  /** Record what was done (the job's events, the watcher's transcript). */
  note: Note;
  /** Throws unless keys may still go to the pane (its lease is certainly held): called
   * synchronously right before every key, so no timer due during a stall slips one in. */
  guard: () => void;
}

/** Pause after a group of keys. */
const KEY_GROUP_GAP_MS = 60;
/**
 * Pause after a group holding Escape. A program that tells Escape from the start of a key
 * sequence by a timer holds a lone ESC until the timer runs (Gemini CLI: 50 ms on its event
 * loop, which a busy render or a loaded machine delays); a key arriving before then is read
 * with it — `[` as the start of a CSI sequence, a letter as Alt-letter — and is lost. Measured:
 * the notice `[SYSTEM COMMAND] …` reached Gemini as `YSTEM COMMAND] …` when typed 60 ms after
 * an Escape, in 2 of 3 runs of agents-at-model's self-execution test.
 */
const ESCAPE_SETTLE_MS = 250;

/** Press key groups, each one tmux call, with a pause after each so a program that waits to
 * tell Escape from Alt-key sees them apart (longer after an Escape: ESCAPE_SETTLE_MS). */
export async function pressGroups(
  io: PaneIo,
  pane: string,
  groups: readonly (readonly string[])[],
  signal: AbortSignal,
): Promise<void> {
  for (const keys of groups) {
    io.guard();
    await io.tmux.pressKeys(pane, keys);
    await io.clock.sleep(keys.includes('Escape') ? ESCAPE_SETTLE_MS : KEY_GROUP_GAP_MS, signal);
  }
}

/** `o`, its `typed` callback also counted here: `count()` is how many characters went out
 * through it (less those taken back). */
export function countingTyped<O extends {typed?: ((n: number) => void) | undefined}>(
  o: O,
): O & {typed: (n: number) => void; count: () => number} {
  let typed = 0;
  return {
    ...o,
    typed: (n: number) => {
      typed += n;
      o.typed?.(n);
    },
    count: () => typed,
  };
}

/** Empty the input line with the profile's keys. While the agent is busy, keys that would
 * cancel its turn (Escape) are left out. */
export async function clearLine(
  io: PaneIo,
  pane: string,
  profile: Profile,
  signal: AbortSignal,
  busy: boolean,
): Promise<void> {
  const groups = busy ? profile.clearKeys.filter((g) => !g.includes('Escape')) : profile.clearKeys;
  await pressGroups(io, pane, groups, signal);
}

/**
 * Type `text`: one key event per character, paced at `typeDelayMs` from a fixed schedule (the
 * cost of each tmux call is absorbed, not added); with a type delay of 0 each line goes out in
 * one call. A newline presses Enter after `enterDelayMs`. `typed(n)` counts what went out.
 */
export async function typeText(
  io: PaneIo,
  pane: string,
  text: string,
  o: {typeDelayMs: number; enterDelayMs: number; typed?: (n: number) => void},
  signal: AbortSignal,
): Promise<void> {
  const {tmux, clock} = io;
  const typed = o.typed ?? (() => {});
  for (const step of planTyping(text)) {
    if (step.kind === 'enter') {
      await clock.sleep(o.enterDelayMs, signal);
      io.guard();
      await tmux.pressKeys(pane, ['Enter']);
      typed(1);
      continue;
    }
    if (o.typeDelayMs === 0) {
      signal.throwIfAborted();
      io.guard();
      await tmux.typeLiteral(pane, step.chars.join(''));
      typed(step.chars.length);
      continue;
    }
    const start = clock.now();
    for (const [i, ch] of step.chars.entries()) {
      if (i > 0) await clock.sleep(start + i * o.typeDelayMs - clock.now(), signal);
      else signal.throwIfAborted();
      io.guard();
      await tmux.typeLiteral(pane, ch);
      typed(1);
    }
  }
}
