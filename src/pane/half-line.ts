import {isAgent, type Profile} from '../agents/profile.js';
import {formatDuration} from '../base/durations.js';
import type {Tmux} from '../tmux/tmux.js';
import {PaneFailure} from './failures.js';
import {clearLine, type PaneIo} from './keys.js';

/**
 * A half line nudge could not clear (issue 29). A job cancelled while it typed into a program
 * nudge has no profile for (or whose profile has no clearing keys) leaves what it typed in the
 * input line. It marks the pane with where that half line ended (the pane option
 * `@nudge-half-line`: the job, the characters, the cursor), and the next line nudge types into
 * that pane — a queued job's, a notice — never builds on it: it waits for the person to deal
 * with the line (the cursor leaves where the half line ended: they cleared or sent it), at most
 * --draft-wait, then fails having typed nothing.
 */
const OPTION = '@nudge-half-line';

/** The most a cancelled job spends clearing the half-typed line before it frees the pane. */
const CANCEL_CLEAR_MS = 5_000;

/**
 * A job cancelled after typing `typed` characters: clear them where the profile can (a shell,
 * an agent: true), else mark the pane so the next line waits for the person (false). Awaited,
 * bounded, and still under the lock: a clearing key that came later would land inside the next
 * job's text; after a lost lock the guard refuses it.
 */
export async function leaveLine(
  io: PaneIo,
  pane: string,
  job: string,
  profile: Profile,
  typed: number,
): Promise<boolean> {
  if (profile.clearKeys.length > 0) {
    const stop = AbortSignal.timeout(CANCEL_CLEAR_MS);
    return clearLine(io, pane, profile, stop, isAgent(profile)).then(
      () => true,
      () => false,
    );
  }
  await markHalfLine(io.tmux, pane, job, typed).catch(() => {});
  return false;
}

/** Mark `pane`: job `job` left `typed` characters there, ending at the cursor now. */
export async function markHalfLine(tmux: Tmux, pane: string, job: string, typed: number) {
  const view = await tmux.view(pane, 0);
  await tmux.markPane(pane, OPTION, `${job} ${typed} ${view.cursorX},${view.cursorY}`);
}

/** Before typing into `pane`: a half line a job left there is waited out (the person clears
 * or sends it), or the line is refused with one sentence after `waitMs`. Resolves to whether
 * there was one to wait for. */
export async function waitOutHalfLine(
  io: PaneIo,
  pane: string,
  waitMs: number,
  signal: AbortSignal,
): Promise<boolean> {
  const mark = await io.tmux.paneMark(pane, OPTION);
  if (mark === undefined) return false;
  const [job = '?', typed = '?', at = ''] = mark.split(' ');
  await io.note('waiting-for-half-line', {pane, job, chars: Number(typed)});
  const deadline = io.clock.now() + waitMs;
  for (;;) {
    const view = await io.tmux.view(pane, 0);
    if (`${view.cursorX},${view.cursorY}` !== at) {
      // The person cleared or sent it (or someone else's job went first and took the mark).
      await io.tmux.markPane(pane, OPTION, undefined);
      return true;
    }
    if ((await io.tmux.paneMark(pane, OPTION)) === undefined) return true;
    if (io.clock.now() >= deadline)
      throw new PaneFailure(
        `A cancelled job (${job}) left ${typed} characters in pane ${pane}'s input line, which nudge cannot clear (it has no profile with clearing keys for that program), and they were still there after ${formatDuration(waitMs)}; nothing was typed. Clear or send the line in the pane, then submit again.`,
      );
    await io.clock.sleep(HALF_LINE_POLL_MS, signal);
  }
}

const HALF_LINE_POLL_MS = 250;
