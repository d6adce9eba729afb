import {findDialog} from '../agents/dialogs.js';
import {isIdle} from '../agents/idle-screen.js';
import {isAgent, isBusy, type Profile} from '../agents/profile.js';
import type {Clock} from '../base/clock.js';
import {shellPromptVisible} from '../detect/idle.js';
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
