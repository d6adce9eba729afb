import type {FoundDialog} from '../agents/dialogs.js';

/** Why work on a pane stopped, in one sentence for the record (pane gone, pane dead, a
 * person's draft in the way, ...). Nothing more was typed. */
export class PaneFailure extends Error {
  override name = 'PaneFailure';
}

/** The job's tmux server is gone (restarted: its pane ids start again at %0): the job is
 * lost with it, not failed. */
export class ServerGone extends PaneFailure {
  override name = 'ServerGone';
}

/** Whether the program took what was typed: read back from its screen after Enter. */
export type Delivery =
  | 'submitted'
  | 'submitted-after-retry'
  | 'queued'
  | 'not-submitted'
  | 'unconfirmed'
  | 'no-enter'
  /** Not typed: shown as a tmux message, where a shell would have run it (a notice). */
  | 'shown';

/** Text that was typed but did not reach the program as meant (stayed in the composer, or
 * ran as a shell command). */
export class NotDelivered extends PaneFailure {
  override name = 'NotDelivered';
  constructor(
    message: string,
    readonly delivery: Delivery,
  ) {
    super(message);
  }
}

/** The program waits for a person (a dialog, a usage limit) where nudge was about to type:
 * nothing was typed into it. */
export class PaneBlocked extends PaneFailure {
  override name = 'PaneBlocked';
  constructor(
    readonly pane: string,
    readonly dialog: FoundDialog,
  ) {
    super(`Pane ${pane} waits for a person (${dialog.kind}): ${dialog.question}`);
  }
}
