import type {OutputListener} from './control-types.js';

/**
 * Who hears of a control client's `%output`: listeners of every pane and of one pane, and
 * when each pane last printed. Part of control-runner.ts, holding only this bookkeeping (as
 * listeners.ts holds its other notifications' listeners).
 */
export class OutputListeners {
  readonly #lastOutput = new Map<string, number>();
  readonly #listeners = new Set<OutputListener>();
  readonly #paneListeners = new Map<string, Set<OutputListener>>();

  /** When `paneId` last printed, on the runner's clock. */
  lastOutputAt(paneId: string): number | undefined {
    return this.#lastOutput.get(paneId);
  }

  /** Hear every pane's output (or one pane's); returns the call that stops it. */
  add(listener: OutputListener, paneId?: string): () => void {
    if (paneId === undefined) {
      this.#listeners.add(listener);
      return () => this.#listeners.delete(listener);
    }
    let set = this.#paneListeners.get(paneId);
    if (!set) {
      set = new Set();
      this.#paneListeners.set(paneId, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#paneListeners.get(paneId) === set) {
        this.#paneListeners.delete(paneId);
      }
    };
  }

  /** `paneId` printed at `at`: note it and tell its listeners. */
  emit(paneId: string, at: number): void {
    this.#lastOutput.set(paneId, at);
    for (const listener of this.#listeners) listener(paneId, at);
    const forPane = this.#paneListeners.get(paneId);
    if (forPane) for (const listener of forPane) listener(paneId, at);
  }
}
