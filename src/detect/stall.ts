import {formatDuration} from '../base/durations.js';
import type {Pattern} from '../base/pattern.js';
import type {PaneView} from '../tmux/view.js';
import {maskScreen} from './watchers.js';

/**
 * The stall watchdog: work that is not done, yet shows nothing new for `--stall` — no change
 * on the pane's screen (its busy row, where a spinner and a timer turn, and the `--ignore`
 * masks left out), no hook mark, no dialog. It reads the looks the wait takes anyway and the
 * pane's output times; it asks nothing of anyone (no model call).
 *
 * A stall is `quiet` when the pane printed nothing at all for the whole time, `spinning` when
 * only its masked rows moved (a spinner that turns over a stream that never comes).
 */
export type StallKind = 'quiet' | 'spinning';

/** One stall, as it began. */
export interface Stall {
  kind: StallKind;
  /** When nothing changed last (the stall's start), on the wait's clock. */
  sinceMs: number;
  /** How long nothing had changed when it was noticed. */
  quietMs: number;
  /** Which stall of this wait it is, from 1. */
  count: number;
}

/** What to do about a stall. */
export type OnStall =
  | {kind: 'notify'}
  /** Type `continueText` (only at an idle prompt, never into a dialog), at most `max` times;
   * after that, or when the pane is not idle, notify. */
  | {kind: 'continue'; max: number}
  /** End the wait as a timeout does (a run is stopped, a job's notice says so; a watcher
   * pauses). */
  | {kind: 'cancel'};

/** The watchdog's settings, kept in a job's request. */
export interface StallPolicy {
  stallMs: number;
  onStall: OnStall;
  continueText: string;
}

/** What one look told the watchdog. */
export interface StallLook {
  view: PaneView;
  nowMs: number;
  /** The pane's last output (the transport's output events), if known. */
  lastOutputMs?: number | undefined;
  /** A dialog is on screen: a person is asked; that is not a stall. */
  dialog: boolean;
  /** The program says it works (an agent's busy marker): a stall now is `spinning` — it
   * shows work and nothing comes — else `quiet`. Undefined (a shell, a program nudge does not
   * read): `spinning` when anything moved at all (a masked spinner, a clock). */
  busy?: boolean | undefined;
}

/** What a look changed: a stall began, or the one going on is over. */
export type StallChange = {began: Stall} | {over: {stall: Stall; lastedMs: number}} | undefined;

/**
 * The watchdog of one wait. Feed it every look (`observe`) and every hook mark (`touch`); it
 * says once when a stall begins and once when it is over (the screen moved again).
 */
export class StallWatch {
  #lastChangeMs: number;
  #lastRawChangeMs: number;
  #key: string | undefined;
  #raw: string | undefined;
  #current: Stall | undefined;
  #count = 0;

  constructor(
    private readonly stallMs: number,
    /** Rows that may move without counting as a change (an agent's busy markers). */
    private readonly busyRows: readonly Pattern[],
    /** `--ignore` masks. */
    private readonly ignore: readonly Pattern[],
    startMs: number,
    /** The rows where work shows (an agent's transcript, above its composer: the composer
     * and the footer under it are the program's own, a hint there is not work); default:
     * the visible screen. */
    private readonly workRows: (view: PaneView) => readonly string[] = visibleRows,
  ) {
    this.#lastChangeMs = startMs;
    this.#lastRawChangeMs = startMs;
  }

  /** The stall going on now, if any. */
  get current(): Stall | undefined {
    return this.#current;
  }

  /** Something other than the screen says the work moves (a hook mark, keys we typed): the
   * clock starts again. */
  touch(nowMs: number): StallChange {
    return this.#moved(nowMs);
  }

  observe(look: StallLook): StallChange {
    const rows = this.workRows(look.view);
    // What moved at all where work shows (a spinner, a masked clock): `spinning`, not `quiet`.
    const raw = rows.join('\n');
    const key = this.#keyOf(rows);
    const rawChanged = this.#raw !== undefined && raw !== this.#raw;
    const changed = this.#key !== undefined && key !== this.#key;
    this.#raw = raw;
    this.#key = key;
    if (rawChanged) this.#lastRawChangeMs = look.nowMs;
    // The pane's output times count where the whole screen is where work shows (an agent's
    // footer redrawn is output too, and not its spinner).
    if (look.lastOutputMs !== undefined && this.workRows === visibleRows)
      this.#lastRawChangeMs = Math.max(this.#lastRawChangeMs, look.lastOutputMs);
    if (changed || look.dialog) return this.#moved(look.nowMs);
    const quietMs = look.nowMs - this.#lastChangeMs;
    if (this.#current || quietMs < this.stallMs) return undefined;
    this.#count++;
    const moved = look.busy ?? this.#lastRawChangeMs > this.#lastChangeMs;
    this.#current = {
      kind: moved ? 'spinning' : 'quiet',
      sinceMs: this.#lastChangeMs,
      quietMs,
      count: this.#count,
    };
    return {began: this.#current};
  }

  #moved(nowMs: number): StallChange {
    this.#lastChangeMs = nowMs;
    this.#lastRawChangeMs = nowMs;
    const was = this.#current;
    this.#current = undefined;
    return was ? {over: {stall: was, lastedMs: nowMs - was.sinceMs}} : undefined;
  }

  /** The screen as compared: the busy rows and the `--ignore` matches left out. */
  #keyOf(rows: readonly string[]): string {
    const kept = rows.map((row) => (this.busyRows.some((b) => b.test(row)) ? '' : row));
    return maskScreen(kept.join('\n'), this.ignore);
  }
}

/** The visible screen's rows. */
function visibleRows(view: PaneView): readonly string[] {
  return view.rows.slice(Math.max(0, view.rows.length - view.height));
}

/** A stall in words: `quiet for 5m`, `only the spinner moved for 5m`. */
export function describeStall(stall: Pick<Stall, 'kind' | 'quietMs'>): string {
  return stall.kind === 'quiet'
    ? `no output for ${formatDuration(stall.quietMs)}`
    : `only its spinner moved for ${formatDuration(stall.quietMs)}`;
}

/** What a wait does with a stall it noticed: go on waiting, or end as `--on-stall cancel`
 * says. */
export type StallAnswer = 'go-on' | 'end';

/** A wait's watchdog and what is told of it. */
export interface StallHook {
  watch: StallWatch;
  /** A stall began (once per stall): record it, tell, type the continue line, or end. */
  began(stall: Stall, view: PaneView): Promise<StallAnswer>;
  /** The stall is over: the pane moved again. */
  over(stall: Stall, lastedMs: number): Promise<void>;
  /** Whether a dialog is on the screen. */
  dialogIn(view: PaneView): boolean;
  /** Whether the program says it works (undefined: it cannot say). */
  busyIn(view: PaneView): boolean | undefined;
}
