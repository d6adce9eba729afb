import type {Blocked} from '../agents/dialogs.js';
import type {DoorKind} from '../agents/doors.js';
import type {ProfileName} from '../agents/profile.js';
import {versionOneRecord} from '../base/shape.js';
import type {Delivery} from '../pane/failures.js';
import type {Receipt} from './receipts.js';
import type {RunReport} from './run-report.js';
import type {StalledMark} from './stalled.js';
import {
  type JobState,
  RUN_STATES,
  type RunState,
  SUBMIT_STATES,
  type SubmitState,
  TERMINAL_STATES,
} from './states.js';

/** What every job's state record (state.json) holds; it is replaced atomically on every
 * transition. */
interface RecordBase<S extends JobState> {
  version: 1;
  id: string;
  state: S;
  pane: string;
  paneTarget: string;
  socketPath: string;
  serverPid: number;
  /** The process running the job (the detached worker, or the front end with --wait), and
   * its start time where the system tells it: together they say whether it still runs. */
  pid?: number;
  pidStart?: string;
  /** The process is its tmux server's waiter (src/waiter/waiter.ts), running other jobs beside
   * this one: it is stopped by its cancel mark and SIGUSR2, never by a signal to the process. */
  waiter?: boolean;
  /** `detached` or `foreground` (--wait). */
  mode: 'detached' | 'foreground';
  createdAt: string;
  updatedAt: string;
  finishedAt?: string;
  /** Milliseconds from Enter to the end of the wait (done/timeout). */
  waitedMs?: number;
  /** Why the job failed or was cancelled, one sentence. */
  reason?: string;
  /** Whether the notice was typed. */
  notified?: boolean;
  /** First 80 characters of the text, for listings. */
  preview: string;
  /** `--until exit` or a run's command: the exit status. */
  exitCode?: number;
  /** Which tmux transport the worker used (control or spawn), and why. */
  transport?: string;
  /** State `blocked`: what the person is asked, and where. */
  blocked?: Blocked;
  /** A stall going on now (`--stall`): cleared once the pane moves again. */
  stalled?: StalledMark;
  /** The agent's turn ended, but work it started still runs (`working: 1 background shell
   * (sleep 20)`): the job waits on; cleared once it has settled. */
  working?: string;
  /** The job waits for the person before it types (their draft, a half line): what for. */
  waitingForYou?: string;
  /** The job holds the pane and waits behind a program its shell runs (`--if-busy queue`):
   * that program (`sleep`), while it lasts. */
  behindProgram?: string;
  /** Who submitted it: the pane the caller ran in and its session (absent: the person, outside
   * tmux; a pane of another host: `HOST:%N`, no socket). */
  submittedFrom?: {socketPath: string; pane: string; sessionId?: string};
}

/** How the notice went: a door, typed keys, typed as a shell comment, or shown as a tmux
 * message (src/pane/shell-line.ts). */
export type NoticeVia = DoorKind | 'keys' | 'comment' | 'message';

/** A `submit` job: text typed into a pane, watched, and a notice. Records written before
 * `kind` existed are read as `submit`. */
export interface SubmitRecord extends RecordBase<SubmitState> {
  kind: 'submit';
  /** The program profile used, and why (auto-detection). */
  profile?: ProfileName;
  profileReason?: string;
  /** The pane's foreground program when the job typed (`pane_current_command`). */
  program?: string;
  /** How many characters the job types (its text, wrapped under `--until exit`), and while it
   * types a long one, how many went out so far and about how long the rest takes. */
  chars?: number;
  typed?: number;
  typingLeftMs?: number;
  /** Whether the text, and the notice, were submitted (read back from the screen). */
  delivery?: Delivery;
  noticeDelivery?: Delivery;
  /** How the notice went (a door, or `keys`), and the doors tried before typing and why each
   * did not take it. */
  noticeVia?: NoticeVia;
  noticeDoors?: string[];
  /** `--until regex:`: the match. */
  match?: string;
  /** Why the wait ended so, and why the notice was held back (if it was). */
  verdict?: string;
  /** An agent that settled: which source said nothing it started still runs. */
  settledBy?: 'hook' | 'door' | 'screen';
  noticeHeld?: string;
  /** The notice, for a pane of another host: a relay types it there (src/relay/relay.ts). */
  noticeDue?: {to: string; text: string};
  /** Cancelled while typing: whether what was typed was cleared (false: left in the line). */
  cleared?: boolean;
  /** Where the message stands on its ladder of receipts (src/jobs/receipts.ts). */
  receipt?: Receipt;
  /** `nudge resend`: the job this one sends again, and the job that sent this one again. */
  resentFrom?: string;
  resentAs?: string;
}

/** A `nudge run` job: a task in a pane of its own. */
export interface RunRecord extends RecordBase<RunState> {
  kind: 'run';
  /** The agent's session (its conversation), once known: what `nudge recover` resumes. */
  session?: {id: string; from: string};
  /** The report (also in report.md), once it ended. */
  report?: RunReport;
}

/** A job's state record, by its kind. */
export type JobRecord = SubmitRecord | RunRecord;

/** A change to a record: any field of either kind (the kind itself never changes). */
export type RecordPatch = Partial<
  Omit<SubmitRecord, 'kind' | 'state'> & Omit<RunRecord, 'kind' | 'state'>
> & {state?: JobState};

/**
 * A state.json as read back, checked: a record of another version, or one that is not a job
 * record at all, is an error that names the file, never a shape taken on trust.
 */
export function checkJobRecord(value: unknown, path: string): JobRecord {
  const {r, bad} = versionOneRecord(value, path, 'a job record');
  if (typeof r.id !== 'string' || typeof r.pane !== 'string') throw bad('no id or pane');
  const kind = r.kind ?? 'submit';
  if (kind !== 'submit' && kind !== 'run') throw bad(`kind ${JSON.stringify(r.kind)}`);
  // Each machine's own states: a run is never `typing`, a submit never `integrating`.
  const states: readonly unknown[] = [
    ...(kind === 'run' ? RUN_STATES : SUBMIT_STATES),
    ...TERMINAL_STATES,
  ];
  if (!states.includes(r.state)) throw bad(`state ${JSON.stringify(r.state)} of a ${kind}`);
  return {...r, kind} as unknown as JobRecord;
}

/** How a job ended, as its record keeps it (with the terminal state). */
export interface JobEnding {
  reason?: string | undefined;
  notified?: boolean | undefined;
  waitedMs?: number | undefined;
  exitCode?: number | undefined;
  match?: string | undefined;
  delivery?: Delivery | undefined;
  noticeDelivery?: Delivery | undefined;
  /** How the notice went: through a door of the agent's (src/doors/), or typed. */
  noticeVia?: NoticeVia | undefined;
  /** The doors tried before it was typed, each with why it did not take the notice. */
  noticeDoors?: string[] | undefined;
  /** Why the wait ended so (`idle: waiting for input (python3)`, `still running: sleep`). */
  verdict?: string | undefined;
  /** An agent that settled: which source said nothing it started still runs. */
  settledBy?: 'hook' | 'door' | 'screen' | undefined;
  /** Why the notice was not typed, when it was held back. */
  noticeHeld?: string | undefined;
  /** Who recorded it, when not the job's own worker (`nudge cancel`). */
  by?: string | undefined;
  /** State `blocked`: what the person is asked, and where. */
  blocked?: Blocked | undefined;
  /** The notice, not typed here: a relay types it into a pane of another host. */
  noticeDue?: {to: string; text: string} | undefined;
  /** Cancelled while typing: whether what was typed was cleared from the input line. */
  cleared?: boolean | undefined;
  /** The program, or every door, said no to the text (its receipt ends `refused`). */
  refused?: boolean | undefined;
}
