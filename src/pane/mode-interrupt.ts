import type {Profile} from '../agents/profile.js';
import {readComposerState, shellCommandOf} from '../agents/screens.js';
import {formatDuration} from '../base/durations.js';
import {PaneInMode} from '../tmux/mode-guard.js';
import {preview} from './composer.js';
import {PaneFailure} from './failures.js';
import {clearLine, type PaneIo} from './keys.js';

export {PaneInMode};

/** How often a pane in a mode is looked at while nudge waits for it to leave. */
const MODE_POLL_MS = 100;

/**
 * A person put the pane in a mode (copy mode: they scrolled up) while nudge typed, and tmux
 * refused the rest of the keys (src/tmux/mode-guard.ts): `typed` of the text's characters had
 * arrived. Wait for the mode to end (at most `waitMs`), then make the line nudge's own again:
 * where the profile can clear it and it holds exactly what nudge typed, clear it, so the text
 * is typed again whole; where it cannot (a program nudge has no profile for, or a line that
 * holds anything else), the delivery fails with how much arrived, and Enter is never pressed.
 */
export async function recoverFromMode(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
  typed: number,
  waitMs: number,
  signal: AbortSignal,
): Promise<void> {
  const total = [...text].length;
  const arrived = `${typed} of ${total} characters arrived`;
  await io.note('mode-entered', {pane, typed, of: total});
  await waitOutOfMode(io, pane, waitMs, signal, arrived);
  if (typed === 0) return;
  const canClear = profile.kind !== 'raw' && profile.clearKeys.length > 0;
  if (!canClear)
    throw new PaneFailure(
      `The pane ${pane} entered copy mode while typing; ${arrived}, and ${profile.kind === 'raw' ? 'nudge has no profile for its program, so it cannot clear them' : 'its profile has no keys to clear them'}; Enter was not pressed.`,
    );
  const line = await inputLine(io, pane, profile, text);
  const ours = [...text].slice(0, typed).join('');
  if (line === undefined || squash(line) !== squash(ours))
    throw new PaneFailure(
      `The pane ${pane} entered copy mode while typing; ${arrived}, and its input line reads ${JSON.stringify(line ?? '(unreadable)')}, not only what nudge typed; it was left as it is and Enter was not pressed.`,
    );
  await clearLine(io, pane, profile, signal, false);
  await io.note('retyping', {pane, why: 'mode-entered', cleared: typed});
}

/** Wait until `pane` is in no mode; a PaneFailure naming `what` after `waitMs`. */
export async function waitOutOfMode(
  io: PaneIo,
  pane: string,
  waitMs: number,
  signal: AbortSignal,
  what: string,
): Promise<void> {
  const deadline = io.clock.now() + waitMs;
  for (;;) {
    const info = await io.tmux.describePane(pane);
    if (!info) throw new PaneFailure(`Pane ${pane} closed while it was in copy mode; ${what}.`);
    if (!info.inMode) return;
    if (io.clock.now() >= deadline)
      throw new PaneFailure(
        `The pane ${pane} entered copy mode while typing and stayed in it for ${formatDuration(waitMs)}; ${what}; Enter was not pressed.`,
      );
    await io.clock.sleep(MODE_POLL_MS, signal);
  }
}

/**
 * What the pane's input line holds now: for a shell, the whole command after the prompt with
 * its wrapped rows joined (a command longer than the pane is wide); for an agent, its
 * composer as the profile reads it.
 */
export async function inputLine(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
): Promise<string | undefined> {
  if (profile.kind === 'shell') {
    // Rows enough for the prompt and the text in a pane as narrow as 20 columns: a line that
    // starts lower is read whole all the same (the last joined line is the cursor's).
    const rows = Math.ceil(([...text].length + 80) / 20) + 1;
    return shellCommandOf(await io.tmux.cursorLogicalLine(pane, rows));
  }
  return readComposerState(profile, await io.tmux.view(pane, 0))?.text;
}

/**
 * Press Enter (or the queue key) behind the mode guard: a pane a person put in copy mode just
 * now refuses it; once the mode ends, the line must still hold the text (read whole) for
 * Enter to be pressed.
 */
export async function pressEnter(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
  key: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<void> {
  for (;;) {
    try {
      await io.tmux.pressKeys(pane, [key]);
      return;
    } catch (error) {
      if (!(error instanceof PaneInMode)) throw error;
      await io.note('mode-entered', {pane, before: 'Enter'});
      await waitOutOfMode(io, pane, waitMs, signal, 'the text was typed, not submitted');
      if (profile.kind === 'shell') await holdsWhole(io, pane, profile, text);
      io.guard();
    }
  }
}

/** A shell's input line, wrapped rows joined, must hold the whole text and nothing else. */
export async function holdsWhole(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
): Promise<void> {
  const line = await inputLine(io, pane, profile, text);
  if (line === undefined) return;
  const [got, want] = [
    line.replace(/\s+/g, ''),
    (text.split(/\r\n|\n|\r/).pop() ?? '').trim().replace(/\s+/g, ''),
  ];
  if (/[\r\n]/.test(text) || got === want) return;
  throw new PaneFailure(
    want.startsWith(got)
      ? `Only ${[...got].length} of ${[...want].length} characters of the text are in pane ${pane}'s input line; Enter was not pressed and the line was left as it is.`
      : `Someone typed into pane ${pane} while the job typed (its input line reads ${JSON.stringify(preview(line))}); Enter was not pressed and the line was left as it is.`,
  );
}

function squash(s: string): string {
  return s.replace(/\s+/g, '');
}
