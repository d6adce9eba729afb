/** A set of listeners told of one kind of thing (a control client's notification lines). */
export class Listeners<T> {
  readonly #listeners = new Set<(value: T) => void>();

  /** Hear each value; returns the call that stops it. */
  add(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tell every listener. */
  emit(value: T): void {
    for (const listener of this.#listeners) listener(value);
  }
}
