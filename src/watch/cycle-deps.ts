import type {Clock} from '../base/clock.js';
import type {StallPolicy} from '../detect/stall.js';
import type {Tell} from '../notify/tell.js';
import type {PaneIdleResult} from '../pane/wait-idle.js';
import type {CommandRun} from '../process/run-command.js';
import type {Assessor} from './assessor.js';
import {WATCHER_OPTION_DEFAULTS} from './options.js';
import {
  appendCapped,
  type TranscriptRole,
  type WatcherRecord,
  type WatcherState,
} from './record.js';
import type {WatcherRecords} from './record-changes.js';

/**
 * What a watcher's cycle needs (every member required), and how it reads and writes the
 * watcher's record.
 */

/** What a cycle does to the pane. Every member is required (tests pass a fake pane). */
export interface CyclePane {
  /** Whether the pane is still there (the same server). */
  exists(): Promise<boolean>;
  /** Block until the pane has been idle for `thresholdMs` (the verdicts of `nudge wait`),
   * with the stall watchdog over the wait when the watcher has one (`stall`: it records and
   * tells of a stall; `--on-stall cancel` ends the wait, `stalled` set). */
  waitIdle(
    thresholdMs: number,
    timeoutMs: number,
    stall: StallPolicy | null,
    signal: AbortSignal,
  ): Promise<PaneIdleResult>;
  /** The last lines of the pane's screen. */
  tail(): Promise<string>;
  /** Type the line and confirm it (holding the pane's lock only meanwhile): the delivery. */
  inject(line: string, enter: boolean, signal: AbortSignal): Promise<string>;
}

/** What a cycle needs: every member required. */
export interface CycleDeps {
  records: WatcherRecords;
  clock: Clock;
  pane: CyclePane;
  /** The assessor the record names (read again for each assessment: `watch start` may
   * change it between cycles). */
  assessorFor: (record: WatcherRecord) => Assessor;
  /** Run `--bash-wait` (under the user's `$SHELL -lc` in `cwd`, output merged, bounded). */
  runWait: (
    command: string,
    cwd: string | undefined,
    timeoutMs: number,
    signal: AbortSignal,
  ) => Promise<CommandRun>;
  /** This process: a cycle takes reports only while the record names it. */
  pid: number;
  /** Tell the person of a change (the watcher's `--notify` sinks; none: a no-op). */
  tell: Tell;
}

export async function paneGone(deps: CycleDeps, name: string): Promise<string> {
  const r = await read(deps, name);
  return `Pane ${r?.pane ?? '?'} is gone; the watcher paused.`;
}

/** Append transcript entries (and move to `state`); false when the watcher was removed. */
export function record(
  deps: CycleDeps,
  name: string,
  state: WatcherState | undefined,
  entries: Array<[TranscriptRole, string]>,
): Promise<boolean> {
  return deps.records.update(name, (r) => {
    if (!r) return {record: 'keep', result: false};
    const t = iso(deps.clock);
    let transcript = r.transcript;
    for (const [role, text] of entries)
      transcript = appendCapped(transcript, {t, role, text}, r.options.transcriptCap);
    return {
      record: {...r, ...(state ? {state} : {}), transcript, updatedAt: t},
      result: true,
    };
  });
}

export function read(
  deps: Pick<CycleDeps, 'records'>,
  name: string,
): Promise<WatcherRecord | undefined> {
  return deps.records.update(name, (r) => ({record: 'keep', result: r}));
}

export async function optionsOf(
  deps: CycleDeps,
  name: string,
): Promise<WatcherRecord['options'] | undefined> {
  const options = (await read(deps, name))?.options;
  // A watcher started by an older nudge has no limit or sink options: the defaults.
  return options && {...WATCHER_OPTION_DEFAULTS, ...options};
}

export async function enterOf(deps: CycleDeps, name: string): Promise<boolean> {
  return (await read(deps, name))?.options.enter ?? true;
}

export function iso(clock: Clock): string {
  return new Date(clock.wall()).toISOString();
}

/** The last `max` characters of `text`. */
export function tailChars(text: string, max: number): string {
  return text.length <= max ? text : text.slice(text.length - max);
}
