import {type FoundDialog, findDialog} from '../agents/dialogs.js';
import type {Profile} from '../agents/profile.js';
import {describeError} from '../base/errors.js';
import type {Delivery} from '../pane/failures.js';
import {type PaneIo, pressGroups} from '../pane/keys.js';
import type {PaneView} from '../tmux/view.js';
import type {RunDeps} from './events.js';
import type {PermissionStops} from './permissions.js';

/** The longest line told to the calling pane (a question with its detail). */
const TOLD_LINE_MAX = 400;

/**
 * A run's permission and trust dialogs: each question recorded once; with `deny`, answered no
 * with the profile's keys; with `ask`, the calling pane is told that a person must answer.
 */
export class RunDialogs {
  constructor(
    private readonly deps: Pick<RunDeps, 'recorder' | 'clock' | 'tell' | 'notify'>,
    private readonly o: {
      io: PaneIo;
      pane: string;
      profile: Profile;
      stops: PermissionStops;
      notifyPane: string | null;
      /** Who asks, for the line told: `[nudge run JOB] AGENT`. */
      who: string;
    },
  ) {}

  /** Look at a screen; whether a dialog is shown. */
  async onScreen(view: PaneView, signal: AbortSignal): Promise<boolean> {
    const {recorder} = this.deps;
    const now = this.deps.clock.wall();
    const found = findDialog(this.o.profile, view, now);
    const at = new Date(now).toISOString();
    const step = this.o.stops.observe(found, at);
    if (step.kind === 'answered') {
      await recorder.event('permission-answered', {question: step.stop.question});
    }
    if (step.kind === 'new') {
      const {kind, question, detail} = step.stop;
      await recorder.event('permission-prompt', {kind, question, detail});
      if (!step.deny && found) {
        await this.#tellAsked(found);
        await this.deps.notify({
          event: 'blocked',
          state: 'running',
          pane: this.o.pane,
          kind,
          question,
        });
      }
    }
    if (found && (step.kind === 'new' || step.kind === 'still') && step.deny) {
      await pressGroups(this.o.io, this.o.pane, found.denyKeys, signal);
      await recorder.event('permission-denied', {
        question: found.question,
        keys: found.denyKeys.flat(),
      });
    }
    return found !== undefined;
  }

  /** Tell the calling pane that the agent waits for a person's answer. */
  async #tellAsked(found: FoundDialog): Promise<void> {
    const pane = this.o.notifyPane;
    if (pane === null) return;
    const detail = found.detail.length ? ` (${found.detail.join(' / ')})` : '';
    const line = oneLine(
      `${this.o.who} asks: ${found.question}${detail} — answer it in pane ${this.o.pane}`,
    );
    await this.tell(pane, line);
  }

  /** Type one line into another pane; a failure is recorded, never thrown. */
  async tell(pane: string, line: string): Promise<Delivery | undefined> {
    try {
      const delivery = await this.deps.tell(pane, line);
      await this.deps.recorder.event('told', {pane, line, delivery});
      return delivery;
    } catch (error) {
      await this.deps.recorder.event('tell-failed', {pane, line, why: describeError(error)});
      return undefined;
    }
  }
}

/** One line, at most TOLD_LINE_MAX characters. */
function oneLine(text: string): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  return one.length > TOLD_LINE_MAX ? `${one.slice(0, TOLD_LINE_MAX - 1)}…` : one;
}
