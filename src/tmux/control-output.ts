import type {OutputListener} from './control-types.js';
import {KeyedListeners} from './listeners.js';

/**
 * Who hears of a control client's `%output`: listeners of every pane and of one pane, and
 * when each pane last printed. Part of control-runner.ts, holding only this bookkeeping (as
 * listeners.ts holds its other notifications' listeners).
 */
export class OutputListeners {
  readonly #lastOutput = new Map<string, number>();
  readonly #listeners = new Set<OutputListener>();
  readonly #paneListeners = new KeyedListeners<string, number>();

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
    return this.#paneListeners.add(paneId, (at) => listener(paneId, at));
  }

  /** `paneId` printed at `at`: note it and tell its listeners. */
  emit(paneId: string, at: number): void {
    this.#lastOutput.set(paneId, at);
    for (const listener of this.#listeners) listener(paneId, at);
    this.#paneListeners.emit(paneId, at);
  }
}
