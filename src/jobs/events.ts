import type {HookKind} from '../agents/registry.js';
import type {DoorAttempt} from '../doors/ladder.js';
import type {PaneEvents} from '../pane/events.js';
import type {Delivery} from '../pane/failures.js';
import type {FollowKind} from '../tmux/follow-format.js';
import type {Receipt} from './receipts.js';
import type {JobEnding, NoticeVia} from './record.js';
import type {StallEvents} from './stalled.js';
import type {SameMembers, SubmitState, TerminalState} from './states.js';

/** What the end of a wait found. */
export interface WaitFound {
  waitedMs: number;
  checks: number;
  exitCode?: number;
  match?: string;
  /** Why the wait ended: `idle`, `idle: waiting for input (python3)`, `still running: sleep`. */
  verdict?: string;
  /** How the busy pane was followed (src/tmux/follow-format.ts), if it was. */
  followedBy?: FollowKind[] | undefined;
  /** An agent that settled: which source said nothing it started still runs. */
  settledBy?: 'hook' | 'door' | 'screen';
}

/** A sink told of a change of a job or run (`--notify`), or not: named without its URL's
 * path. */
export interface TellingEvents {
  'notify-sent': {about: string; sink: string; tries: number};
  'notify-failed': {about: string; sink: string; error: string};
}

/**
 * Every event a job records in its events.jsonl (and log) besides its state changes, by
 * name: the pane services' events and the job's own. One typed event per step.
 */
export interface JobEvents extends PaneEvents, StallEvents, TellingEvents {
  'worker-started': {pid: number};
  /** A user profile file that was refused (the built-in profile is used instead). */
  'profile-file-refused': {why: string};
  'waiting-for-lock': {pane: string; ahead: number; head: string | null};
  /** The person changed the job while it waited (`nudge queue`): moved it (its place, from
   * 1, among the waiting jobs), edited its text, or dropped it (it ends cancelled). */
  'queue-moved': {pane: string; place: number; by: string};
  'queue-edited': {pane: string; chars: number; by: string};
  'queue-dropped': {pane: string; by: string};
  /** `nudge queue edit` has the text open in $EDITOR: the job waits for the edit. */
  'waiting-for-edit': {pane: string};
  /** The lock taken, the job types its text as edited in the queue. */
  'text-edited': {chars: number};
  typed: {chars: number; enter: boolean; delivery: Delivery};
  'condition-met': WaitFound;
  'wait-timeout': WaitFound;
  'fail-pattern': WaitFound;
  /** The agent waits for a person (a dialog, a usage limit): the job ends `blocked`, or
   * waits out a usage limit (`--on-limit wait`). */
  'needs-person': WaitFound & {kind: string; question: string; pane: string};
  /** A usage limit waited out: when it resets (as shown and as a time) and when the job
   * resumes. */
  limit: {pane: string; question: string; resets: string; resetsAt: string; resumesAt: string};
  /** The limit is over (the lock taken again): how long the job waited. */
  'limit-over': {pane: string; waitedMs: number};
  /** The resume line typed once a limit was over. */
  resumed: {pane: string; text: string; delivery: Delivery};
  notified: {pane: string; chars: number; delivery: Delivery; via: NoticeVia};
  /** A door tried for the notice (src/doors/): what it did, and why not when it did not. */
  door: DoorAttempt & {pane: string};
  'hook-mark': {pane: string; source: HookKind; atMs: number; work?: string[]};
  /** The agent's turn ended with work it started still running (a background shell, a
   * sub-agent): the job waits on, and says why. */
  working: {pane: string; what: string};
  /** A hook claimed the pane (`$TMUX_PANE`) and could not prove it: no mark, the wait goes on. */
  'hook-mark-refused': {pane: string; source: string; why: string; atMs: number};
  transport: {kind: string; session?: string; reason?: string};
  /** /proc cannot say whether the foreground waits for input: liveness as before. */
  'input-state-unknown': {pane: string; why: string};
  /** The notice is due in a pane of another host: a relay types it there. */
  'notice-due': {to: string; chars: number};
  /** The notice was not typed: another program holds the pane and it would answer it. */
  'notice-held': {pane: string; why: string};
  'transport-lost': {detail: string};
  /** After a `blocked` ending: the person answered the dialog; the pane's state was cleared. */
  unblocked: {pane: string; waitedMs: number};
  /** What was sent is at work: the agent showed itself busy after it, or a shell took the
   * line (`by` says which). */
  'turn-started': {pane: string; by: string};
  /** The message climbed a rung of its receipts (src/jobs/receipts.ts). */
  receipt: Omit<Receipt, 'at'>;
}

/** What each state change records with it (`queued` is written when the job is created). */
export interface JobTransitions {
  locked: {notifyPane?: string};
  typing: {profile: string; profileReason: string; program: string; chars: number; until: string};
  waiting: {until: string; intervalMs: number};
  notifying: {pane: string};
}

/** The states a job moves through before it ends. */
export type RunningState = keyof JobTransitions;
/** Its record's states are these (src/jobs/states.ts): a transition left out there fails here. */
export const SUBMIT_STATES_ARE_TRANSITIONS: SameMembers<
  RunningState | 'queued',
  Exclude<SubmitState, TerminalState>
> = true;

/** How a job ended: its terminal state and what its record keeps. */
export type JobOutcome = JobEnding & {state: TerminalState; notified: boolean};

/** One line of events.jsonl. */
export interface JobEvent {
  t: string;
  event: string;
  [key: string]: unknown;
}
