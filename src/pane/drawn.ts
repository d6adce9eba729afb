import type {Profile} from '../agents/profile.js';
import {type ComposerState, readComposerState} from '../agents/screens.js';
import {waitUntil} from '../detect/wait-until.js';
import type {PaneView} from '../tmux/view.js';
import type {PaneIo} from './keys.js';

/** What the program drew of a typed text: the input line read back, once it has been drawn. */

/**
 * What an input line shows of `text`: text that starts with the shell prefix turned the line
 * into shell mode, which shows the rest of it (the prompt character says the mode).
 */
export function shownIn(profile: Profile, line: ComposerState, text: string): string {
  const prefix = profile.shellPrefix;
  return line.mode && prefix && text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/**
 * The screen once the program has drawn what was typed: a program slow to redraw (opencode
 * on a busy machine) still shows the start of the text, or nothing, a moment after the last
 * key — which is neither a line someone else typed into nor one that lost its start. Waits
 * while the input line shows a strict beginning of the text, at most DRAWN_WAIT_MS (a line
 * that truly lost its start shows the text's end, and is judged at once).
 */
export async function drawnView(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
  signal: AbortSignal,
): Promise<PaneView> {
  let last: PaneView | undefined;
  await waitUntil(
    io.tmux,
    pane,
    {
      historyRows: 0,
      observe: (view) => {
        last = view;
        const line = readComposerState(profile, view);
        const whole = line && squashed(shownIn(profile, line, text));
        const drawn = line && squashed(line.text);
        const drawing =
          whole !== undefined && drawn !== undefined && whole.startsWith(drawn) && drawn !== whole;
        return drawing ? {status: 'pending', why: 'still drawing the text'} : {status: 'done'};
      },
    },
    {intervalMs: DRAWN_POLL_MS, timeoutMs: DRAWN_WAIT_MS, clock: io.clock, signal},
  );
  return last ?? (await io.tmux.view(pane, 0));
}

export function squashed(text: string): string {
  return text.replace(/\s+/g, '');
}

/** How long a program may take to draw what was typed, and how often it is looked at. */
// 8 s, not 2: opencode on a CI machine running two test suites at once drew only the first
// of 29 characters in 2 s. Waiting longer only delays a failure (a line that stays a strict
// beginning of the text is never submitted), never a success.
export const DRAWN_WAIT_MS = 8_000;

export const DRAWN_POLL_MS = 50;

/** Whether an input line read back after typing holds only (the visible end of) `text`:
 * whitespace is ignored, as the line may wrap or the program may reflow it. */
export function holdsOnly(line: string, text: string): boolean {
  return squashed(text).endsWith(squashed(line));
}
