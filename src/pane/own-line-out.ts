import type {Profile} from '../agents/profile.js';
import {type DeliverOptions, deliver} from './deliver.js';
import {type Delivery, PaneFailure} from './failures.js';
import type {PaneIo} from './keys.js';
import {ownLineWay} from './shell-line.js';

/** How a line of nudge's own went out: typed (as it is, or as a shell comment), or shown as a
 * tmux message (`shown`) where a shell would have run it. */
export interface OwnLineSent {
  delivery: Delivery;
  via: 'keys' | 'comment' | 'message';
  /** Why it was shown rather than typed. */
  why?: string;
}

/** How long a line of nudge's own waits for a shell's prompt to come back (a command ending,
 * a draft cleared) before it is shown as a message instead, and how often it looks. */
export const PROMPT_GRACE_MS = 5_000;
const PROMPT_LOOK_MS = 250;

/**
 * Send one line of nudge's own (a notice, a stall's continue line, a watcher's line) to
 * `pane` as ownLineWay says, under the pane's lock (`io.guard`): a shell never runs it as a
 * command. Where the shell may take it within moments (a command in its foreground, no prompt
 * yet), it looks again for up to PROMPT_GRACE_MS first. The message goes to the pane's `@nudge`
 * option and every attached client's status line (Tmux.announce). Throws what deliver throws
 * (NotDelivered, PaneFailure).
 */
export async function sendOwnLine(
  io: PaneIo,
  pane: string,
  line: string,
  profile: Profile,
  options: DeliverOptions,
  signal: AbortSignal,
): Promise<OwnLineSent> {
  const wayNow = async () => {
    const info = await io.tmux.describePane(pane);
    if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing was typed.`);
    return ownLineWay(info, profile, await io.tmux.view(pane, 0), line);
  };
  let way = await wayNow();
  if (way.how === 'message' && way.passing) {
    // A wait often ends on the line a command prints as it ends (`--until regex:`), a moment
    // before the shell's prompt is back: wait that moment, so the line lands as a comment in
    // the scrollback rather than a message gone after display-time.
    await io.note('own-line-awaits-prompt', {pane, why: way.why});
    const until = io.clock.now() + PROMPT_GRACE_MS;
    while (way.how === 'message' && way.passing && io.clock.now() < until) {
      await io.clock.sleep(PROMPT_LOOK_MS, signal);
      way = await wayNow();
    }
  }
  if (way.how === 'message') {
    io.guard();
    await io.tmux.announce(pane, line);
    await io.note('own-line-shown', {pane, why: way.why});
    return {delivery: 'shown', via: 'message', why: way.why};
  }
  const typed = way.line;
  const sent = await deliver(io, pane, typed, profile, options, signal);
  return {delivery: sent.delivery, via: way.how};
}
