import type {FollowKind, FollowNeed} from './follow-format.js';

/**
 * Push signals about a pane's output, for event-driven waiting. The control-mode transport
 * provides them (src/tmux/control-activity.ts); tests use a scripted fake. Without them the
 * wait loop polls.
 */
export interface PaneActivity {
  /** Whether output events of pane `paneId` reach us now: false when the pane is out of the
   * source's reach (a control client only hears the panes of the session it is attached to)
   * or once the source has ended. Asked before a wait trusts silence as quiet. */
  covers(paneId: string): Promise<boolean>;
  /** When pane `paneId` last printed anything (ms, on the wait's clock), if it has since the
   * source started: the latest it can have been (a source that follows a busy pane by its
   * checks knows a change only to the check that reported it). */
  lastOutputAt(paneId: string): number | undefined;
  /** Whether pane `paneId` surely printed something after `at` (the reaction gate's "the
   * pane reacted to our keys"). */
  printedAfter(paneId: string, at: number): boolean;
  /** Whether pane `paneId`'s changes come as reports once a second (a busy pane followed by
   * its checks), each of them whole, rather than as its output. */
  followed(paneId: string): boolean;
  /** How the source follows busy pane `paneId` now (src/tmux/follow-format.ts), if it does. */
  followedAs(paneId: string): FollowKind | undefined;
  /** Resolves once what the source says of pane `paneId`'s last output is exact to now (at
   * once, mostly; a source that follows a busy pane by its checks first hears it again after
   * it went quiet), or when the source ends. A wait settles before it trusts silence. */
  settled(paneId: string, signal: AbortSignal): Promise<void>;
  /** Hear pane `paneId` until the returned call (a job's pane, a wait's): a source may stop
   * hearing panes nobody holds. Holds nest. `need`: what a wait needs told of the pane while
   * it is busy (src/tmux/follow-format.ts; none: the hold only keeps it heard). */
  hold(paneId: string, need?: FollowNeed): () => void;
  /** Resolves at the pane's next output, or when the source ends, whichever comes first;
   * rejects with an AbortError when `signal` fires. */
  nextOutput(paneId: string, signal: AbortSignal): Promise<void>;
  /** Resolves when the source ends (no more events will come); rejects with an AbortError
   * when `signal` fires. */
  ended(signal: AbortSignal): Promise<void>;
  /** Resolves at the next sign that panes came or went (a window closed, a window's layout
   * changed, a window left the session), or when the source ends; rejects with an AbortError
   * when `signal` fires. A closed pane prints nothing, so this is how a wait hears of it. */
  layoutChanged(signal: AbortSignal): Promise<void>;
  /** True once the source has ended. */
  readonly isEnded: boolean;
}

/**
 * A promise for something `start` waits for, that also ends when `signal` fires (rejecting
 * with its reason). `start` subscribes and returns how to unsubscribe; it is unsubscribed
 * whichever way the promise settles, so waits that lose a race leave nothing behind.
 */
export function untilAborted<T>(
  signal: AbortSignal,
  start: (resolve: (value: T) => void) => () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    let settled = false;
    let unsubscribe: (() => void) | undefined;
    const settle = () => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
      unsubscribe?.();
    };
    const onAbort = () => {
      settle();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, {once: true});
    unsubscribe = start((value) => {
      if (settled) return;
      settle();
      resolve(value);
    });
    // `start` may have resolved before it returned its unsubscribe.
    if (settled) unsubscribe();
  });
}
