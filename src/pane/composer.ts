import {type InputMode, isAgent, type Profile} from '../agents/profile.js';
import {isBusy, isStarting, readComposerState} from '../agents/screens.js';
import {formatDuration} from '../base/durations.js';
import {endingOnDialogs} from '../detect/blocked.js';
import {waitUntil} from '../detect/wait-until.js';
import type {Verdict, Watcher} from '../detect/watchers.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import {PaneBlocked, PaneFailure} from './failures.js';
import {waitOutHalfLine} from './half-line.js';
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
  /** Who types (a job's id; a watcher's or a run's name): a half line marked by another is
   * waited out (src/pane/half-line.ts). */
  owner: string;
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
  // Never type onto half a line a cancelled job left and could not clear.
  let halfLine = await waitOutHalfLine(io, pane, policy.owner, policy.draftWaitMs, signal);
  const deadline = clock.now() + policy.draftWaitMs;
  const look = new ComposerLook(io, pane, profile, policy);
  let leaves = 0;
  let clears = 0;
  for (;;) {
    look.canClear = clears < MAX_CLEARS;
    look.canLeave = leaves < MAX_MODE_LEAVES;
    // An agent's dialog or usage limit is never typed into, cleared or waited out.
    const waiting = isAgent(profile) ? endingOnDialogs(look, profile, () => clock.wall()) : look;
    const waited = await waitUntil(tmux, pane, waiting, {
      intervalMs: RECHECK_MS,
      timeoutMs: deadline - clock.now(),
      clock,
      signal,
    });
    if (waited.verdict.status === 'blocked') throw new PaneBlocked(pane, waited.verdict.dialog);
    const found = look.found;
    if (waited.status !== 'done' || !found || found.kind === 'wait') {
      const waitingFor = found?.kind === 'wait' ? found.waitingFor : 'was not ready';
      throw new PaneFailure(
        `Pane ${pane} ${waitingFor} within ${formatDuration(policy.draftWaitMs)}; nothing was typed${
          waitingFor.includes('draft') ? ' (use --clear-draft to clear it)' : ''
        }.`,
      );
    }
    if (look.waitedForPerson || halfLine) await io.note('person-done', {pane});
    halfLine = false;
    look.waitedForPerson = false;
    switch (found.kind) {
      case 'ready':
        return;
      case 'clear-line':
        // A line nudge cannot read: cleared (--clear), then typed over.
        if (policy.clear) await clearLine(io, pane, profile, signal, found.busy);
        return;
      case 'clear-text':
        clears++;
        await io.note(found.own ? 'own-text-cleared' : 'draft-cleared', {pane, chars: found.chars});
        await clearLine(io, pane, profile, signal, found.busy);
        break;
      case 'leave-mode':
        leaves++;
        await io.note('left-input-mode', {pane, mode: found.mode.name});
        await pressGroups(io, pane, found.mode.leaveKeys, signal);
        // Keys are pressed again only once these plainly did not take: a second Escape sent
        // while the program still works on the first is held as the start of a sequence,
        // and swallows the first characters typed after it.
        await modeLeft(io, pane, profile, found.mode, signal);
        break;
      case 'stuck-in-mode':
        throw new PaneFailure(
          `Pane ${pane}'s input line stays in ${found.mode.name} after ${MAX_MODE_LEAVES} tries to leave it; nothing was typed.`,
        );
      default:
        return found satisfies never;
    }
  }
}

/** What one look at the input line calls for. */
type ComposerFinding =
  | {kind: 'ready'}
  | {kind: 'clear-line'; busy: boolean}
  | {kind: 'clear-text'; own: boolean; chars: number; busy: boolean}
  | {kind: 'leave-mode'; mode: InputMode}
  | {kind: 'stuck-in-mode'; mode: InputMode}
  | {kind: 'wait'; waitingFor: string};

/**
 * The input line as a condition for waitUntil: done when it is ready or calls for an action
 * (`found` says which); pending while a draft, a mode during a turn, a starting program or an
 * unreadable agent screen is waited for. Each kind of wait is noted once.
 */
class ComposerLook implements Watcher {
  readonly historyRows = 0;
  found: ComposerFinding | undefined;
  canClear = true;
  canLeave = true;
  /** A person's draft was waited for since the last reset. */
  waitedForPerson = false;
  readonly #announced = new Set<string>();
  constructor(
    private readonly io: PaneIo,
    private readonly pane: string,
    private readonly profile: Profile,
    private readonly policy: ComposerPolicy,
  ) {}

  async prepare(view: PaneView): Promise<void> {
    const {io, pane, profile} = this;
    this.found = this.#find(view);
    const f = this.found;
    if (f.kind !== 'wait') return;
    if (isStarting(profile, view))
      await this.#once('starting', () =>
        io.note('waiting-for-start', {pane, profile: profile.name}),
      );
    else if (f.waitingFor.startsWith('shows no input line'))
      await this.#once('composer', () =>
        io.note('waiting-for-composer', {pane, profile: profile.name}),
      );
    else if (f.waitingFor.startsWith('has a draft')) {
      const chars = [...(readComposerState(profile, view)?.text ?? '')].length;
      this.waitedForPerson = true;
      await this.#once('draft', () => io.note('waiting-for-draft', {pane, chars}));
    } else {
      const mode = readComposerState(profile, view)?.mode?.name ?? '';
      await this.#once('mode', () => io.note('waiting-to-leave-mode', {pane, mode}));
    }
  }

  observe(): Verdict {
    const f = this.found;
    if (!f) throw new Error('Internal error: ComposerLook.observe before prepare');
    return f.kind === 'wait' ? {status: 'pending', why: f.waitingFor} : {status: 'done'};
  }

  #find(view: PaneView): ComposerFinding {
    const {profile, policy} = this;
    const state = readComposerState(profile, view);
    const busy = isBusy(profile, view);
    // Keys typed while it starts may be lost or read differently: wait as for a composer.
    if (isStarting(profile, view)) return {kind: 'wait', waitingFor: 'is still starting'};
    if (state === undefined) {
      if (!isAgent(profile)) return {kind: 'clear-line', busy};
      return {
        kind: 'wait',
        waitingFor: `shows no input line nudge can read (its screen ends ${JSON.stringify(preview(lastRows(view)))})`,
      };
    }
    if (state.text !== '') {
      // An agent that gives up on a turn (or is interrupted) puts the prompt back into its
      // composer: that "draft" is this text, not a person's. Cleared a bounded number of
      // times (keys that do not clear it must not spin here).
      const own = sameText(state.text, policy.ownText);
      if ((own || policy.clearDraft) && this.canClear)
        return {kind: 'clear-text', own, chars: [...state.text].length, busy};
      return {
        kind: 'wait',
        waitingFor: `has a draft in its input line (${JSON.stringify(preview(state.text))}) that was not sent or cleared`,
      };
    }
    if (state.mode) {
      if (!busy)
        return this.canLeave
          ? {kind: 'leave-mode', mode: state.mode}
          : {kind: 'stuck-in-mode', mode: state.mode};
      // Keys that leave a mode may cancel a running turn: wait until it ends.
      return {kind: 'wait', waitingFor: `is in ${state.mode.name} while the agent works`};
    }
    return {kind: 'ready'};
  }

  #once(event: string, say: () => Promise<void>): Promise<void> {
    if (this.#announced.has(event)) return Promise.resolve();
    this.#announced.add(event);
    return say();
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
  await waitUntil(
    io.tmux,
    pane,
    {
      historyRows: 0,
      observe: (view) =>
        readComposerState(profile, view)?.mode === mode
          ? {status: 'pending', why: `still in ${mode.name}`}
          : {status: 'done'},
    },
    {intervalMs: MODE_LEAVE_POLL_MS, timeoutMs: MODE_LEAVE_WAIT_MS, clock: io.clock, signal},
  );
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
