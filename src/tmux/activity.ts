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
   * source started. */
  lastOutputAt(paneId: string): number | undefined;
  /** Resolves at the pane's next output, or when the source ends, whichever comes first;
   * rejects with an AbortError when `signal` fires. */
  nextOutput(paneId: string, signal: AbortSignal): Promise<void>;
  /** Resolves when the source ends (no more events will come); rejects with an AbortError
   * when `signal` fires. */
  ended(signal: AbortSignal): Promise<void>;
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
