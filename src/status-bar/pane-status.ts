import type {JobOutcome, JobTransitions} from '../jobs/events.js';
import type {RecordPatch} from '../jobs/record.js';
import type {JobRecorder} from '../jobs/recorder.js';
import {stallShown, workingShown} from '../jobs/stalled.js';
import type {PaneLock} from '../locks/pane-lock.js';
import type {QueueEntry} from '../locks/pane-queue.js';
import type {Tmux} from '../tmux/tmux.js';
import {PANE_OPTIONS, type PaneState, refreshStatusOption} from './pane-states.js';

/** What a job waits for the person for, by the event that says it does. */
const WAITS_FOR_YOU: Partial<Record<string, string>> = {
  'waiting-for-draft': 'your draft in the input line (send or clear it)',
  'waiting-for-half-line': 'a half line left in the input line (send or clear it)',
  'waiting-for-edit': 'your edit of its text (nudge queue edit)',
};

/** How long @nudge-needs may be: a status bar has little room. */
const NEEDS_CHARS = 60;

/** A running state of the job as the pane shows it (locked: about to type). */
export function paneStateOf(state: keyof JobTransitions): PaneState {
  return state === 'locked' ? 'typing' : state;
}

/** An ending as the pane shows it, in the job's own word (as `jobs` and `top` say it);
 * undefined (cleared) for a cancelled job. */
export function paneEndingOf(state: JobOutcome['state']): PaneState | undefined {
  return state === 'cancelled' ? undefined : state;
}

/** The question on one short line. */
export function shortNeeds(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > NEEDS_CHARS ? `${line.slice(0, NEEDS_CHARS - 1)}…` : line;
}

/** What the pane's options are set to: a value, or undefined to unset. */
export type PaneMarks = Partial<Record<keyof typeof PANE_OPTIONS, string | undefined>>;

/** How many jobs wait on the pane besides `jobId` (not at work, not dropped). */
export function waitingBehind(entries: readonly QueueEntry[], jobId: string): number {
  return entries.filter((e) => !e.taken && !e.dropped && e.jobId !== jobId).length;
}

export interface PaneStatusDeps {
  /** The pane's options, and the server's summary of them (`@nudge-status`). */
  tmux: Pick<Tmux, 'markPane' | 'paneStates' | 'markServer'>;
  lock: Pick<PaneLock, 'entries' | 'withQueue'>;
}

/** Set the pane's options, then the server's summary of them; a pane gone or a server gone
 * never fails the job. */
async function mark(deps: PaneStatusDeps, pane: string, marks: PaneMarks): Promise<void> {
  for (const [key, value] of Object.entries(marks) as [keyof typeof PANE_OPTIONS, string][]) {
    await deps.tmux.markPane(pane, PANE_OPTIONS[key], value).catch(() => {});
  }
  await refreshStatusOption(deps.tmux);
}

const count = (n: number) => (n > 0 ? String(n) : undefined);

/** What a mark of the record shows on the pane while it lasts: work the agent left running,
 * a dialog up or answered, a stall begun or over (--stall). */
async function showMark(deps: PaneStatusDeps, pane: string, patch: RecordPatch): Promise<void> {
  if ('working' in patch)
    await mark(deps, pane, {needs: patch.working ? workingShown(patch.working) : undefined});
  // A dialog up after the job's text went in: blocked until the person answers it.
  if ('blocked' in patch) {
    const b = patch.blocked;
    await mark(deps, pane, {
      state: b ? 'blocked' : 'waiting',
      needs: b ? shortNeeds(b.question) : undefined,
    });
  }
  if ('stalled' in patch) {
    const s = patch.stalled;
    await mark(deps, pane, {
      state: s ? 'stalled' : 'waiting',
      needs: s ? stallShown(s.kind) : undefined,
    });
  }
}

/** A job's ending shown on its pane (under the queue's lock, `entries` its queue): unless
 * another job has the pane now, whose own state stands. */
async function showEnding(
  deps: PaneStatusDeps,
  pane: string,
  jobId: string,
  outcome: JobOutcome,
  entries: readonly QueueEntry[],
): Promise<void> {
  const waiting = waitingBehind(entries, jobId);
  if (entries.some((e) => e.taken && e.jobId !== jobId)) {
    await mark(deps, pane, {queue: count(waiting)});
    return;
  }
  const state = paneEndingOf(outcome.state);
  const left = waiting > 0;
  await mark(deps, pane, {
    state,
    job: left || state !== undefined ? jobId : undefined,
    queue: count(waiting),
    needs:
      outcome.state === 'blocked' && outcome.blocked
        ? shortNeeds(outcome.blocked.question)
        : undefined,
  });
}

/**
 * The job's recorder, showing each step on the pane as well: a queued job counts itself in
 * @nudge-queue, the job at work sets @nudge-state and @nudge-job, its ending is shown (under
 * the queue's lock, so the next job's state, set once it takes the pane, comes after it).
 */
export function showingPaneState(
  recorder: JobRecorder,
  pane: string,
  jobId: string,
  deps: PaneStatusDeps,
): JobRecorder {
  const behind = async () => count(waitingBehind(await deps.lock.entries(), jobId));
  // Behind a program its shell runs: said in the record until the job types.
  let behindProgram = false;
  return {
    async transition(state, data, patch) {
      await recorder.transition(state, data, patch);
      if (behindProgram) {
        behindProgram = false;
        await recorder.mark({behindProgram: undefined});
      }
      await mark(deps, pane, {
        state: paneStateOf(state),
        job: jobId,
        queue: await behind().catch(() => undefined),
        needs: undefined,
      });
    },
    async mark(patch) {
      await recorder.mark(patch);
      await showMark(deps, pane, patch);
    },
    async event(name, data) {
      await recorder.event(name, data);
      // Waiting for the person (a draft, a half line) is not work: said on the pane and in
      // the record until the line is the job's again (`person-done`).
      const waitsFor = WAITS_FOR_YOU[name];
      if (waitsFor !== undefined || name === 'person-done') {
        await recorder.mark({waitingForYou: waitsFor});
        await mark(deps, pane, {
          state: waitsFor === undefined ? 'typing' : 'waiting-for-you',
          needs: waitsFor === undefined ? undefined : shortNeeds(waitsFor),
        });
      }
      if (name === 'waiting-for-program') {
        behindProgram = true;
        await recorder.mark({behindProgram: (data as {program: string}).program});
      }
      // Queued behind another job: the pane's count of waiting jobs includes this one.
      if (name === 'waiting-for-lock') {
        const entries = await deps.lock.entries().catch(() => []);
        await mark(deps, pane, {
          queue: count(entries.filter((e) => !e.taken && !e.dropped).length),
        });
      }
    },
    async end(outcome, patch) {
      // An ended job waits for nobody, and on nothing.
      await recorder.end(outcome, {
        ...patch,
        waitingForYou: undefined,
        working: undefined,
        behindProgram: undefined,
        // A dialog's mark goes; a `blocked` ending writes its own.
        blocked: undefined,
      });
      await deps.lock
        .withQueue((entries) => showEnding(deps, pane, jobId, outcome, entries))
        .catch(() => {});
    },
  };
}
