import {describeError, NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {NEEDS_PERSON, PANE_OPTIONS, PANE_STATES, type PaneState} from '../jobs/pane-status.js';
import type {PaneStateRow} from '../tmux/pane-options.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {NEXT_OPTIONS, STATUS_LINE_OPTIONS} from './options/panes.js';

export type StatusLineOptions = OptionsOf<typeof STATUS_LINE_OPTIONS>;
export type NextOptions = OptionsOf<typeof NEXT_OPTIONS>;

/** A pane as the status commands see it. */
export interface ShownPane {
  pane: string;
  target: string;
  state: PaneState;
  job: string;
  queued: number;
  needs?: string | undefined;
}

/** What `nudge status-line` found on the server: the panes that need the person (most urgent
 * first), the ones at work, and the jobs waiting. */
export interface StatusLine {
  needsYou: ShownPane[];
  atWork: ShownPane[];
  queued: number;
  counts: Record<PaneState, number>;
}

/** What `nudge next` did. */
export interface NextResult {
  /** The pane gone to, or undefined when nothing needs the person. */
  pane?: ShownPane | undefined;
  /** How many others need the person after it. */
  more: number;
}

const isPaneState = (s: string): s is PaneState => (PANE_STATES as readonly string[]).includes(s);

/** The panes nudge marked, in the server's order. */
function shownPanes(rows: readonly PaneStateRow[]): ShownPane[] {
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

/** The panes that need the person: blocked, then failed, then done (each in server order). */
function needingYou(panes: readonly ShownPane[]): ShownPane[] {
  return NEEDS_PERSON.flatMap((state) => panes.filter((p) => p.state === state));
}

/** `nudge status-line`: the server's panes by nudge state, read from the pane options the
 * workers keep (one tmux call). */
export async function statusLine(o: StatusLineOptions, ctx: CommandContext): Promise<StatusLine> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const rows = await ctx.tmux(spec).paneStates();
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

/**
 * `nudge next`: bring the client to the next pane that needs the person (after the one it is
 * on, in the order status-line lists them). A pane whose job is done or failed counts as seen
 * once visited: its state is cleared; a blocked one keeps it while its dialog waits.
 */
export async function nextPane(o: NextOptions, ctx: CommandContext): Promise<NextResult> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const tmux = ctx.tmux(spec);
  const waiting = needingYou(shownPanes(await tmux.paneStates()));
  const here = waiting.findIndex((p) => p.pane === ctx.env.TMUX_PANE);
  const next = waiting[here + 1] ?? waiting.find((p) => p.pane !== ctx.env.TMUX_PANE);
  if (!next) return {more: 0};
  try {
    await tmux.jumpToPane(next.pane, o.client);
  } catch (error) {
    throw new NudgeError(
      'no-client',
      `No tmux client could be moved to ${next.pane} (${describeError(error)}): run it inside tmux, or give --client.`,
    );
  }
  // A pane that waits (blocked, stalled, for you) keeps its state; an ending counts as seen.
  if (!['blocked', 'stalled', 'waiting-for-you'].includes(next.state)) {
    await tmux.markPane(next.pane, PANE_OPTIONS.state, undefined);
    await tmux.markPane(next.pane, PANE_OPTIONS.job, undefined);
  }
  return {pane: next, more: waiting.filter((p) => p.pane !== next.pane).length};
}
