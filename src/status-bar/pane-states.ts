import {formatText, plainLine} from '../base/sanitize.js';
import type {PaneStateRow} from '../tmux/pane-options.js';
import type {Tmux} from '../tmux/tmux.js';
import {stateStyle} from './state-colours.js';

/**
 * The server's summary of nudge's panes — the panes that need the person first, then how many
 * are at work and how many jobs wait — as `nudge status-line` prints it and as the workers keep
 * it in the server option `@nudge-status`, so tmux's status bar shows `#{@nudge-status}` with
 * no process per refresh (docs/tmux-status.md).
 */

/**
 * A pane's state where tmux can show it (`#{@nudge-state}` in status-format,
 * window-status-format, pane-border-format: docs/tmux-status.md). The workers keep four pane
 * options current on the pane a job types into:
 *
 *   @nudge-state  typing | waiting | stalled | notifying | blocked | waiting-for-you |
 *                 done | failed | timeout | lost (an ending in the job's own word)
 *   @nudge-job    the job at work on the pane (or the one that ended last)
 *   @nudge-queue  how many jobs wait behind it (unset: none)
 *   @nudge-needs  the question of the dialog a blocked pane waits on (short), or what a
 *                 stalled one shows (`no output`, `only a spinner moves`)
 *
 * An ending (done, failed, timeout, lost, blocked) stays until the pane's next job starts or the person
 * visits the pane (`nudge next`); a cancelled job's clears them; with no job left on the
 * pane, @nudge-job and @nudge-queue are cleared.
 */
export const PANE_OPTIONS = {
  state: '@nudge-state',
  job: '@nudge-job',
  queue: '@nudge-queue',
  needs: '@nudge-needs',
} as const;

export const PANE_STATES = [
  'typing',
  'waiting',
  'stalled',
  'notifying',
  'blocked',
  /** The job waits for the person before it types: their draft, or a half line left there. */
  'waiting-for-you',
  'done',
  'failed',
  'timeout',
  /** Its tmux server went away under it (shown where the same server runs again). */
  'lost',
] as const;
export type PaneState = (typeof PANE_STATES)[number];

/** The states that need the person, most urgent first (`nudge next`, `status-line`). */
export const NEEDS_PERSON: readonly PaneState[] = [
  'blocked',
  'waiting-for-you',
  'stalled',
  'failed',
  'timeout',
  'lost',
  'done',
];

/** The states in which a pane waits on the person rather than shows an ending: bold in the
 * status bar, and kept when `nudge next` goes there (an ending counts as seen). */
export const WAITS_ON_PERSON: readonly PaneState[] = ['blocked', 'waiting-for-you', 'stalled'];

/** The server option the workers keep the segment in. */
export const STATUS_OPTION = '@nudge-status';

/** A pane as the status commands see it. */
export interface ShownPane {
  pane: string;
  target: string;
  state: PaneState;
  job: string;
  queued: number;
  needs?: string | undefined;
}

/** What is on the server: the panes that need the person (most urgent first), the ones at
 * work, and the jobs waiting. */
export interface StatusLine {
  needsYou: ShownPane[];
  atWork: ShownPane[];
  queued: number;
  counts: Record<PaneState, number>;
}

/** How many panes that need the person the segment names before "+N". */
const NAMED = 3;

const isPaneState = (s: string): s is PaneState => (PANE_STATES as readonly string[]).includes(s);

/** The panes nudge marked, in the server's order. */
export function shownPanes(rows: readonly PaneStateRow[]): ShownPane[] {
  const panes: ShownPane[] = [];
  for (const r of rows) {
    if (!isPaneState(r.state)) continue;
    panes.push({
      pane: r.paneId,
      target: r.target,
      state: r.state,
      job: r.job,
      queued: Number.parseInt(r.queue, 10) || 0,
      ...(r.needs ? {needs: r.needs} : {}),
    });
  }
  return panes;
}

/** The panes that need the person: blocked, then failed (timed out, lost), then done (each in
 * server order). */
export function needingYou(panes: readonly ShownPane[]): ShownPane[] {
  return NEEDS_PERSON.flatMap((state) => panes.filter((p) => p.state === state));
}

/** The summary of the server's panes, from the pane options the workers keep. */
export function summarize(rows: readonly PaneStateRow[]): StatusLine {
  const panes = shownPanes(rows);
  const counts = Object.fromEntries(PANE_STATES.map((s) => [s, 0])) as Record<PaneState, number>;
  for (const p of panes) counts[p.state]++;
  return {
    needsYou: needingYou(panes),
    atWork: panes.filter((p) => !NEEDS_PERSON.includes(p.state)),
    // Every queued job counts, on whichever pane it waits.
    queued: rows.reduce((n, r) => n + (Number.parseInt(r.queue, 10) || 0), 0),
    counts,
  };
}

/** The one line for tmux's status bar (`#[…]` styles), or `plain` for anywhere else. Empty
 * when nudge has nothing on the server, so the bar shows nothing. */
export function statusSegment(r: StatusLine, plain: boolean): string {
  // What a pane shows is the pane's (anyone in it may set its options, or name its session):
  // never a style or a command of tmux's.
  const styled = (style: string | undefined, text: string) =>
    plain ? plainLine(text) : style ? `#[${style}]${formatText(text)}#[default]` : formatText(text);
  const named = r.needsYou
    .slice(0, NAMED)
    .map((p) =>
      styled(stateStyle(p.state, WAITS_ON_PERSON.includes(p.state)), `${p.state} ${p.target}`),
    );
  if (r.needsYou.length > NAMED) named.push(`+${r.needsYou.length - NAMED}`);
  const parts = [...named];
  if (r.atWork.length > 0) parts.push(`${r.atWork.length} working`);
  if (r.queued > 0) parts.push(`${r.queued} queued`);
  return parts.join(' · ');
}

/** How many times the option is written before it is left as it is: each write is checked
 * against a fresh look at the panes, so one that raced another's is put right. */
const TRIES = 3;

/**
 * Set `@nudge-status` to the server's segment now. Several workers write it, each after it
 * marked its pane: a writer looks again after its write and writes again if the panes moved
 * meanwhile, so the last look wins and a write from an older look does not stay. A pane or a
 * server gone never fails the job: the bar is best-effort.
 */
export async function refreshStatusOption(
  tmux: Pick<Tmux, 'paneStates' | 'markServer'>,
): Promise<void> {
  try {
    let want = statusSegment(summarize(await tmux.paneStates()), false);
    for (let i = 0; i < TRIES; i++) {
      await tmux.markServer(STATUS_OPTION, want === '' ? undefined : want);
      const now = statusSegment(summarize(await tmux.paneStates()), false);
      if (now === want) return;
      want = now;
    }
  } catch {
    // The server or its panes are gone: nothing to show.
  }
}
