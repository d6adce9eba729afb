/**
 * The loop cap (issue 66): two agents that ask each other — A's turn sends to B, B's turn
 * sends back to A — can wake each other forever. The messages between two panes (both ways,
 * each job's sender the pane its process tree proved) are counted over a window; once they
 * reach the cap, and each pane has sent to the other, the next is refused in one sentence that
 * names the loop. One way only (an agent driving its build pane) is never a loop.
 */
import {type ConfigEnv, configTable} from '../base/config.js';
import {formatDuration, parseDuration} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {jobIdTime} from '../base/paths.js';
import type {JobRecord} from '../jobs/record.js';

/** At most this many messages between two panes, both ways, within the window. */
export const LOOP_DEFAULTS = {max: 10, windowMs: 10 * 60_000};

/** The cap as config.toml's `[loops]` sets it (`max`, `window`), else the defaults; a bad
 * value is one sentence naming the file (exit 2). */
export function loopCapOf(env: ConfigEnv): {max: number; windowMs: number} {
  const found = configTable(env, 'loops');
  if (!found) return LOOP_DEFAULTS;
  const {max = LOOP_DEFAULTS.max, window} = found.table;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 2 || max > 10_000)
    throw new NudgeError(
      'bad-config',
      `${found.file}: [loops] max must be a whole number from 2 to 10000 (messages between two panes within the window).`,
    );
  if (window !== undefined && typeof window !== 'string')
    throw new NudgeError(
      'bad-config',
      `${found.file}: [loops] window must be a duration, e.g. "10m".`,
    );
  const windowMs =
    window === undefined ? LOOP_DEFAULTS.windowMs : parseDuration(window, '[loops] window');
  return {max, windowMs};
}

/** A pane on a tmux server: who sent, or where it went. */
export interface PaneAt {
  socketPath: string;
  pane: string;
}

/** The ids of the jobs made within `windowMs` before `nowMs`: only their records are read. */
export function recentIds(ids: readonly string[], nowMs: number, windowMs: number): string[] {
  return ids.filter((id) => jobIdTime(id) >= nowMs - windowMs);
}

/**
 * Refuse (NudgeError `loop`, exit 1) a message from `from` to `to` when the two have sent each
 * other `cap.max` messages within the window, each at least one: `records` are the recent
 * jobs (recentIds). A message to one's own pane, or with no proven sender, is not counted.
 */
export function refuseLoop(
  records: readonly Pick<JobRecord, 'pane' | 'socketPath' | 'submittedFrom'>[],
  from: PaneAt,
  to: PaneAt,
  cap: {max: number; windowMs: number},
): void {
  if (from.socketPath !== to.socketPath || from.pane === to.pane) return;
  const between = (r: (typeof records)[number], a: PaneAt, b: PaneAt) =>
    r.submittedFrom?.pane === a.pane &&
    r.submittedFrom.socketPath === a.socketPath &&
    r.pane === b.pane &&
    r.socketPath === b.socketPath;
  const there = records.filter((r) => between(r, from, to)).length;
  const back = records.filter((r) => between(r, to, from)).length;
  if (there === 0 || back === 0 || there + back < cap.max) return;
  throw new NudgeError(
    'loop',
    `Panes ${from.pane} and ${to.pane} sent each other ${there + back} messages in the last ${formatDuration(cap.windowMs)} (${there} from ${from.pane}, ${back} from ${to.pane}): a loop, so nothing was sent; it opens again as the window passes ([loops] max in config.toml, now ${cap.max}, raises the cap).`,
  );
}
