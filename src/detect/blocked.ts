import {type FoundDialog, findDialog} from '../agents/dialogs.js';
import type {NeedsMark} from '../agents/hook-marks.js';
import type {Profile} from '../agents/profile.js';
import {isBusy, readComposerState} from '../agents/screens.js';
import type {PaneView} from '../tmux/view.js';
import type {EventFacts, Verdict, Watcher} from './watchers.js';

/**
 * A condition that also ends the moment the program waits for a person: a permission,
 * question, trust or plan dialog, or a usage limit (its profile's `dialogs`). Any wait on an
 * agent's pane takes this shape — `nudge wait`, `nudge expect`, a job's waits, `--when-idle`,
 * the watcher's idle step — so no wait reads a dialog as idle (the screen holds still) or
 * as busy until its timeout. `now` dates a usage limit's reset.
 *
 * The agent's own signal counts too (`needs`: its notification hook reported a permission
 * prompt since the wait began): with no composer on screen and nothing busy, that is a
 * person waited for even where the profile no longer reads the dialog (its wording changed).
 */
export class BlockedWatcher implements Watcher {
  constructor(
    private readonly inner: Watcher,
    private readonly profile: Profile,
    private readonly now: () => number,
    /** The screen before nudge typed, if it did: a usage limit printed there is the last
     * turn's until the prompt just sent shows above it, not a new one. */
    private readonly before?: PaneView,
    private readonly needs?: NeedsSignal,
  ) {}

  #mark: NeedsMark | undefined;

  get historyRows(): number {
    return this.inner.historyRows;
  }

  get readsForeground(): boolean | undefined {
    return this.inner.readsForeground;
  }

  missingRows(view: PaneView): number {
    return this.inner.missingRows?.(view) ?? 0;
  }

  async prepare(view: PaneView): Promise<void> {
    await this.inner.prepare?.(view);
    if (this.needs) this.#mark = await this.needs.read();
  }

  observe(view: PaneView): Verdict {
    return this.#blocked(view) ?? this.#noted(this.inner.observe(view));
  }

  observeEvents(view: PaneView, facts: EventFacts): Verdict {
    return (
      this.#blocked(view) ??
      this.#noted(this.inner.observeEvents?.(view, facts) ?? this.inner.observe(view))
    );
  }

  /** The agent's own word and the screen disagree (it says it waits for a person, the screen
   * shows its composer or work): the verdict says so. */
  #noted(verdict: Verdict): Verdict {
    const mark = this.#mark;
    if (!mark || !this.needs || mark.atMs < this.needs.since) return verdict;
    const note = `; ${mark.source} says: ${mark.message}, but the screen shows no dialog`;
    if (verdict.status === 'done') return {...verdict, why: `${verdict.why ?? 'done'}${note}`};
    if (verdict.status === 'pending') return {...verdict, why: `${verdict.why}${note}`};
    return verdict;
  }

  /** Never only after silence: a dialog that appears and holds still is seen at the next
   * interval, not once the condition's quiet window has passed. */
  quietWindowMs(): number | undefined {
    return undefined;
  }

  #blocked(view: PaneView): Verdict | undefined {
    const dialog = findDialog(this.profile, view, this.now()) ?? this.#signalled(view);
    if (!dialog) return undefined;
    if (this.before && dialog.kind === 'limit') {
      const old = findDialog(this.profile, this.before, this.now());
      if (old?.question === dialog.question) return undefined;
    }
    return {status: 'blocked', dialog};
  }

  #signalled(view: PaneView): FoundDialog | undefined {
    return this.needs ? signalledNeed(this.profile, view, this.#mark, this.needs.since) : undefined;
  }
}

/** The agent's own "waits for a person" signal: its newest mark, and from when it counts. */
export interface NeedsSignal {
  read: () => Promise<NeedsMark | undefined>;
  since: number;
}

/** `watcher`, ending on the dialogs of `profile` (or its hook's signal) when it has any. */
export function endingOnDialogs(
  watcher: Watcher,
  profile: Profile | undefined,
  now: () => number,
  before?: PaneView,
  needs?: NeedsSignal,
): Watcher {
  return profile && (profile.dialogs?.length || needs)
    ? new BlockedWatcher(watcher, profile, now, before, needs)
    : watcher;
}

/** The agent's hook says it waits for a person, where no dialog of the profile is read: a mark
 * newer than `since`, no composer on screen, nothing busy. */
export function signalledNeed(
  profile: Profile,
  view: PaneView,
  mark: NeedsMark | undefined,
  since: number,
): FoundDialog | undefined {
  if (!mark || mark.atMs < since) return undefined;
  if (readComposerState(profile, view) !== undefined || isBusy(profile, view)) return undefined;
  return {
    kind: mark.kind,
    question: mark.message || 'the agent waits for a person',
    detail: [`reported by ${mark.source}`],
    denyKeys: [],
  };
}
