import {
  type InputMode,
  isBusy,
  isStarting,
  type Profile,
  readComposerState,
} from '../agents/profile.js';
import {isAgent} from '../agents/registry.js';
import {formatDuration} from '../base/durations.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import {PaneFailure} from './failures.js';
import {clearLine, type PaneIo, pressGroups} from './keys.js';

/** How the input line may be made ready. */
export interface ComposerPolicy {
  /** Clear a line nudge cannot read (a shell's, an unknown program's): --clear. */
  clear: boolean;
  /** Clear a person's draft instead of waiting for it: --clear-draft. */
  clearDraft: boolean;
  /** How long to wait for a draft, a mode or an unreadable screen: --draft-wait. */
  draftWaitMs: number;
  /** The text about to be typed: found in the composer, it is an interrupted turn's own
   * prompt put back, not a person's draft. */
  ownText: string;
}

/** How many times the keys that leave an input mode, or clear the input line, are tried. */
const MAX_MODE_LEAVES = 3;
const MAX_CLEARS = 3;
/** How long the keys that leave an input mode are given to show their effect. */
const MODE_LEAVE_WAIT_MS = 2_000;
const MODE_LEAVE_POLL_MS = 100;
/** How often a draft is looked at again. */
const RECHECK_MS = 500;

/**
 * Make the input line ready for new text without destroying anything nudge cannot read:
 * - a person's draft is waited for (up to --draft-wait) to be sent or cleared, then the work
 *   fails having typed nothing; --clear-draft clears it instead;
 * - a prompt the agent put back after an interruption (this text) is cleared;
 * - an input mode (shell mode, bash mode) is left with the profile's keys, once the agent is
 *   not busy;
 * - an agent's screen that shows no input line nudge can read (a dialog, a menu) is waited
 *   for like a draft, never cleared blindly.
 * A shell's line that cannot be read, or a program nudge knows nothing about, is cleared
 * (unless --no-clear).
 */
export async function prepareComposer(
  io: PaneIo,
  pane: string,
  profile: Profile,
  policy: ComposerPolicy,
  signal: AbortSignal,
): Promise<void> {
  const {tmux, clock} = io;
  const deadline = clock.now() + policy.draftWaitMs;
  const announced = new Set<string>();
  const once = (event: string, say: () => Promise<void>) => {
    if (announced.has(event)) return Promise.resolve();
    announced.add(event);
    return say();
  };
  let leaves = 0;
  let clears = 0;
  for (;;) {
    const view = await tmux.view(pane, 0);
    const state = readComposerState(profile, view);
    const busy = isBusy(profile, view);
    let waitingFor: string;
    if (isStarting(profile, view)) {
      // Keys typed now may be lost or read differently: wait as for a composer.
      await once('starting', () => io.note('waiting-for-start', {pane, profile: profile.name}));
      waitingFor = 'is still starting';
    } else if (state === undefined) {
      if (!isAgent(profile)) {
        if (policy.clear) await clearLine(io, pane, profile, signal, busy);
        return;
      }
      await once('composer', () => io.note('waiting-for-composer', {pane, profile: profile.name}));
      waitingFor = `shows no input line nudge can read (its screen ends ${JSON.stringify(preview(lastRows(view)))})`;
    } else if (state.text !== '') {
      // An agent that gives up on a turn (or is interrupted) puts the prompt back into its
      // composer: that "draft" is this text, not a person's. Cleared a bounded number of
      // times (keys that do not clear it must not spin here).
      const own = sameText(state.text, policy.ownText);
      if ((own || policy.clearDraft) && clears < MAX_CLEARS) {
        clears++;
        await io.note(own ? 'own-text-cleared' : 'draft-cleared', {
          pane,
          chars: [...state.text].length,
        });
        await clearLine(io, pane, profile, signal, busy);
        continue;
      }
      await once('draft', () =>
        io.note('waiting-for-draft', {pane, chars: [...state.text].length}),
      );
      waitingFor = `has a draft in its input line (${JSON.stringify(preview(state.text))}) that was not sent or cleared`;
    } else if (state.mode) {
      if (!busy && leaves < MAX_MODE_LEAVES) {
        leaves++;
        await io.note('left-input-mode', {pane, mode: state.mode.name});
        await pressGroups(io, pane, state.mode.leaveKeys, signal);
        // Keys are pressed again only once these plainly did not take: a second Escape sent
        // while the program still works on the first is held as the start of a sequence,
        // and swallows the first characters typed after it.
        await modeLeft(io, pane, profile, state.mode, signal);
        continue;
      }
      if (!busy) {
        throw new PaneFailure(
          `Pane ${pane}'s input line stays in ${state.mode.name} after ${MAX_MODE_LEAVES} tries to leave it; nothing was typed.`,
        );
      }
      // Keys that leave a mode may cancel a running turn: wait until it ends.
      const mode = state.mode.name;
      await once('mode', () => io.note('waiting-to-leave-mode', {pane, mode}));
      waitingFor = `is in ${mode} while the agent works`;
    } else {
      return;
    }
    if (clock.now() >= deadline) {
      throw new PaneFailure(
        `Pane ${pane} ${waitingFor} within ${formatDuration(policy.draftWaitMs)}; nothing was typed${
          waitingFor.includes('draft') ? ' (use --clear-draft to clear it)' : ''
        }.`,
      );
    }
    await clock.sleep(Math.min(RECHECK_MS, Math.max(0, deadline - clock.now())), signal);
  }
}

/** Wait (up to MODE_LEAVE_WAIT_MS) until the input line is no longer in `mode`. */
async function modeLeft(
  io: PaneIo,
  pane: string,
  profile: Profile,
  mode: InputMode,
  signal: AbortSignal,
): Promise<void> {
  const deadline = io.clock.now() + MODE_LEAVE_WAIT_MS;
  while (readComposerState(profile, await io.tmux.view(pane, 0))?.mode === mode) {
    if (io.clock.now() >= deadline) return;
    await io.clock.sleep(MODE_LEAVE_POLL_MS, signal);
  }
}

/** The last non-empty rows of a screen, joined by " / " (what a dialog or menu shows). */
function lastRows(view: PaneView): string {
  return visibleText(view)
    .split('\n')
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-2)
    .join(' / ');
}

/** At most 40 characters of a draft, for messages. */
export function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The same text, ignoring how whitespace and line breaks were drawn. */
function sameText(a: string, b: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
