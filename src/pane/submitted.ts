/**
 * After an Enter: whether it took, read from the screen (src/pane/deliver.ts presses it and
 * decides on another).
 */
import {countEchoes, type EchoKind} from '../agents/echoes.js';
import type {Profile} from '../agents/profile.js';
import {isBusy, readComposer} from '../agents/screens.js';
import {waitUntil} from '../detect/wait-until.js';
import {cursorLine, cursorRow, type PaneView, visibleText} from '../tmux/view.js';
import type {PaneIo} from './keys.js';

/** How long to look for signs that an Enter took. */
const DELIVERY_WAIT_MS = 2_000;
const DELIVERY_POLL_MS = 100;
/** How much longer a line that left the input line without a sign is looked at. */
const LATE_SIGN_MS = 4_000;
/** How long a screen with no input line nudge can read is looked at after an Enter. */
const REDRAW_WAIT_MS = 12_000;
/** Scrollback read with the screen when counting a prompt's echoes in the transcript. */
const ECHO_HISTORY_ROWS = 300;

/** How often a text shows in the transcript as a prompt and as a shell command. */
export type Echoes = {prompt: number | undefined; shell: number | undefined};

/** How often `text` shows in the transcript as a prompt and as a shell command. */
export async function echoes(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
): Promise<Echoes> {
  return echoesIn(profile, await io.tmux.view(pane, ECHO_HISTORY_ROWS), text);
}

function echoesIn(profile: Profile, view: PaneView, text: string): Echoes {
  return {
    prompt: countEchoes(profile, view, text, 'prompt'),
    shell: countEchoes(profile, view, text, 'shell'),
  };
}

/**
 * Look for signs that an Enter took. An agent: the text shows once more in its transcript as
 * what it was meant to be (a prompt, or a shell-mode command), or its queued-message marker
 * shows; the other kind of echo means it went to the wrong mode. Where the profile cannot read
 * echoes, the old signs count: the input line no longer holds the text, or the agent went
 * busy. A shell: the cursor left the line.
 */
export async function submitted(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
  kind: EchoKind,
  before: PaneView,
  echoesBefore: Echoes | undefined,
  signal: AbortSignal,
  {last}: {last: boolean},
): Promise<'yes' | 'queued' | 'unconfirmed' | 'not-yet' | 'wrong-mode'> {
  if (profile.kind === 'raw') return 'unconfirmed';
  // What the input line shows of the text: a shell-mode command without its prefix (the
  // prompt character says the mode), so a line still holding it is not read as cleared.
  const shown =
    kind === 'shell' && profile.shellPrefix ? text.slice(profile.shellPrefix.length) : text;
  const tail = lastLine(shown).slice(-24);
  const wrongKind: EchoKind = kind === 'prompt' ? 'shell' : 'prompt';
  let answer: 'yes' | 'queued' | 'wrong-mode' | undefined;
  /** The input line at the last look: still holding the text, emptied, or not read at all (a
   * screen being redrawn). A shell's line is judged by its cursor alone. */
  let line = 'holds' as 'holds' | 'cleared' | 'unread';
  /** The input line was seen empty of the text after this Enter (nudge clears nothing
   * meanwhile): the program took the line, though no echo may show. */
  let leftLine = false;
  const took = (view: PaneView): typeof answer => {
    if (profile.kind === 'shell') return cursorMoved(view, before) ? 'yes' : undefined;
    const now = echoesIn(profile, view, text);
    const was = echoesBefore ?? {prompt: undefined, shell: undefined};
    const grew = (k: EchoKind) =>
      now[k] !== undefined && was[k] !== undefined && now[k] > (was[k] ?? 0);
    // Queued behind the running turn: the marker came with this Enter. (Claude Code 2.1.331
    // also echoes a queued message as a prompt, with the marker under it.)
    const queuedNow = profile.queued?.test(visibleText(view)) === true;
    if (queuedNow && !profile.queued?.test(visibleText(before))) return 'queued';
    if (grew(kind)) return 'yes';
    if (kind === 'prompt' && grew(wrongKind)) return 'wrong-mode';
    if (queuedNow) return 'queued';
    line = inputLine(profile, view, tail);
    const cleared = line === 'cleared';
    leftLine ||= cleared;
    // A shell-mode command may print nothing the profile knows before it ends; a pasted text
    // is drawn as "[Pasted text]"; a profile without echoes cannot tell.
    const echoUnknown = now[kind] === undefined || was[kind] === undefined;
    if ((kind === 'shell' || echoUnknown) && (cleared || isBusy(profile, view))) return 'yes';
    return undefined;
  };
  const look = (timeoutMs: number, untilRead = false) =>
    waitUntil(
      io.tmux,
      pane,
      {
        historyRows: profile.kind === 'shell' ? 0 : ECHO_HISTORY_ROWS,
        observe(view) {
          answer = took(view);
          return answer || (untilRead && line !== 'unread')
            ? {status: 'done'}
            : {status: 'pending', why: 'no sign the Enter took'};
        },
      },
      {intervalMs: DELIVERY_POLL_MS, timeoutMs, clock: io.clock, signal},
    );
  await io.clock.sleep(DELIVERY_POLL_MS, signal);
  await look(DELIVERY_WAIT_MS);
  // A screen being redrawn (opencode going from its start screen to the session, slowly on a
  // loaded machine) is looked at until the input line shows again; nothing is pressed into it.
  if (!answer && line === 'unread') await look(REDRAW_WAIT_MS, true);
  if (answer) return answer;
  // The text still in the input line: this Enter did not take, and the next one is pressed.
  // The last is looked at longer: a program stalled on a loaded machine reads its keys late.
  if (line === 'holds' && !last) return 'not-yet';
  // The input line emptied but no echo or queue marker showed yet: a program drawing a long
  // answer on a loaded machine can take longer to draw it. Look a while more (nothing is sent
  // meanwhile) before calling it unconfirmed (scrolled away, drawn differently).
  await look(LATE_SIGN_MS);
  return answer ?? (leftLine ? 'unconfirmed' : 'not-yet');
}

/** A shell's line judged by its cursor alone: it left the line the Enter was pressed on. */
function cursorMoved(view: PaneView, before: PaneView): boolean {
  return cursorRow(view) !== cursorRow(before) || cursorLine(view) !== cursorLine(before);
}

/** The agent's input line: still holding the text (its last `tail`), emptied of it, or not
 * read at all (a screen being redrawn). A pasted text is drawn as "[Pasted text]". */
function inputLine(profile: Profile, view: PaneView, tail: string): 'holds' | 'cleared' | 'unread' {
  const composer = readComposer(profile, view);
  if (composer === undefined) return 'unread';
  const spaced = (t: string) => t.replace(/\s+/g, ' ');
  const gone = tail === '' || !spaced(composer).includes(spaced(tail));
  return !composer.includes('[Pasted text') && gone ? 'cleared' : 'holds';
}

/** The last line of a text (what stays visible in a one-line input). */
function lastLine(text: string): string {
  return (text.split(/\r\n|\n|\r/).pop() ?? '').trim();
}
