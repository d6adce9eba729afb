import type {Clock} from '../base/clock.js';
import {appendCapped, type TranscriptRole, type WatcherRecord} from './record.js';
import type {WatcherChange} from './store.js';

/**
 * The changes a cycle makes to its watcher's record besides its transcript: pausing it, and
 * counting the lines its assessor typed against `--max-injections`.
 */
/** The watcher's record, as a cycle reads and changes it. */
export interface WatcherRecords {
  update<T>(
    name: string,
    change: (
      record: WatcherRecord | undefined,
    ) => {record: WatcherChange; result: T} | Promise<{record: WatcherChange; result: T}>,
  ): Promise<T>;
}

type PauseDeps = {records: WatcherRecords; clock: Clock};
/** Pause the watcher with `reason` (an `error` entry unless the assessor said stop). Queued
 * reports are dropped (they are in the transcript): a paused watcher runs no cycle. */
export async function pause(deps: PauseDeps, name: string, reason: string): Promise<boolean> {
  const stop = reason === 'The assessor said stop.';
  return deps.records.update(name, (r) => {
    if (!r) return {record: 'keep', result: false};
    // Paused already (`watch pause` stopped this cycle): its reason stands.
    if (r.state === 'paused') return {record: 'keep', result: true};
    let transcript = r.transcript;
    const add = (role: TranscriptRole, text: string) => {
      transcript = appendCapped(
        transcript,
        {t: iso(deps.clock), role, text},
        r.options.transcriptCap,
      );
    };
    if (!stop) add('error', reason);
    if (r.pending.length > 0)
      add(
        'error',
        `${r.pending.length} queued report(s) not assessed: the watcher paused. Start it again to resume.`,
      );
    return {
      record: {
        ...r,
        state: 'paused',
        pausedReason: reason,
        pending: [],
        transcript,
        updatedAt: iso(deps.clock),
      },
      result: true,
    };
  });
}

/** One more line typed by the assessor (`--max-injections` counts them). */
export async function countInjection(records: WatcherRecords, name: string): Promise<void> {
  await records.update(name, (r) =>
    r
      ? {record: {...r, injections: (r.injections ?? 0) + 1}, result: undefined}
      : {record: 'keep', result: undefined},
  );
}

/** Why `line` may not be typed: the watcher typed its `--max-injections` lines since it was
 * started (undefined: it may). */
export function injectionBound(record: WatcherRecord, line: string): string | undefined {
  const max = record.options.maxInjections;
  if (max == null || (record.injections ?? 0) < max) return undefined;
  return `The watcher typed its ${max} line(s) (--max-injections ${max}) and the work is still not done; it paused, and "${line}" was not typed. Start it again (nudge watch start ${record.name}) to allow more.`;
}

function iso(clock: Clock): string {
  return new Date(clock.wall()).toISOString();
}
