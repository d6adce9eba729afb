import {isAgent, type Profile} from '../agents/profile.js';
import {formatDuration} from '../base/durations.js';
import type {Tmux} from '../tmux/tmux.js';
import type {PaneView} from '../tmux/view.js';
import {PaneFailure} from './failures.js';
import {clearLine, type PaneIo} from './keys.js';

/**
 * A half line: what nudge typed into an input line without its Enter (issues 29 and 62). Every
 * line nudge types marks the pane before its first key (the pane option `@nudge-half-line`:
 * who types, and where the cursor stood), and takes the mark off once the line is submitted
 * or cleared. So whoever ends the typing — the job failing, a cancel, copy mode, a lost lease,
 * or the worker or waiter killed (`kill -9`, the OOM killer), which can say nothing — the tmux
 * server still holds the mark, and the next line nudge types into that pane never builds on
 * it: it waits for the person to deal with the line (the cursor leaves where the half line
 * ended: they cleared or sent it), at most --draft-wait, then fails having typed nothing.
 *
 * The mark is `OWNER TYPED CURSOR CAUSE`: CAUSE `typing` while the line goes out (CURSOR
 * where it started, TYPED `?`), `entering` from just before its Enter (CURSOR where the whole
 * line ended); `cancelled` or `failed` once its typer ended it (CURSOR where the half line
 * ends). A mark still `typing` or `entering` that is not the reader's own is a typer that
 * died. `typing`: the cursor where the line started means nothing is left; elsewhere, the line
 * is the person's to clear or send (the mark becomes `stopped`, CURSOR where it ends now).
 * `entering`: the cursor moved means Enter took; still where the line ended, it did not.
 */
const OPTION = '@nudge-half-line';

/** The most a cancelled job spends clearing the half-typed line before it frees the pane. */
const CANCEL_CLEAR_MS = 5_000;

/** Why a half line was left, as its mark says. */
type Cause = 'typing' | 'entering' | 'stopped' | 'cancelled' | 'failed';

const CAUSES: readonly Cause[] = ['typing', 'entering', 'stopped', 'cancelled', 'failed'];

interface Mark {
  owner: string;
  typed: string;
  at: string;
  cause: Cause;
}

function markOf(value: string | undefined): Mark | undefined {
  if (value === undefined) return undefined;
  const words = value.split(' ');
  // An older nudge's mark (`JOB TYPED CURSOR`) was a cancel's.
  const cause = words.length >= 4 ? words.pop() : 'cancelled';
  const at = words.pop() ?? '';
  const typed = words.pop() ?? '?';
  const known = CAUSES.find((c) => c === cause) ?? 'cancelled';
  return {owner: words.join(' ') || '?', typed, at, cause: known};
}

async function cursorOf(tmux: Tmux, pane: string): Promise<string> {
  const view = await tmux.view(pane, 0);
  return `${view.cursorX},${view.cursorY}`;
}

/** Before the first key of a line `owner` types into `pane` (its lock held), and again just
 * before its Enter with the screen then (`before`): the mark that outlives a typer killed
 * mid-line. */
export async function markTyping(
  io: PaneIo,
  pane: string,
  owner: string,
  before?: PaneView,
): Promise<void> {
  const at = before ? `${before.cursorX},${before.cursorY}` : await cursorOf(io.tmux, pane);
  io.guard();
  await io.tmux.markPane(pane, OPTION, `${owner} ? ${at} ${before ? 'entering' : 'typing'}`);
}

/**
 * The line `owner` typed into `pane` ended: submitted or cleared (`left` 0, the mark taken
 * off), or left with `left` characters on it (the mark says where it ends, and why). Nothing
 * is changed once the lock is lost (the mark may be the next holder's by then).
 */
export async function lineEnded(
  io: PaneIo,
  pane: string,
  owner: string,
  left: number,
  cause: 'cancelled' | 'failed',
): Promise<void> {
  try {
    io.guard();
  } catch {
    return;
  }
  const mark = markOf(await io.tmux.paneMark(pane, OPTION));
  if (mark !== undefined && mark.owner !== owner) return;
  if (left <= 0) {
    if (mark !== undefined) await io.tmux.markPane(pane, OPTION, undefined);
    return;
  }
  await io.tmux.markPane(
    pane,
    OPTION,
    `${owner} ${left} ${await settledCursor(io, pane)} ${cause}`,
  );
}

/** How far apart, and how often at most, the cursor is looked at for where it rests. */
const SETTLE_MS = 100;
const SETTLE_LOOKS = 10;

/** Where the cursor rests once what was typed has been echoed: two looks SETTLE_MS apart that
 * agree (on a loaded machine a tty's echo trails the last key, and a mark at a cursor still
 * moving reads as the person clearing the line: CI of 0824cc3, cancel.test). */
async function settledCursor(io: PaneIo, pane: string): Promise<string> {
  let at = await cursorOf(io.tmux, pane);
  for (let look = 0; look < SETTLE_LOOKS; look++) {
    await io.clock.sleep(SETTLE_MS);
    const now = await cursorOf(io.tmux, pane);
    if (now === at) return at;
    at = now;
  }
  return at;
}

/**
 * A job cancelled after typing `typed` characters: clear them where the profile can (a shell,
 * an agent: true, the mark taken off), else leave the mark its typing ended with, so the next
 * line waits for the person (false). Awaited, bounded, and still under the lock: a clearing
 * key that came later would land inside the next job's text; after a lost lock the guard
 * refuses it.
 */
export async function leaveLine(
  io: PaneIo,
  pane: string,
  job: string,
  profile: Profile,
  typed: number,
): Promise<boolean> {
  if (profile.clearKeys.length === 0) return false;
  const stop = AbortSignal.timeout(CANCEL_CLEAR_MS);
  const cleared = await clearLine(io, pane, profile, stop, isAgent(profile)).then(
    () => true,
    () => false,
  );
  await lineEnded(io, pane, job, cleared ? 0 : typed, 'cancelled').catch(() => {});
  return cleared;
}

/** Before typing into `pane` as `owner`: a half line another typer left there is waited out
 * (the person clears or sends it), or the line is refused with one sentence after `waitMs`.
 * Resolves to whether there was one to wait for. */
export async function waitOutHalfLine(
  io: PaneIo,
  pane: string,
  owner: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const mark = markOf(await io.tmux.paneMark(pane, OPTION));
  if (mark === undefined || mark.owner === owner) return false;
  let at = mark.at;
  if (mark.cause === 'typing' || mark.cause === 'entering') {
    // Its typer died. Mid-line: the cursor where the line started means nothing of it is left
    // (or the person cleared it already); elsewhere, it ends where the cursor is now. At its
    // Enter: the cursor moved means the line was sent (or cleared); still there, it was not.
    const now = await cursorOf(io.tmux, pane);
    if ((now === at) === (mark.cause === 'typing')) {
      await io.tmux.markPane(pane, OPTION, undefined);
      return false;
    }
    at = now;
    await io.tmux.markPane(pane, OPTION, `${mark.owner} ? ${at} stopped`);
  }
  await io.note('waiting-for-half-line', {pane, job: mark.owner, chars: Number(mark.typed)});
  const deadline = io.clock.now() + waitMs;
  for (;;) {
    if ((await cursorOf(io.tmux, pane)) !== at) {
      // The person cleared or sent it (or someone else's job went first and took the mark).
      await io.tmux.markPane(pane, OPTION, undefined);
      return true;
    }
    if ((await io.tmux.paneMark(pane, OPTION)) === undefined) return true;
    if (io.clock.now() >= deadline)
      throw new PaneFailure(
        `${whatWasLeft(mark, pane)}, and it was still there after ${formatDuration(waitMs)}; nothing was typed. Clear or send the line in the pane, then submit again.`,
      );
    await io.clock.sleep(HALF_LINE_POLL_MS, signal);
  }
}

function whatWasLeft(mark: Mark, pane: string): string {
  const chars = mark.typed === '?' ? 'what it typed' : `${mark.typed} characters`;
  const where = `in pane ${pane}'s input line`;
  switch (mark.cause) {
    case 'cancelled':
      return `A cancelled job (${mark.owner}) left ${chars} ${where}, which nudge cannot clear (it has no profile with clearing keys for that program)`;
    case 'failed':
      return `A job that failed while typing (${mark.owner}) left ${chars} ${where} without its Enter`;
    case 'typing':
    case 'entering':
    case 'stopped':
      return `A job (${mark.owner}) stopped while typing (its worker or waiter ended without a word) and left ${chars} ${where}`;
  }
}

const HALF_LINE_POLL_MS = 250;
