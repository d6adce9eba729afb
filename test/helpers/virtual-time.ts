import type {Clock} from '../../src/base/clock.js';
import {type PaneActivity, untilAborted} from '../../src/tmux/activity.js';
import type {FollowKind, FollowNeed} from '../../src/tmux/follow-format.js';
import {TmuxCommandError} from '../../src/tmux/runner.js';
import type {Tmux} from '../../src/tmux/tmux.js';
import type {PaneView} from '../../src/tmux/view.js';

interface Timer {
  at: number;
  seq: number;
  fire(): void;
}

/**
 * Virtual time for loops that race timers against events: sleep() and scheduled events are
 * timers; run() fires them in time order, each only once everything the previous one set off
 * has settled. So "which came first" follows virtual time, not the order of promise chains,
 * and a wait of an hour runs in milliseconds.
 */
export class VirtualClock implements Clock {
  readonly start: number;
  #timers: Timer[] = [];
  #seq = 0;
  constructor(public time = 1_700_000_000_000) {
    this.start = time;
  }
  now(): number {
    return this.time;
  }
  wall(): number {
    return this.time;
  }
  /** Virtual ms since the clock was made. */
  elapsed(): number {
    return this.time - this.start;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.time + Math.max(0, ms),
        seq: this.#seq++,
        fire: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, {once: true});
      this.#timers.push(timer);
    });
  }
  /** Run `fn` at `elapsedMs` after the clock's start. */
  at(elapsedMs: number, fn: () => void): void {
    this.#timers.push({at: this.start + elapsedMs, seq: this.#seq++, fire: fn});
  }
  /** Drive time until `promise` settles; fail if nothing is left to fire, or after
   * `limitMs` of virtual time. */
  async run<T>(promise: Promise<T>, limitMs = 24 * 3_600_000): Promise<T> {
    let settled = false;
    promise.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    const end = this.time + limitMs;
    for (;;) {
      // Everything that is not waiting on a timer runs to its next await on one.
      await new Promise((resolve) => setImmediate(resolve));
      if (settled) return promise;
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers.shift();
      if (!next) throw new Error('virtual time: the promise waits, but nothing is scheduled');
      if (next.at > end) throw new Error(`virtual time: still waiting after ${limitMs} ms`);
      this.time = Math.max(this.time, next.at);
      next.fire();
    }
  }
}

/** A pane played in memory: lines printed at virtual times, output events for them, views
 * of its screen, and the times views were taken. */
export class ScriptedPane implements PaneActivity {
  readonly id = '%1';
  /** Every line printed, oldest first; the last `height` are the screen. The cursor sits
   * at the end of the last line. */
  lines: string[];
  /** What runs in the pane's foreground. */
  currentCommand = 'node';
  /** Virtual elapsed ms of every view taken. */
  readonly viewsAt: number[] = [];
  /** Whether the events reach this pane (false: another session). */
  inReach = true;
  /** The pane was closed (killed): describePane finds nothing, a view fails. */
  closed = false;
  /** Virtual elapsed ms of every describePane (the wait's checks that the pane exists). */
  readonly checksAt: number[] = [];
  #ended = false;
  #last: number | undefined;
  #outputListeners = new Set<() => void>();
  #endListeners = new Set<() => void>();
  #layoutListeners = new Set<() => void>();

  constructor(
    readonly clock: VirtualClock,
    initial: string[] = ['$ '],
    readonly height = 5,
  ) {
    this.lines = [...initial];
  }

  /** Print `line` (replacing the last line if `replace`) now: an output event. */
  print(line: string, replace = false): void {
    if (replace) this.lines[this.lines.length - 1] = line;
    else this.lines.push(line);
    this.#last = this.clock.now();
    for (const listener of [...this.#outputListeners]) listener();
  }
  /** Print at `elapsedMs`. */
  printAt(elapsedMs: number, line: string, replace = false): void {
    this.clock.at(elapsedMs, () => this.print(line, replace));
  }
  /** Print `line(i)` every `everyMs` from `fromMs` until `untilMs`. */
  printEvery(everyMs: number, fromMs: number, untilMs: number, line: (i: number) => string) {
    for (let t = fromMs, i = 0; t <= untilMs; t += everyMs, i++) this.printAt(t, line(i), true);
  }
  /** The event source ends (the control client went away). */
  end(): void {
    this.#ended = true;
    for (const listener of [...this.#endListeners]) listener();
  }

  // PaneActivity
  get isEnded(): boolean {
    return this.#ended;
  }
  async covers(): Promise<boolean> {
    return this.inReach && !this.#ended;
  }
  lastOutputAt(): number | undefined {
    return this.#last;
  }
  printedAfter(_pane: string, at: number): boolean {
    return this.#last !== undefined && this.#last > at;
  }
  async settled(): Promise<void> {}
  followed(): boolean {
    return false;
  }
  followedAs(): FollowKind | undefined {
    return undefined;
  }
  /** How many holds are on the pane now (the wait holds it while it follows events). */
  holds = 0;
  /** What each hold asked to be told of the pane while busy (src/tmux/follow-format.ts). */
  needs: (FollowNeed | undefined)[] = [];
  hold(_pane: string, need?: FollowNeed): () => void {
    this.needs.push(need);
    this.holds++;
    let released = false;
    return () => {
      if (!released) this.holds--;
      released = true;
    };
  }
  nextOutput(_pane: string, signal: AbortSignal): Promise<void> {
    return untilAborted<void>(signal, (resolve) => {
      if (this.#ended) {
        resolve();
        return () => {};
      }
      this.#outputListeners.add(resolve);
      this.#endListeners.add(resolve);
      return () => {
        this.#outputListeners.delete(resolve);
        this.#endListeners.delete(resolve);
      };
    });
  }
  ended(signal: AbortSignal): Promise<void> {
    return untilAborted<void>(signal, (resolve) => {
      if (this.#ended) {
        resolve();
        return () => {};
      }
      this.#endListeners.add(resolve);
      return () => this.#endListeners.delete(resolve);
    });
  }
  layoutChanged(signal: AbortSignal): Promise<void> {
    return untilAborted<void>(signal, (resolve) => {
      this.#layoutListeners.add(resolve);
      this.#endListeners.add(resolve);
      return () => {
        this.#layoutListeners.delete(resolve);
        this.#endListeners.delete(resolve);
      };
    });
  }
  /** Panes came or went (a layout notification), at `elapsedMs`; with `close`, this pane is
   * the one that closed. */
  layoutChangeAt(elapsedMs: number, close = false): void {
    this.clock.at(elapsedMs, () => {
      if (close) this.closed = true;
      for (const listener of [...this.#layoutListeners]) listener();
    });
  }

  /** The current view with up to `historyRows` rows of scrollback, as tmux.view gives it. */
  view(historyRows = 0): PaneView {
    const historySize = Math.max(0, this.lines.length - this.height);
    const screen = this.lines.slice(historySize);
    const cursorY = screen.length - 1;
    const cursorX = (screen[cursorY] ?? '').length;
    while (screen.length < this.height) screen.push('');
    const history = this.lines.slice(Math.max(0, historySize - historyRows), historySize);
    return {
      rows: [...history, ...screen],
      firstRow: historySize - history.length,
      historySize,
      historyLimit: 100_000,
      height: this.height,
      width: 80,
      cursorX,
      cursorY,
      dead: false,
      alternateOn: false,
      currentCommand: this.currentCommand,
    };
  }

  /** A Tmux whose view() reads this pane (and counts); anything else fails the test. */
  tmux(): Tmux {
    const unexpected = (name: string) => () => {
      throw new Error(`unexpected tmux.${name} in a wait`);
    };
    return {
      view: async (_pane: string, historyRows: number) => {
        this.viewsAt.push(this.clock.elapsed());
        if (this.closed) throw new TmuxCommandError('no-target', '', `can't find pane: ${this.id}`);
        return this.view(historyRows);
      },
      // The wait checks now and then that a quiet pane still exists.
      describePane: async (pane: string) => {
        this.checksAt.push(this.clock.elapsed());
        return this.closed ? undefined : {paneId: pane, dead: false};
      },
      capture: unexpected('capture'),
      typeLiteral: unexpected('typeLiteral'),
      pressKeys: unexpected('pressKeys'),
      leaveMode: unexpected('leaveMode'),
      killPane: unexpected('killPane'),
      openPane: unexpected('openPane'),
      recentSession: unexpected('recentSession'),
    } as unknown as Tmux;
  }
}
