import type {Profile} from '../agents/profile.js';
import {ownLineText} from '../base/sanitize.js';
import {type DeliverOptions, deliver} from './deliver.js';
import {type Delivery, NotDelivered, PaneFailure} from './failures.js';
import {lineEnded} from './half-line.js';
import {clearLine, countingTyped, type PaneIo} from './keys.js';
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
  // One rule for every line of nudge's own: no escape sequence, C0, C1 or DEL (twenty DELs
  // would erase the `# ` of the comment it becomes at a shell prompt), a tab or a line break a
  // space.
  const own = ownLineText(line);
  const wayNow = async () => {
    const info = await io.tmux.describePane(pane);
    if (!info) throw new PaneFailure(`Pane ${pane} is gone; nothing was typed.`);
    return ownLineWay(info, profile, await io.tmux.view(pane, 0), own);
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
    await io.tmux.announce(pane, own);
    await io.note('own-line-shown', {pane, why: way.why});
    return {delivery: 'shown', via: 'message', why: way.why};
  }
  const counted = countingTyped(options);
  try {
    const sent = await deliver(io, pane, way.line, profile, counted, signal);
    return {delivery: sent.delivery, via: way.how};
  } catch (error) {
    if (!(error instanceof PaneFailure) || counted.count() <= 0) throw error;
    throw await takenBack(io, pane, options.owner, profile, error, signal);
  }
}

/**
 * A line of nudge's own whose read-back failed is never left on the input line, where the next
 * Enter would run it (issue 61: a program that rewrote it left `touch …` on a shell's prompt):
 * the line is cleared with the profile's keys (what a person typed into it at that moment goes
 * with it) and the failure says so. Where the lock is lost meanwhile, nothing is pressed and
 * the failure is as it was.
 */
async function takenBack(
  io: PaneIo,
  pane: string,
  owner: string,
  profile: Profile,
  error: PaneFailure,
  signal: AbortSignal,
): Promise<PaneFailure> {
  try {
    await clearLine(io, pane, profile, signal, true);
    await lineEnded(io, pane, owner, 0, 'failed');
  } catch {
    return error;
  }
  await io.note('own-line-taken-back', {pane});
  const said = error.message.includes(LEFT)
    ? error.message.replace(LEFT, TAKEN)
    : `${error.message} ${TAKEN[0]?.toUpperCase()}${TAKEN.slice(1)}.`;
  return error instanceof NotDelivered
    ? new NotDelivered(said, error.delivery)
    : new PaneFailure(said);
}

const LEFT = 'the line was left as it is';
const TAKEN = "what nudge typed was taken back off the pane's input line";
