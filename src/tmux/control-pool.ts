/**
 * One control client per tmux session for every job of a process (the server's waiter,
 * src/waiter/waiter.ts): fifty jobs waiting in one session hold one `tmux -C` client, not fifty.
 * Each job gets the shared transport with a close of its own; the client ends when the last
 * job using it closes. A client that has ended (the session killed, the client killed) is not
 * handed out again: the next job attaches a new one.
 */
export interface ControlPool {
  /** The transport for `key` (a server and session): the live shared one, else `open()`'s. */
  share<T extends Shareable>(key: string, open: () => Promise<T>): Promise<T>;
  /** How many clients are shared now (for tests and the bench). */
  readonly size: number;
}

/** What the pool needs of a transport (src/tmux/transport.ts's Transport). */
export interface Shareable {
  kind: 'control' | 'spawn';
  control: {readonly isClosed: boolean} | undefined;
  close(): Promise<void>;
}

interface Shared {
  opening: Promise<Shareable>;
  users: number;
}

export function createControlPool(): ControlPool {
  const shared = new Map<string, Shared>();
  return {
    get size() {
      return shared.size;
    },
    async share<T extends Shareable>(key: string, open: () => Promise<T>): Promise<T> {
      let entry = shared.get(key);
      const ended = entry && (await entry.opening.catch(() => undefined))?.control?.isClosed;
      if (!entry || ended) {
        entry = {opening: open(), users: 0};
        shared.set(key, entry);
      }
      const mine = entry;
      mine.users++;
      let transport: T;
      try {
        // The entry under `key` was opened by an `open` of the same T.
        transport = (await mine.opening) as T;
      } catch (error) {
        mine.users--;
        if (shared.get(key) === mine) shared.delete(key);
        throw error;
      }
      // Only a control client is worth sharing; a spawn transport has nothing to keep.
      if (transport.kind !== 'control' && shared.get(key) === mine) shared.delete(key);
      let closed = false;
      return {
        ...transport,
        close: async () => {
          if (closed) return;
          closed = true;
          mine.users--;
          if (mine.users > 0) return;
          if (shared.get(key) === mine) shared.delete(key);
          await transport.close();
        },
      };
    },
  };
}
