import type {Blocked} from '../agents/dialogs.js';
import type {Clock} from '../base/clock.js';
import type {Tell} from '../notify/tell.js';

/** A limit's wait looks at the wall clock at least this often: a machine that slept through
 * the reset resumes when it wakes. */
const LIMIT_CHECK_MS = 30_000;

/**
 * A watcher's usage limit at the idle step (`--on-limit wait`): the person is told, the cycle
 * sleeps until the reset the screen said and the margin — on the wall clock, so a machine
 * that slept through it goes on at wake-up — and the resume line is typed (`inject`).
 * Resolves to its delivery.
 */
export async function waitOutLimit(
  deps: {clock: Clock; tell: Tell; inject: (line: string) => Promise<string>},
  limit: Blocked & {resetsAt: string},
  o: {limitMarginMs: number; resumeText: string},
  signal: AbortSignal,
): Promise<string> {
  const {clock} = deps;
  await deps.tell({
    event: 'limit',
    state: 'waiting',
    pane: limit.pane,
    kind: 'limit',
    question: limit.question,
    resetsAt: limit.resetsAt,
  });
  const resumesAt = Date.parse(limit.resetsAt) + o.limitMarginMs;
  for (let left = resumesAt - clock.wall(); left > 0; left = resumesAt - clock.wall())
    await clock.sleep(Math.min(left, LIMIT_CHECK_MS), signal);
  return deps.inject(o.resumeText);
}
