import type {PaneIdleResult} from './wait-idle.js';

/** How many of several panes a wait waits for: the first (`any`), every one (`all`), or `count`. */
export type ManyMode = {kind: 'any'} | {kind: 'all'} | {kind: 'count'; count: number};

/** What a wait over several panes found. */
export interface ManyIdleResult {
  /** `idle`: as many panes as asked were idle. Else why that cannot be or was not reached:
   * `blocked` (a pane waits for a person), `unknown` (nothing can tell of a pane), `timeout`. */
  status: 'idle' | 'timeout' | 'blocked' | 'unknown';
  /** `any`, `all`, or `count`. */
  mode: ManyMode['kind'];
  /** How many idle panes were asked for. */
  needed: number;
  /** The panes found idle, in the order they were. */
  idle: string[];
  /** The first pane found idle (`--any`'s answer). */
  first?: string | undefined;
  durationMs: number;
  /** Each pane's own verdict, in the order the panes were given: as its wait ended, or
   * (`stopped`) where it stood when the others made the answer. */
  panes: Array<PaneIdleResult | {status: 'stopped'; pane: string}>;
}

/** One pane's own wait, stopped by `signal` (the others decided first, or the caller). */
export type PaneWait = (pane: string, signal: AbortSignal) => Promise<PaneIdleResult>;

/** The panes a mode needs idle, of `total`. */
export function neededOf(mode: ManyMode, total: number): number {
  if (mode.kind === 'any') return 1;
  if (mode.kind === 'all') return total;
  return Math.min(mode.count, total);
}

/**
 * Wait on every pane at once (each with its own wait: its verdicts, its timeout) until as
 * many are idle as `mode` asks, or until so many ended otherwise that they cannot be; the rest
 * are stopped then. Ended otherwise says which: a pane that waits for a person makes it
 * `blocked`, before one nothing can tell of (`unknown`), before a `timeout`.
 */
export async function waitMany(
  panes: readonly string[],
  mode: ManyMode,
  waitOne: PaneWait,
  o: {signal: AbortSignal; now: () => number},
): Promise<ManyIdleResult> {
  const started = o.now();
  const needed = neededOf(mode, panes.length);
  const stop = new AbortController();
  const onAbort = () => stop.abort(o.signal.reason);
  o.signal.addEventListener('abort', onAbort, {once: true});
  const results: Array<PaneIdleResult | undefined> = panes.map(() => undefined);
  const idle: string[] = [];
  let notIdle = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let pending = panes.length;
      panes.forEach((pane, i) => {
        waitOne(pane, stop.signal).then(
          (r) => {
            results[i] = r;
            if (r.status === 'idle') idle.push(pane);
            else notIdle++;
            pending--;
            // Enough idle, or too many not: the answer is known.
            if (idle.length >= needed || panes.length - notIdle < needed || pending === 0)
              resolve();
          },
          (error: unknown) => {
            // A stop the answer made is not a failure; anything else (a pane gone) is.
            if (stop.signal.aborted && !o.signal.aborted) return;
            reject(error);
          },
        );
      });
    });
  } finally {
    o.signal.removeEventListener('abort', onAbort);
    if (!stop.signal.aborted) stop.abort(STOPPED);
  }
  const ended = results.filter((r): r is PaneIdleResult => r !== undefined);
  return {
    status: idle.length >= needed ? 'idle' : worstOf(ended),
    mode: mode.kind,
    needed,
    idle,
    ...(idle[0] !== undefined ? {first: idle[0]} : {}),
    durationMs: o.now() - started,
    panes: panes.map((pane, i) => results[i] ?? {status: 'stopped', pane}),
  };
}

/** Why enough panes were not idle: a person waited for first, then what cannot be told, then
 * the time. */
function worstOf(ended: readonly PaneIdleResult[]): ManyIdleResult['status'] {
  for (const status of ['blocked', 'unknown'] as const)
    if (ended.some((r) => r.status === status)) return status;
  return 'timeout';
}

/** The reason the panes still waiting are stopped with, once the answer is known. */
const STOPPED = Object.freeze(new DOMException('the other panes decided', 'AbortError'));
