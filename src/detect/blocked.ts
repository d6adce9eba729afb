import {findDialog} from '../agents/dialogs.js';
import type {Profile} from '../agents/profile.js';
import type {PaneView} from '../tmux/view.js';
import type {EventFacts, Verdict, Watcher} from './watchers.js';

/**
 * A condition that also ends the moment the program waits for a person: a permission,
 * question, trust or plan dialog, or a usage limit (its profile's `dialogs`). Any wait on an
 * agent's pane takes this shape — `nudge wait`, `nudge expect`, a job's waits, `--when-idle`,
 * the watcher's idle step — so no wait reads a dialog as idle (the screen holds still) or
 * as busy until its timeout. `now` dates a usage limit's reset.
 */
export class BlockedWatcher implements Watcher {
  constructor(
    private readonly inner: Watcher,
    private readonly profile: Profile,
    private readonly now: () => number,
    /** The screen before nudge typed, if it did: a usage limit printed there is the last
     * turn's until the prompt just sent shows above it, not a new one. */
    private readonly before?: PaneView,
  ) {}

  get historyRows(): number {
    return this.inner.historyRows;
  }

  missingRows(view: PaneView): number {
    return this.inner.missingRows?.(view) ?? 0;
  }

  async prepare(view: PaneView): Promise<void> {
    await this.inner.prepare?.(view);
  }

  observe(view: PaneView): Verdict {
    return this.#blocked(view) ?? this.inner.observe(view);
  }

  observeEvents(view: PaneView, facts: EventFacts): Verdict {
    return (
      this.#blocked(view) ?? this.inner.observeEvents?.(view, facts) ?? this.inner.observe(view)
    );
  }

  /** Never only after silence: a dialog that appears and holds still is seen at the next
   * interval, not once the condition's quiet window has passed. */
  quietWindowMs(): number | undefined {
    return undefined;
  }

  #blocked(view: PaneView): Verdict | undefined {
    const dialog = findDialog(this.profile, view, this.now());
    if (!dialog) return undefined;
    if (this.before && dialog.kind === 'limit') {
      const old = findDialog(this.profile, this.before, this.now());
      if (old?.question === dialog.question) return undefined;
    }
    return {status: 'blocked', dialog};
  }
}

/** `watcher`, ending on the dialogs of `profile` when it has any. */
export function endingOnDialogs(
  watcher: Watcher,
  profile: Profile | undefined,
  now: () => number,
  before?: PaneView,
): Watcher {
  return profile?.dialogs?.length ? new BlockedWatcher(watcher, profile, now, before) : watcher;
}
