import {findDialog} from '../agents/dialogs.js';
import {isIdle} from '../agents/idle-screen.js';
import {isAgent, type Profile} from '../agents/profile.js';
import {profileNamed} from '../agents/registry.js';
import {isBusy} from '../agents/screens.js';
import {type Clock, realClock} from '../base/clock.js';
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

/**
 * After a job ended `blocked`, its worker looks at the pane every `intervalMs` (up to
 * `forMs`, or until SIGTERM) until the person has answered: the dialog gone, the composer or
 * the prompt back. Then, if the pane still shows this job's `blocked` (no other job took it
 * meanwhile), its state is cleared — the status bar, `top`, `@nudge-needs` and `nudge next`
 * stop pointing there — and the job records `unblocked`. Resolves to whether it was answered.
 */
export async function untilAnswered(
  deps: UnblockDeps,
  at: {pane: string; jobId: string; profile: Profile},
  o: {intervalMs: number; forMs: number},
  signal: AbortSignal,
): Promise<boolean> {
  const {pane, jobId} = at;
  const start = deps.clock.now();
  let inARow = 0;
  while (deps.clock.now() - start < o.forMs) {
    await deps.clock.sleep(o.intervalMs, signal);
    const state = await deps.tmux.paneMark(pane, PANE_OPTIONS.state);
    const job = await deps.tmux.paneMark(pane, PANE_OPTIONS.job);
    // Another job has the pane, or the person visited it (`nudge next`): nothing to clear.
    if (state !== 'blocked' || job !== jobId) return false;
    const view = await deps.tmux.view(pane, 0);
    inARow = backAtWork(at.profile, view, deps.clock.now()) ? inARow + 1 : 0;
    if (inARow < LOOKS) continue;
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
  return false;
}

/** How long a detached worker whose job ended `blocked` watches for the person's answer, to
 * clear the pane's `blocked` (later, the pane's next job or `nudge next` does). */
const UNBLOCK_WATCH_MS = 30 * 60_000;

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
