import type {StalledMark} from '../jobs/stalled.js';
import type {WatcherInput} from './options.js';
import type {TranscriptEntry, WatcherOptions, WatcherState} from './record.js';

// What `nudge watch …` takes and answers (src/verbs/watch.ts), for the front ends.

/** Options of `nudge watch start NAME`: the watcher's input, and where its pane is. */
export interface WatchStartOptions extends WatcherInput {
  name: string;
  pane?: string | undefined;
  socketName?: string | undefined;
  socketPath?: string | undefined;
}

/** A watcher as the commands show it: its record, and whether a cycle runs now. */
export interface WatcherView {
  name: string;
  state: WatcherState;
  pane: string;
  paneTarget: string;
  socketPath: string;
  plan: string;
  assessor: string;
  options: WatcherOptions;
  pausedReason?: string | undefined;
  pending: number;
  /** The cycle worker's pid while one runs. */
  cycle?: number | undefined;
  /** Set when the record names a cycle worker that is gone without finishing (killed, the
   * machine restarted): the report it worked on is lost; the next report starts a new one. */
  lostCycle?: string | undefined;
  /** A stall going on in its idle step (`--stall`). */
  stalled?: StalledMark | undefined;
  /** Lines the assessor typed since the watcher was (re)started (`--max-injections`). */
  injections: number;
  createdAt: string;
  updatedAt: string;
  transcript: TranscriptEntry[];
}

/** What `watch start` did: `watching` (new) or `updated` (plan or options changed). */
export interface WatchStartResult {
  result: 'watching' | 'updated';
  watcher: WatcherView;
}

/** What `watch report` did: the report is recorded, and a cycle runs for it (or the watcher
 * is paused and no cycle runs). */
export interface WatchReportResult {
  result: 'recorded+waiting' | 'recorded+paused';
  name: string;
  /** Reports ahead of this one: the one a running cycle works on, and those queued before. */
  ahead: number;
  cycle?: number | undefined;
}

/** What `watch pause` did, and the assessor's suggested next step for a person (never
 * injected). */
export interface WatchPauseResult {
  result: 'paused';
  name: string;
  /** The next step the assessor suggests, or null when it says the plan is done. */
  suggestion: string | null;
  /** Why there is no suggestion, when the assessor failed. */
  error?: string | undefined;
}

/** What `watch clear` did. */
export interface WatchClearResult {
  result: 'cleared';
  name: string;
  /** Whether a running cycle was stopped. */
  stoppedCycle: boolean;
}

/** `watch list`. */
export interface WatchListResult {
  watchers: Array<Omit<WatcherView, 'transcript' | 'plan'> & {plan: string}>;
}
