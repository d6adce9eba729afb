import type {OutputListener} from './control-types.js';

/** Turn one pane's `%output` to this client on or off (`refresh-client -A '%N:on'`). */
export type SetPaneOutput = (paneId: string, on: boolean) => Promise<unknown>;

/**
 * Who hears of a control client's `%output`: listeners of every pane and of one pane, and
 * when each pane last printed. Part of control-runner.ts, holding only this bookkeeping.
 *
 * A client hears every pane of its session, and a session may hold many agents at work: a
 * job pays only for the panes it watches. The first output of a pane nobody watches turns
 * that pane's output off for this client (tmux ≥ 3.2, `refresh-client -A '%N:off'`); a pane
 * is watched once a wait asks whether events cover it (`watch`), and then it is turned on
 * again, its silence never trusted for what it printed while off: it counts as having printed
 * just now.
 */
export class OutputListeners {
  readonly #lastOutput = new Map<string, number>();
  readonly #listeners = new Set<OutputListener>();
  readonly #paneListeners = new Map<string, Set<OutputListener>>();
  readonly #watched: Set<string>;
  readonly #off = new Set<string>();
  readonly #setOutput: SetPaneOutput | undefined;

  /** `watched`: the panes heard from the start; without `setOutput`, every pane is heard. */
  constructor(watched: Iterable<string> = [], setOutput?: SetPaneOutput) {
    this.#watched = new Set(watched);
    this.#setOutput = setOutput;
  }

  /** Hear `paneId` from now on (turned on again if it was off); resolves to whether its
   * output reaches us (false while turning it on again fails: the client is going). */
  async watch(paneId: string, now: number): Promise<boolean> {
    this.#watched.add(paneId);
    if (!this.#off.has(paneId)) return true;
    try {
      await this.#setOutput?.(paneId, true);
    } catch {
      return false;
    }
    this.#off.delete(paneId);
    this.#lastOutput.set(paneId, now);
    return true;
  }

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
    if (this.#setOutput && !this.#watched.has(paneId) && this.#listeners.size === 0) {
      if (!this.#off.has(paneId)) {
        this.#off.add(paneId);
        void this.#setOutput(paneId, false).catch(() => {});
      }
      return;
    }
    this.#lastOutput.set(paneId, at);
    for (const listener of this.#listeners) listener(paneId, at);
    const forPane = this.#paneListeners.get(paneId);
    if (forPane) for (const listener of forPane) listener(paneId, at);
  }
}
