import {type Blocked, blockedReason, findDialog} from '../agents/dialogs.js';
import {isIdle} from '../agents/idle-screen.js';
import {isAgent, type Profile} from '../agents/profile.js';
import {profileNamed} from '../agents/registry.js';
import {isBusy} from '../agents/screens.js';
import {type Clock, realClock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {describeError} from '../base/errors.js';
import type {Logger} from '../base/log.js';
import {shellPromptVisible} from '../detect/idle.js';
import type {JobRecorder} from '../jobs/recorder.js';
import type {JobRequest} from '../jobs/request.js';
import type {JobHandle} from '../jobs/store.js';
import type {PaneLock} from '../locks/pane-lock.js';
import {PANE_OPTIONS, refreshStatusOption} from '../status-bar/pane-states.js';
import type {Tmux} from '../tmux/tmux.js';
import type {PaneView} from '../tmux/view.js';
import {changeOfEnding} from './ending.js';
import type {JobDeps} from './job-deps.js';

/** What watching a blocked pane needs. */
export interface UnblockDeps {
  tmux: Pick<Tmux, 'view' | 'paneMark' | 'markPane' | 'paneStates' | 'markServer'>;
  clock: Clock;
  lock: Pick<PaneLock, 'withQueue'>;
  /** Record that the dialog was answered (the job's `unblocked` event). */
  record: (data: {pane: string; waitedMs: number}) => Promise<void>;
}

/** Looks in a row without the dialog, its program back at its composer (or prompt), that
 * mean it was answered (one look may catch a redraw). */
const LOOKS = 2;

/** The pane shows its program back: an agent's composer or work, a shell's prompt. */
function backAtWork(profile: Profile, view: PaneView, now: number): boolean {
  if (findDialog(profile, view, now)) return false;
  if (isAgent(profile)) return isIdle(profile, view) || isBusy(profile, view);
  return shellPromptVisible(view);
}

/** What looking at a pane for the person's answer needs. */
export interface AnswerDeps {
  tmux: Pick<Tmux, 'view'>;
  clock: Clock;
}

/**
 * Look at `pane` every `intervalMs` (up to `forMs`, or until `signal`, which rejects) until
 * the person has answered its dialog: the dialog gone, the composer or the prompt back, in
 * LOOKS looks in a row. False when the time runs out, or when `stillOurs` (asked before each
 * look) says the pane is no longer the job's to watch.
 */
export async function answered(
  deps: AnswerDeps,
  at: {pane: string; profile: Profile},
  o: {intervalMs: number; forMs: number},
  signal: AbortSignal,
  stillOurs: () => Promise<boolean> = async () => true,
): Promise<boolean> {
  const start = deps.clock.now();
  let inARow = 0;
  while (deps.clock.now() - start < o.forMs) {
    await deps.clock.sleep(o.intervalMs, signal);
    if (!(await stillOurs())) return false;
    const view = await deps.tmux.view(at.pane, 0);
    inARow = backAtWork(at.profile, view, deps.clock.now()) ? inARow + 1 : 0;
    if (inARow >= LOOKS) return true;
  }
  return false;
}

/**
 * After a job ended `blocked` (its dialog up before anything was typed), its worker watches
 * the pane (answered) until the person has answered. Then, if the pane still shows this job's
 * `blocked` (no other job took it meanwhile), its state is cleared — the status bar, `top`,
 * `@nudge-needs` and `nudge next` stop pointing there — and the job records `unblocked`.
 * Resolves to whether it was answered.
 */
export async function untilAnswered(
  deps: UnblockDeps,
  at: {pane: string; jobId: string; profile: Profile},
  o: {intervalMs: number; forMs: number},
  signal: AbortSignal,
): Promise<boolean> {
  const {pane, jobId} = at;
  const start = deps.clock.now();
  // Another job has the pane, or the person visited it (`nudge next`): nothing to clear.
  const stillOurs = async () =>
    (await deps.tmux.paneMark(pane, PANE_OPTIONS.state)) === 'blocked' &&
    (await deps.tmux.paneMark(pane, PANE_OPTIONS.job)) === jobId;
  if (!(await answered(deps, at, o, signal, stillOurs))) return false;
  const cleared = await deps.lock.withQueue(async (entries) => {
    if (entries.some((e) => e.taken && e.jobId !== jobId)) return false;
    for (const option of [PANE_OPTIONS.state, PANE_OPTIONS.needs])
      await deps.tmux.markPane(pane, option, undefined);
    await refreshStatusOption(deps.tmux);
    return true;
  });
  if (cleared) await deps.record({pane, waitedMs: deps.clock.now() - start});
  return cleared;
}

/** How long a person has to answer a dialog: a job whose text went in waits that long for the
 * answer before it ends `blocked`; a worker whose job ended `blocked` before typing watches
 * that long to clear the pane's `blocked` (later, the pane's next job or `nudge next` does). */
export const UNBLOCK_WATCH_MS = 30 * 60_000;

/** How a job that met a dialog after typing ends when nobody answered it. */
const UNANSWERED = `its text went in, and nobody answered within ${formatDuration(UNBLOCK_WATCH_MS)}`;

/** A detached job that ended `blocked`: watch its pane until the person answers (untilAnswered). */
export async function watchForAnswer(
  handle: JobHandle,
  request: JobRequest,
  w: {tmux: Tmux; lockFor: (pane: string) => PaneLock; recorder: JobRecorder; log: Logger},
  signal: AbortSignal,
): Promise<void> {
  const record = await handle.readState();
  if (record.kind !== 'submit' || record.mode !== 'detached') return;
  const profile = profileNamed(record.profile ?? '');
  if (!profile) return;
  const deps = {
    tmux: w.tmux,
    clock: realClock,
    lock: w.lockFor(request.pane),
    record: (data: {pane: string; waitedMs: number}) => w.recorder.event('unblocked', data),
  };
  const at = {pane: request.pane, jobId: request.jobId, profile};
  const o = {intervalMs: request.options.intervalMs, forMs: UNBLOCK_WATCH_MS};
  await untilAnswered(deps, at, o, signal).catch((error: unknown) => {
    if (!signal.aborted) w.log.warn({error: describeError(error)}, 'unblock watch failed');
  });
}

/**
 * A dialog up after the job's text went in (`blocked` found): the job is blocked — its record
 * (`blocked`, with the job still waiting), its pane and its sinks say so — until the person
 * answers (then the mark is cleared, `unblocked` recorded, and the job waits on for its
 * verdict) or UNBLOCK_WATCH_MS pass (the job ends `blocked`). `signal` (a cancel) rejects.
 */
export async function blockedUntilAnswered(
  deps: Pick<JobDeps, 'recorder' | 'tell' | 'tmux' | 'clock'>,
  at: {profile: Profile; blocked: Blocked},
  intervalMs: number,
  signal: AbortSignal,
): Promise<{answered: true; afterMs: number} | {answered: false; afterMs: number; reason: string}> {
  const {recorder, clock} = deps;
  const {pane} = at.blocked;
  const goingOn = blockedReason(at.blocked, 'the job goes on once it is answered');
  const unanswered = blockedReason(at.blocked, UNANSWERED);
  await recorder.mark({blocked: at.blocked});
  const change = changeOfEnding({
    state: 'blocked',
    blocked: at.blocked,
    reason: goingOn,
    notified: false,
  });
  if (change) await deps.tell(change);
  const start = clock.now();
  const o = {intervalMs, forMs: UNBLOCK_WATCH_MS};
  const yes = await answered(deps, {pane, profile: at.profile}, o, signal);
  const afterMs = clock.now() - start;
  if (!yes) return {answered: false, afterMs, reason: unanswered};
  await recorder.event('unblocked', {pane, waitedMs: afterMs});
  await recorder.mark({blocked: undefined});
  return {answered: true, afterMs};
}
