import type {FoundDialog} from '../agents/dialogs.js';
import type {PermissionStop} from '../jobs/run-report.js';

/** How many times a dialog still on screen is answered no again. */
const MAX_DENIES = 3;

/** What to do about the dialog seen (or not) on one look. */
export type DialogStep =
  | {kind: 'none'}
  /** A new question: record it; under `ask` tell the caller; under `deny` answer no. */
  | {kind: 'new'; stop: PermissionStop; deny: boolean}
  /** The same question still shown: under `deny` answer no again (a few times at most). */
  | {kind: 'still'; deny: boolean}
  /** The dialog went away without nudge answering: a person did. */
  | {kind: 'answered'; stop: PermissionStop};

/**
 * The permission stops of one run: which question is on screen, which were seen before, and
 * how each was answered. `permissions: deny` answers no; nothing here ever answers yes.
 */
export class PermissionStops {
  readonly stops: PermissionStop[] = [];
  #shown: {stop: PermissionStop; denies: number} | undefined;

  constructor(private readonly permissions: 'ask' | 'deny') {}

  /** Whether a dialog is on screen now. */
  get showing(): boolean {
    return this.#shown !== undefined;
  }

  observe(found: FoundDialog | undefined, atIso: string): DialogStep {
    const shown = this.#shown;
    if (!found) {
      this.#shown = undefined;
      if (shown?.stop.answer === 'pending') {
        shown.stop.answer = 'answered';
        return {kind: 'answered', stop: shown.stop};
      }
      return {kind: 'none'};
    }
    // A dialog nudge must never answer (a usage limit) is only recorded.
    const deny = this.permissions === 'deny' && found.denyKeys.length > 0;
    if (shown?.stop.question === found.question) {
      const again = deny && shown.denies < MAX_DENIES;
      if (again) shown.denies++;
      return {kind: 'still', deny: again};
    }
    const stop: PermissionStop = {
      at: atIso,
      kind: found.kind,
      question: found.question,
      detail: found.detail,
      answer: deny ? 'denied' : 'pending',
    };
    this.stops.push(stop);
    this.#shown = {stop, denies: deny ? 1 : 0};
    return {kind: 'new', stop, deny};
  }
}
