import {formatDuration} from '../base/durations.js';
import type {StallKind} from '../detect/stall.js';
import type {Delivery} from '../pane/failures.js';
import {isTerminal} from './states.js';

/** What a job or run keeps in its record while a stall goes on (cleared once it is over). */
export interface StalledMark {
  kind: StallKind;
  /** When nothing changed last (ISO). */
  since: string;
  /** Which stall of its wait, from 1. */
  count: number;
}

/** What a stalled pane shows, in two or three words. */
export function stallShown(kind: StallKind): string {
  return kind === 'quiet' ? 'no output' : 'only a spinner moves';
}

/** A stall mark in words, for listings: `stalled 5m (no output)`. */
export function describeStalled(mark: StalledMark, nowMs: number): string {
  const lasted = formatDuration(Math.max(0, nowMs - Date.parse(mark.since)));
  return `stalled ${lasted} (${stallShown(mark.kind)})`;
}

/** A job's state in the words every listing uses: `waiting-for-program sleep` while it holds
 * the pane behind a program its shell runs, `typing 548 of 65536` while a long text goes out,
 * `blocked` while a dialog it met is up (the job goes on once it is answered), its state
 * otherwise. */
export function stateWords(j: {
  state: string;
  behindProgram?: string | undefined;
  blocked?: unknown;
  typed?: number | undefined;
  chars?: number | undefined;
}): string {
  if (j.state === 'locked' && j.behindProgram) return `waiting-for-program ${j.behindProgram}`;
  // A long text on its way: how far it got (`typing 548 of 65536`).
  if (j.state === 'typing' && j.typed !== undefined && j.chars !== undefined)
    return `typing ${j.typed} of ${j.chars}`;
  return j.blocked && !isTerminal(j.state) ? 'blocked' : j.state;
}

/** A job's `working` mark (`working: 1 background shell (sleep 20)`) in a few words, for a
 * column or the status bar: `1 background shell`. */
export function workingShown(working: string): string {
  return working.replace(/^working: /, '').replace(/ \(.*$|: .*$/, '');
}

/** What the watchdog's events carry (a job's and a run's events.jsonl). */
export interface StallEvents {
  /** A stall began: what it is, and what was done about it (`continue`: the line typed;
   * `notify`: told; `cancel`: the wait ends). */
  stalled: {
    pane: string;
    kind: StallKind;
    quietMs: number;
    count: number;
    action: 'continue' | 'notify' | 'cancel';
    why?: string;
  };
  /** `--on-stall continue` typed its line (the `n`th of at most `max`). */
  continued: {pane: string; text: string; n: number; max: number; delivery: Delivery};
  /** The pane moved again. */
  'stall-over': {pane: string; lastedMs: number};
}
