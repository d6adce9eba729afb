import {NudgeError} from '../base/errors.js';
import {versionOneRecord} from '../base/shape.js';
import type {StallPolicy} from '../detect/stall.js';
import type {OnLimit} from '../job-options/policies.js';
import type {StalledMark} from '../jobs/stalled.js';

/**
 * A watcher ("mom"): a named plan for one pane. Each time the agent in the pane reports, a
 * cycle waits (a bash command or a sleep), lets the pane go idle, asks an assessor whether the
 * plan is done, and either pauses or injects the next single line.
 *
 *   active ──report──▶ wait ─▶ idle_spin ─▶ assess ─▶ standby  (a line was injected)
 *                                                  └─▶ paused   (stop, or an error)
 *   standby ──report──▶ wait …      paused: reports are recorded, no cycle runs
 *
 * The record (state, options, the queue of reports, the transcript) is one JSON file under
 * the state dir, replaced atomically under a lock: no process stays alive between reports.
 */
export const WATCHER_STATES = [
  'active',
  'wait',
  'idle_spin',
  'assess',
  'standby',
  'paused',
] as const;
export type WatcherState = (typeof WATCHER_STATES)[number];

/** Transcript roles. */
export const TRANSCRIPT_ROLES = [
  'status',
  'wait',
  'wait_output',
  'idle_spin',
  'decision',
  'injection',
  'error',
] as const;
export type TranscriptRole = (typeof TRANSCRIPT_ROLES)[number];

/** One transcript entry. */
export interface TranscriptEntry {
  /** ISO time. */
  t: string;
  role: TranscriptRole;
  text: string;
}

/** Who decides what comes next: a command (prompt JSON on stdin, answer JSON on stdout), or
 * an OpenAI-compatible chat-completions endpoint. */
export type AssessorSpec =
  | {kind: 'cmd'; argv: string[]}
  | {kind: 'url'; url: string; model: string; keyEnv?: string | undefined};

/** A watcher's options, resolved. */
export interface WatcherOptions {
  /** IDLE_SPIN: the pane must be idle (the verdicts of `nudge wait`) for this long. */
  idleThresholdMs: number;
  /** IDLE_SPIN gives up (the watcher pauses) after this long. */
  idleTimeoutMs: number;
  /** WAIT without `--bash-wait`: sleep this long. */
  defaultWaitMs: number;
  /** WAIT with `--bash-wait`: the command is stopped after this long. */
  waitTimeoutMs: number;
  /** The assessor is given up on after this long. */
  assessTimeoutMs: number;
  /** Press Enter after the injected line (false: --no-enter, it is left in the input line). */
  enter: boolean;
  /** `--allow-commands`: type an assessor's line that starts with a shell-mode or command
   * prefix (`!`, `/`, `$`). Without it such a line pauses the watcher (docs/security.md).
   * Absent in a record written before it existed: false. */
  allowCommands?: boolean;
  /** Transcript entries kept (oldest dropped). */
  transcriptCap: number;
  /** Where a person is told when the watcher pauses (`--notify`). */
  notifySinks: string[];
  /** A usage limit at the idle step: pause (`stop`), or wait for its reset and type
   * `resumeText` (`wait`). */
  onLimit: OnLimit;
  limitMarginMs: number;
  resumeText: string;
  /** The stall watchdog over the idle step (`--stall`, `--on-stall notify|cancel`); absent
   * or null: off. */
  stall?: StallPolicy | null | undefined;
  /** The most lines the assessor may have typed since the watcher was (re)started
   * (`--max-injections`); after them the watcher pauses and tells. Absent or null: no bound. */
  maxInjections?: number | null | undefined;
}

/** A report waiting for its cycle. */
export interface PendingReport {
  at: string;
  status: string;
  bashWait?: string | undefined;
  /** Where `bashWait` runs: the reporter's working directory. */
  cwd?: string | undefined;
}

/** The cycle worker running now. */
export interface CycleProcess {
  pid: number;
  pidStart?: string | undefined;
  startedAt: string;
}

/** The watcher's record (watchers/<name>/watcher.json). */
export interface WatcherRecord {
  version: 1;
  name: string;
  state: WatcherState;
  pane: string;
  paneTarget: string;
  socketPath: string;
  serverPid: number;
  plan: string;
  assessor: AssessorSpec;
  options: WatcherOptions;
  createdAt: string;
  updatedAt: string;
  /** Why it paused (the assessor said stop, an error, `watch pause`). */
  pausedReason?: string | undefined;
  /** Reports not yet taken by a cycle, oldest first. */
  pending: PendingReport[];
  cycle?: CycleProcess | undefined;
  transcript: TranscriptEntry[];
  /** Lines typed since the watcher was (re)started (`--max-injections` counts them). */
  injections?: number | undefined;
  /** A stall going on in the idle step now (`--stall`). */
  stalled?: StalledMark | undefined;
}

/**
 * A watcher.json as read back, checked: a record of another version, or one that is not a
 * watcher's, is an error that names the file, never a shape taken on trust.
 */
export function checkWatcherRecord(value: unknown, path: string): WatcherRecord {
  const {r, bad} = versionOneRecord(value, path, 'a watcher record');
  if (typeof r.name !== 'string' || typeof r.pane !== 'string') throw bad('no name or pane');
  if (typeof r.socketPath !== 'string' || typeof r.serverPid !== 'number')
    throw bad('no tmux server');
  if (!Array.isArray(r.pending) || !Array.isArray(r.transcript))
    throw bad('no report queue or transcript');
  if (typeof r.options !== 'object' || r.options === null) throw bad('no options');
  if (!(WATCHER_STATES as readonly unknown[]).includes(r.state))
    throw bad(`state ${JSON.stringify(r.state)}`);
  return value as WatcherRecord;
}

/**
 * How many reports are ahead of one queued now, while a cycle runs: those queued before it,
 * and the one the cycle has in hand. A cycle just started has not taken its first report yet
 * (it is still in `pending`, the state not yet `wait`), so it is counted once either way.
 */
export function reportsAhead(r: Pick<WatcherRecord, 'state' | 'pending'>): number {
  const inHand = r.state === 'wait' || r.state === 'idle_spin' || r.state === 'assess';
  return r.pending.length + (inHand ? 1 : 0);
}

/** The longest line a watcher injects. */
export const MAX_INJECTION_CHARS = 160;
/** What the assessor sees of the transcript: the newest entries, each cut to this length. */
export const ASSESS_TAIL_ENTRIES = 30;
export const ASSESS_ENTRY_CHARS = 200;

/** Defaults of `nudge watch start` (the CLI shows them in --help). */
export const WATCH_DEFAULTS = {
  idleThreshold: '3s',
  idleTimeout: '10m',
  defaultWait: '10s',
  waitTimeout: '10m',
  assessTimeout: '60s',
  transcriptCap: 200,
} as const;

/** What a watcher's name looks like. */
export const WATCHER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A watcher's name, checked: it names a folder under the state dir. */
export function validateWatcherName(name: unknown): string {
  if (typeof name !== 'string' || !WATCHER_NAME.test(name)) {
    throw new NudgeError(
      'bad-usage',
      `${JSON.stringify(name)} is not a watcher name; use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return name;
}

/** `entries` with `entry` appended, the oldest dropped beyond `cap`. */
export function appendCapped(
  entries: readonly TranscriptEntry[],
  entry: TranscriptEntry,
  cap: number,
): TranscriptEntry[] {
  const next = [...entries, entry];
  return next.length > cap ? next.slice(next.length - cap) : next;
}

/** `text` on one line, at most `max` characters (an ellipsis marks a cut). */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s*\r?\n\s*/g, ' ⏎ ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

/** Age as `-HH:MM:SS`. */
function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  return `-${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
}

/** The transcript tail an assessor reads: newest first, `[-HH:MM:SS role] text`, the last
 * ASSESS_TAIL_ENTRIES entries, each at most ASSESS_ENTRY_CHARS characters. */
export function transcriptTail(entries: readonly TranscriptEntry[], nowMs: number): string[] {
  return entries
    .slice(-ASSESS_TAIL_ENTRIES)
    .reverse()
    .map((e) => `[${age(nowMs - Date.parse(e.t))} ${e.role}] ${clip(e.text, ASSESS_ENTRY_CHARS)}`);
}
