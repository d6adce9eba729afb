import type {JobDeps} from './job-deps.js';

/** How often a job typing a long text says in its record how far it got. */
const PROGRESS_EVERY_MS = 2_000;

/**
 * The counter of a job's typed characters (`counted` is told of each), which also says in the
 * job's record, at most every PROGRESS_EVERY_MS, how many of its `chars` went out and about how
 * long the rest takes at the pace so far (`typed`, `typingLeftMs`): what `nudge status`, `jobs`
 * and `top` show as `typing 548 of 65536`. A record that cannot be written now only loses a
 * figure: the typing goes on.
 */
export function typingProgress(
  deps: Pick<JobDeps, 'recorder' | 'clock'>,
  chars: number,
  counted: (n: number) => void,
): (n: number) => void {
  const start = deps.clock.now();
  let typed = 0;
  let said = start;
  return (n) => {
    typed += n;
    counted(n);
    const now = deps.clock.now();
    if (now - said < PROGRESS_EVERY_MS || typed >= chars) return;
    said = now;
    const typingLeftMs = Math.round(((chars - typed) * (now - start)) / typed);
    void deps.recorder.mark({typed, typingLeftMs}).catch(() => {});
  };
}
