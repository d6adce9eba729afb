import type {HookMark, HookMarkSource, RefusedMark} from '../agents/hook-marks.js';

/** How often a pane's hook mark is looked at when no file event comes (the backstop: the
 * folder's file events wake the watch; a wake-up a second was a waiting job's largest cost). */
const HOOK_MARK_BACKSTOP_MS = 5_000;

/** A pane's turn-end hook marks, followed from a moment on. */
export interface HookWatch {
  /** Whether a mark newer than `since` came (read synchronously by a watcher). */
  fresh: () => boolean;
  /** The newest mark since `since`, if one came: a turn that left work running is followed
   * by the mark of the turn the agent starts on its own when that work ends. */
  latest: () => HookMark | undefined;
  /** Resolves when a newer mark arrives (never at once: only on arrival), so a wait looks at
   * once instead of at its next interval. */
  wake: (signal: AbortSignal) => Promise<void>;
  /** Stop following. */
  stop: () => void;
}

/**
 * Follow `pane`'s turn-end hook marks (file events on the marks folder, with a backstop) from
 * `since` on; `onFresh` is told of each newer mark. A hook that claimed the pane and could not
 * prove it marks nothing; `onRefused` is told of each such refusal after `since` (the wait goes
 * on: another pane's turn end is not this one's).
 */
export function watchHookMark(
  hookMarks: HookMarkSource,
  pane: string,
  since: number,
  signal: AbortSignal,
  onFresh: (mark: HookMark) => void,
  onRefused: (refused: RefusedMark) => void,
): HookWatch {
  let latest: HookMark | undefined;
  let refusedAt = since - 1;
  const waiters = new Set<() => void>();
  const stopper = new AbortController();
  const onAbort = () => stopper.abort();
  signal.addEventListener('abort', onAbort, {once: true});
  void (async () => {
    while (!stopper.signal.aborted) {
      const seen = hookMarks.version();
      const [mark, refused] = await Promise.all([
        hookMarks.read(pane),
        hookMarks.readRefused(pane).catch(() => undefined),
      ]);
      if (refused !== undefined && refused.atMs > refusedAt) {
        refusedAt = refused.atMs;
        onRefused(refused);
      }
      if (mark !== undefined && mark.atMs >= since && mark.atMs !== latest?.atMs) {
        latest = mark;
        onFresh(mark);
        for (const wake of [...waiters]) wake();
      }
      await hookMarks.changed(stopper.signal, HOOK_MARK_BACKSTOP_MS, seen).catch(() => {});
    }
  })();
  return {
    fresh: () => latest !== undefined,
    latest: () => latest,
    wake: (s) =>
      new Promise<void>((resolve) => {
        if (s.aborted) return;
        const wake = () => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        s.addEventListener('abort', () => waiters.delete(wake), {once: true});
      }),
    stop: () => {
      signal.removeEventListener('abort', onAbort);
      stopper.abort();
    },
  };
}
