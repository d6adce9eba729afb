/** What one look at the run found. */
export interface Look {
  nowMs: number;
  /** The visible screen, as text. */
  screen: string;
  /** The changed files' signature ('' outside git). */
  files: string;
  /** A person is being asked something (a permission stop under `--permissions ask`): the
   * idle timeout does not run meanwhile. */
  asking: boolean;
}

/** What the look means. */
export interface Verdict {
  screenChanged: boolean;
  filesChanged: boolean;
  /** A timeout that has passed: `idle` (no screen and no file change for the idle timeout),
   * or `total`. */
  timeout?: 'idle' | 'total';
  /** Milliseconds since the last change (0 while a person is asked). */
  quietMs: number;
}

/**
 * The run's two timeouts, judged on every look (a timer drives the looks, so a run that
 * prints nothing at all still times out): the total one from the start, the idle one from
 * the last change of the screen or of the files. While a person is asked to allow something
 * the idle clock stands still.
 */
export class RunClock {
  #lastChangeMs: number;
  #screen: string | undefined;
  #files: string | undefined;

  constructor(
    readonly startMs: number,
    private readonly o: {idleTimeoutMs: number; timeoutMs: number},
    /** When the work itself began (the command or prompt sent): the idle clock starts here,
     * so a slow start (an agent taking seconds to show its composer) is never idleness. */
    workStartMs = startMs,
  ) {
    this.#lastChangeMs = workStartMs;
  }

  observe(look: Look): Verdict {
    const screenChanged = this.#screen !== undefined && look.screen !== this.#screen;
    const filesChanged = this.#files !== undefined && look.files !== this.#files;
    this.#screen = look.screen;
    this.#files = look.files;
    if (screenChanged || filesChanged || look.asking) this.#lastChangeMs = look.nowMs;
    const quietMs = look.nowMs - this.#lastChangeMs;
    const verdict: Verdict = {screenChanged, filesChanged, quietMs};
    if (look.nowMs - this.startMs >= this.o.timeoutMs) verdict.timeout = 'total';
    else if (quietMs >= this.o.idleTimeoutMs) verdict.timeout = 'idle';
    return verdict;
  }

  /** When the last change was seen. */
  get lastChangeMs(): number {
    return this.#lastChangeMs;
  }
}

/** Whether a `progress` event is due: on a change, at most every `minMs`; else every `everyMs`. */
export function progressDue(
  o: {changed: boolean; sinceLastMs: number},
  minMs = 5_000,
  everyMs = 30_000,
): boolean {
  return o.changed ? o.sinceLastMs >= minMs : o.sinceLastMs >= everyMs;
}
