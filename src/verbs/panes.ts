import {describeError, NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {
  needingYou,
  PANE_OPTIONS,
  refreshStatusOption,
  type ShownPane,
  type StatusLine,
  shownPanes,
  summarize,
  WAITS_ON_PERSON,
} from '../status-bar/pane-states.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {NEXT_OPTIONS, STATUS_LINE_OPTIONS} from './options/panes.js';

export type StatusLineOptions = OptionsOf<typeof STATUS_LINE_OPTIONS>;
export type NextOptions = OptionsOf<typeof NEXT_OPTIONS>;

export type {ShownPane, StatusLine};

/** What `nudge next` did. */
export interface NextResult {
  /** The pane gone to, or undefined when nothing needs the person. */
  pane?: ShownPane | undefined;
  /** How many others need the person after it. */
  more: number;
  /** What happened, in one sentence. */
  said: string;
  /** The client it was said to on its status line (`--client`, as a key binding gives it):
   * nothing is printed that would stay on the screen. */
  toldClient?: string | undefined;
}

/** `nudge status-line`: the server's panes by nudge state, read from the pane options the
 * workers keep (one tmux call). */
export async function statusLine(o: StatusLineOptions, ctx: CommandContext): Promise<StatusLine> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  return summarize(await ctx.tmux(spec).paneStates());
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
  // Where the person is: the pane of the client that pressed the key (run-shell sets no
  // $TMUX_PANE), else the pane this runs in.
  const at = o.client ? await tmux.clientPane(o.client) : ctx.env.TMUX_PANE;
  if (o.client && !at) {
    throw new NudgeError(
      'no-client',
      `No tmux client named ${o.client} is attached to this server: give one of tmux list-clients' names, or leave out --client.`,
    );
  }
  const here = waiting.findIndex((p) => p.pane === at);
  const next = waiting[here + 1] ?? waiting.find((p) => p.pane !== at);
  const tell = async (r: Omit<NextResult, 'said'>): Promise<NextResult> => {
    const said = nextSentence(r);
    if (!o.client) return {...r, said};
    // A client gone since: the sentence is printed instead.
    const told = await tmux.tellClient(o.client, said).then(
      () => true,
      () => false,
    );
    return told ? {...r, said, toldClient: o.client} : {...r, said};
  };
  if (!next) return tell({more: 0});
  try {
    await tmux.jumpToPane(next.pane, o.client);
  } catch (error) {
    throw new NudgeError(
      'no-client',
      `No tmux client could be moved to ${next.pane} (${describeError(error)}): run it inside tmux, or give --client.`,
    );
  }
  // A pane that waits (blocked, stalled, for you) keeps its state; an ending counts as seen.
  if (!WAITS_ON_PERSON.includes(next.state)) {
    await tmux.markPane(next.pane, PANE_OPTIONS.state, undefined);
    await tmux.markPane(next.pane, PANE_OPTIONS.job, undefined);
    await refreshStatusOption(tmux);
  }
  return tell({pane: next, more: waiting.filter((p) => p.pane !== next.pane).length});
}

/** `next`'s one sentence: where it went and how many more need the person. */
function nextSentence(r: Omit<NextResult, 'said'>): string {
  if (!r.pane) return 'Nothing needs you.';
  const why = r.pane.needs ? ` (${r.pane.needs})` : '';
  const more = r.more > 0 ? `; ${r.more} more need you` : '';
  return `${r.pane.pane} ${r.pane.target}: ${r.pane.state}${why}${more}.`;
}
