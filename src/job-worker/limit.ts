import type {FoundDialog} from '../agents/dialogs.js';
import type {Profile} from '../agents/profile.js';
import type {Clock} from '../base/clock.js';
import type {JobOptions} from '../job-options/schema.js';
import type {JobRecorder} from '../jobs/recorder.js';
import {deliverOptionsOf, type JobRequest} from '../jobs/request.js';
import type {Tell} from '../notify/tell.js';
import {type Delivered, deliver} from '../pane/deliver.js';
import type {PaneIo} from '../pane/keys.js';
import {ownLinePace} from '../pane/own-line.js';

/** How many usage limits one job waits out (`--on-limit wait`) before it stops at the next. */
const MAX_LIMIT_WAITS = 10;
/** A limit's wait looks at the wall clock at least this often: a machine that slept through
 * the reset resumes when it wakes, not a whole timer later. */
const LIMIT_CHECK_MS = 30_000;

/**
 * A job's usage limits (`--on-limit wait`): whether one is waited out, and the wait itself —
 * until the reset the screen said, and `--limit-margin` more, on the wall clock.
 */
export class LimitWaits {
  #count = 0;

  constructor(
    private readonly deps: {clock: Clock; recorder: JobRecorder; tell: Tell},
    private readonly o: Pick<JobOptions, 'onLimit' | 'limitMarginMs'>,
  ) {}

  /** Whether this screen is a usage limit to wait out: `--on-limit wait`, a reset time the
   * screen says, and not too many limits already. */
  waitsOut(dialog: FoundDialog): boolean {
    return (
      dialog.kind === 'limit' &&
      this.o.onLimit === 'wait' &&
      dialog.resetsAt !== undefined &&
      this.#count < MAX_LIMIT_WAITS
    );
  }

  /** Wait until the limit has reset and the margin passed; `signal` (nudge cancel) stops it.
   * The caller frees the pane's lock around it. */
  async wait(pane: string, dialog: FoundDialog, signal: AbortSignal): Promise<void> {
    const {clock, recorder} = this.deps;
    this.#count++;
    const resumesAt = (dialog.resetsAt ?? clock.wall()) + this.o.limitMarginMs;
    const resetsAt = new Date(dialog.resetsAt ?? resumesAt).toISOString();
    await recorder.event('limit', {
      pane,
      question: dialog.question,
      resets: dialog.resets ?? '',
      resetsAt,
      resumesAt: new Date(resumesAt).toISOString(),
    });
    await this.deps.tell({
      event: 'limit',
      state: 'waiting',
      pane,
      kind: 'limit',
      question: dialog.question,
      resetsAt,
    });
    for (let left = resumesAt - clock.wall(); left > 0; left = resumesAt - clock.wall())
      await clock.sleep(Math.min(left, LIMIT_CHECK_MS), signal);
  }
}

/** Type the resume line (`--resume-text`) once a usage limit is over: the work goes on. */
export function resumeAfterLimit(
  io: PaneIo,
  request: JobRequest,
  profile: Profile,
  signal: AbortSignal,
): Promise<Delivered> {
  const text = request.options.resumeText;
  return deliver(
    io,
    request.pane,
    text,
    profile,
    deliverOptionsOf(request, {enter: true, ...ownLinePace(profile, text, request.options)}),
    signal,
  );
}
