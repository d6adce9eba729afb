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

/** Listeners of one key each (a pane's), told with that key's value; a key whose last listener
 * left is forgotten. */
export class KeyedListeners<K, T = void> {
  readonly #byKey = new Map<K, Set<(value: T) => void>>();

  /** Hear `key`; returns the call that stops it. */
  add(key: K, listener: (value: T) => void): () => void {
    let set = this.#byKey.get(key);
    if (!set) {
      set = new Set();
      this.#byKey.set(key, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#byKey.get(key) === set) this.#byKey.delete(key);
    };
  }

  /** Whether anyone listens to `key`. */
  has(key: K): boolean {
    return this.#byKey.has(key);
  }

  /** Tell `key`'s listeners (a copy of them: one may leave while told). */
  emit(key: K, value: T): void {
    const set = this.#byKey.get(key);
    if (set) for (const listener of [...set]) listener(value);
  }
}
