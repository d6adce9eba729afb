import {echoKindOf} from '../agents/echoes.js';
import {isAgent, type Profile} from '../agents/profile.js';
import {type ComposerState, isBusy, readComposer, readComposerState} from '../agents/screens.js';
import {formatDuration} from '../base/durations.js';
import {waitUntil} from '../detect/wait-until.js';
import type {PaneView} from '../tmux/view.js';
import {type ComposerPolicy, prepareComposer, preview} from './composer.js';
import {drawnView, holdsOnly, shownIn, squashed} from './drawn.js';
import {type Delivery, NotDelivered, PaneFailure} from './failures.js';
import {lineEnded, markTyping} from './half-line.js';
import {clearLine, countingTyped, type PaneIo, typeText} from './keys.js';
import {holdsWhole, PaneInMode, pressEnter, recoverFromMode} from './mode-interrupt.js';
import {echoes, submitted} from './submitted.js';

/** How one line is delivered. */
export interface DeliverOptions extends ComposerPolicy {
  /** Press Enter after the text (false: --no-enter, the text is left in the line). */
  enter: boolean;
  typeDelayMs: number;
  enterDelayMs: number;
  /** How long Enter on a command for a shell mode that needs an idle agent
   * (Profile.shellNeedsIdle) waits for the turn to end: the job's --idle-timeout. */
  busyWaitMs: number;
  /** Counts the characters as they go out (for "cancelled after typing N of M"); a text
   * cleared to be typed again takes its count back (a negative n). */
  typed?: (n: number) => void;
}

/** How a delivery went, and the screen just before Enter (the baseline of what follows). */
export interface Delivered {
  delivery: Delivery;
  before: PaneView;
}

/** How many Enters in all. */
const MAX_ENTERS = 3;
/** How many times a text whose first characters were lost is typed in all. */
const MAX_TYPINGS = 2;

/**
 * Put `text` into the pane's input line and submit it: make the composer ready (see
 * prepareComposer), type it — or paste it where typing would open a picker or submit early —
 * pause, press Enter, and read the screen back to confirm it arrived as meant: as a prompt in
 * the agent's transcript (or its queued-message marker), or, for text that starts with the
 * shell prefix, as a command of its shell mode. A line that lost the text's first characters
 * is cleared and typed once more before Enter (typeWhole); after Enter, Enter is pressed
 * again (never the text retyped) a bounded number of times. Text that cannot be confirmed so
 * throws NotDelivered; a line someone else typed into throws PaneFailure with Enter not
 * pressed.
 */
export async function deliver(
  io: PaneIo,
  pane: string,
  text: string,
  profile: Profile,
  options: DeliverOptions,
  signal: AbortSignal,
): Promise<Delivered> {
  // What is on the input line of this text, for the half-line mark (src/pane/half-line.ts).
  const o = countingTyped(options);
  const line = {gone: false};
  try {
    const delivered = await deliverCounted(io, pane, text, profile, o, line, signal);
    // Sent: a mark left by a tmux that failed just now only makes the next line wait.
    await lineEnded(io, pane, o.owner, 0, 'failed').catch(() => {});
    return delivered;
  } catch (error) {
    const left = line.gone ? 0 : o.count();
    await lineEnded(io, pane, o.owner, left, signal.aborted ? 'cancelled' : 'failed').catch(
      () => {},
    );
    throw error;
  }
}

async function deliverCounted(
  io: PaneIo,
  pane: string,
  text: string,
  profile: Profile,
  o: DeliverOptions,
  /** Set once Enter took the line away (it ran in a shell mode): nothing of it is left. */
  line: {gone: boolean},
  signal: AbortSignal,
): Promise<Delivered> {
  const kind = echoKindOf(profile, text);
  const pasted = isAgent(profile) && goesAsPaste(profile, text);
  const typed = await typeWhole(io, pane, text, profile, pasted, o, signal);
  const {composer} = typed;
  // A prompt must not be sent from an input mode (it would run as a shell command).
  if (kind === 'prompt' && composer?.mode) {
    throw new NotDelivered(
      `Pane ${pane}'s input line is in ${composer.mode.name} after typing, so the text would run as a shell command; Enter was not pressed.`,
      'not-submitted',
    );
  }
  if (!o.enter) return {delivery: 'no-enter', before: typed.before};
  // A shell mode that drops or refuses a command sent while a turn runs: Enter after the turn.
  const before =
    kind === 'shell' && profile.shellNeedsIdle === true && isBusy(profile, typed.before)
      ? await afterTheTurn(io, pane, profile, text, o, signal)
      : typed.before;
  const echoesBefore = isAgent(profile) ? await echoes(io, pane, profile, text) : undefined;
  // Where Enter would break into a running turn, the profile's queue key sends the line after
  // it instead (never for a retry: a queued line is no longer in the composer).
  const queueKey = profile.queueKey && isBusy(profile, before) ? profile.queueKey : undefined;
  if (queueKey) await io.note('queueing', {pane, key: queueKey});
  await markTyping(io, pane, o.owner, before);
  for (let enters = 1; ; enters++) {
    io.guard();
    await pressEnter(
      io,
      pane,
      profile,
      text,
      enters === 1 && queueKey ? queueKey : 'Enter',
      o.draftWaitMs,
      signal,
    );
    const took = await submitted(io, pane, profile, text, kind, before, echoesBefore, signal, {
      last: enters >= MAX_ENTERS,
    });
    if (took === 'wrong-mode') {
      line.gone = true;
      await io.note('not-submitted', {pane, enters, why: 'ran-as-shell-command'});
      throw new NotDelivered(
        `The text sent to pane ${pane} ran as a shell command in the agent's shell mode instead of reaching the model as a prompt.`,
        'not-submitted',
      );
    }
    if (took !== 'not-yet') {
      const delivery: Delivery =
        took === 'queued' || took === 'unconfirmed'
          ? took
          : enters === 1
            ? 'submitted'
            : 'submitted-after-retry';
      return {delivery, before};
    }
    if (enters >= MAX_ENTERS) {
      await io.note('not-submitted', {pane, enters});
      throw new NotDelivered(
        `The text typed into pane ${pane} was not submitted: after ${enters} Enters it ${
          isAgent(profile)
            ? 'did not show in the transcript as a prompt'
            : 'stayed in the input line'
        }.`,
        'not-submitted',
      );
    }
    await io.note('enter-retry', {pane, enters});
  }
}

/** Whether an agent's text travels as one bracketed paste rather than typed keys: several
 * lines (Enter between them would submit each), a text that would open a picker mid-word
 * (the profile's `pasteWhen`), or a long one the program takes as a paste (`pasteOver`). */
export function goesAsPaste(profile: Profile, text: string): boolean {
  if (/[\r\n]/.test(text) || profile.pasteWhen?.test(text) === true) return true;
  return profile.pasteOver !== undefined && [...text].length > profile.pasteOver;
}

/**
 * Make the composer ready, put the text in it, and read the line back; the screen just before
 * Enter, and the line read from it. A line that holds only the end of a text that would show
 * whole lost its first characters: the program read them as part of a key sequence (a lone
 * Escape it still held). Enter would send the rest; the line is nudge's own, so it is cleared
 * and the text typed once more.
 */
async function typeWhole(
  io: PaneIo,
  pane: string,
  text: string,
  profile: Profile,
  pasted: boolean,
  o: DeliverOptions,
  signal: AbortSignal,
): Promise<{before: PaneView; composer: ComposerState | undefined}> {
  const {tmux, clock} = io;
  for (let typings = 1; ; typings++) {
    await prepareComposer(io, pane, profile, o, signal);
    await markTyping(io, pane, o.owner);
    // A person who puts the pane in copy mode stops the typing at once (tmux refuses the
    // keys); once the mode ends the line is made nudge's own again and the text typed whole.
    const counted = countingTyped(o);
    try {
      if (pasted) {
        signal.throwIfAborted();
        io.guard();
        await tmux.paste(pane, text);
        counted.typed([...text].length);
        const shown = readComposer(profile, await tmux.view(pane, 0));
        await io.note('pasted', {pane, chars: [...text].length, verified: shown === text.trim()});
      } else {
        await typeText(io, pane, text, counted, signal);
      }
    } catch (error) {
      if (!(error instanceof PaneInMode)) throw error;
      const typed = counted.count();
      await recoverFromMode(io, pane, profile, text, typed, o.draftWaitMs, signal);
      o.typed?.(-typed);
      typings--;
      continue;
    }
    await clock.sleep(Math.max(o.enterDelayMs, profile.minEnterDelayMs), signal);
    // The screen just before Enter: the reaction gate's baseline, and new output starts on the
    // row after the cursor (so the echo of the typed command never matches a regex).
    const before = pasted
      ? await tmux.view(pane, 0)
      : await drawnView(io, pane, profile, text, signal);
    // A person typing into the pane meanwhile mixes their keys into the line: then pressing
    // Enter would run what they typed (and a half of ours). Where the line can be read, it
    // must still hold only the text; otherwise leave it as it is, for them.
    const composer = pasted ? undefined : readComposerState(profile, before);
    // A shell's line is read whole, wrapped rows joined: Enter only on the whole text.
    if (profile.kind === 'shell' && composer !== undefined)
      await holdsWhole(io, pane, profile, text);
    leftAlone(pane, profile, composer, text, 'typed');
    if (composer === undefined || !lostItsStart(profile, before, composer, text))
      return {before, composer};
    const read = preview(composer.text);
    const last = typings >= MAX_TYPINGS;
    await io.note(last ? 'not-submitted' : 'retyping', {pane, why: 'lost-start', read});
    await clearLine(io, pane, profile, signal, isBusy(profile, before));
    o.typed?.(-[...text].length);
    if (last) {
      throw new NotDelivered(
        `The text typed into pane ${pane} lost its first characters ${typings} times (its input line read ${JSON.stringify(read)}); Enter was not pressed and the line was cleared.`,
        'not-submitted',
      );
    }
  }
}

/** How often a shell-mode command waiting for the agent's turn to end looks at the screen. */
const TURN_POLL_MS = 500;

/**
 * The screen once the agent's turn is over, the text still alone in its shell mode's input
 * line; a turn that outlasts `o.busyWaitMs` leaves the line cleared and throws NotDelivered,
 * and a line someone typed into throws PaneFailure (Enter is not pressed either way).
 */
async function afterTheTurn(
  io: PaneIo,
  pane: string,
  profile: Profile,
  text: string,
  o: DeliverOptions,
  signal: AbortSignal,
): Promise<PaneView> {
  await io.note('waiting-for-turn', {pane, why: 'shell-mode'});
  let last: PaneView | undefined;
  const waited = await waitUntil(
    io.tmux,
    pane,
    {
      historyRows: 0,
      observe: (view) => {
        last = view;
        return isBusy(profile, view) || readComposerState(profile, view) === undefined
          ? {status: 'pending', why: 'the agent is busy'}
          : {status: 'done'};
      },
    },
    {intervalMs: TURN_POLL_MS, timeoutMs: o.busyWaitMs, clock: io.clock, signal},
  );
  if (waited.status !== 'done' || last === undefined) {
    await clearLine(io, pane, profile, signal, true);
    o.typed?.(-[...text].length);
    throw new NotDelivered(
      `Pane ${pane}'s agent stayed busy for ${formatDuration(o.busyWaitMs)}, and its shell mode drops a command sent while a turn runs; Enter was not pressed and the line was cleared.`,
      'not-submitted',
    );
  }
  leftAlone(
    pane,
    profile,
    readComposerState(profile, last),
    text,
    "waited for its agent's turn to end",
  );
  return last;
}

/** Throws PaneFailure where the input line read (`line`: undefined, unread) holds more than
 * `text`: someone typed into it while the job `did`; Enter would run their keys. */
function leftAlone(
  pane: string,
  profile: Profile,
  line: ComposerState | undefined,
  text: string,
  did: string,
): void {
  if (line === undefined || holdsOnly(line.text, shownIn(profile, line, text))) return;
  throw new PaneFailure(
    `Someone typed into pane ${pane} while the job ${did} (its input line reads ${JSON.stringify(preview(line.text))}); Enter was not pressed and the line was left as it is.`,
  );
}

/**
 * Whether an agent's input line read back after typing holds only a proper end of `text`
 * where the whole of it would show: the text fits in one row beside the composer's prompt
 * (wide characters counted as two columns). A longer text may be scrolled or wrapped, and
 * then only its end is read.
 */
function lostItsStart(
  profile: Profile,
  view: PaneView,
  line: ComposerState,
  text: string,
): boolean {
  if (!isAgent(profile) || /[\r\n]/.test(text)) return false;
  const columns = [...text].reduce((n, ch) => n + ((ch.codePointAt(0) ?? 0) >= 0x1100 ? 2 : 1), 0);
  if (columns + COMPOSER_PROMPT_COLUMNS > view.width) return false;
  return squashed(line.text) !== squashed(shownIn(profile, line, text));
}

/** Columns an agent's composer row takes before the text (Gemini's ` *   `, with room). */
const COMPOSER_PROMPT_COLUMNS = 8;
