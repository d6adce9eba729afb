import type {FoundDialog} from '../agents/dialogs.js';
import type {Profile} from '../agents/profile.js';
import {type Pattern, replaceEvery} from '../base/pattern.js';
import type {InputState} from '../process/foreground.js';
import type {TmuxSearch} from '../tmux/search.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import {idleNow} from './idle.js';
import type {Settling} from './settle.js';

/** What a watcher concludes from one look at the pane. */
export type Verdict =
  | {status: 'pending'; why: string}
  | {status: 'done'; match?: string; line?: string; exitCode?: number; why?: string}
  | {status: 'failed'; match: string; line: string; pattern: string}
  /** Nothing can tell whether the program waits for input (the process view cannot see its
   * wait, its screen shows nothing known): a wait that asked to hear it ends (`nudge wait`). */
  | {status: 'unknown'; why: string}
  /** The program waits for a person (a dialog, a usage limit): the wait ends, nothing typed. */
  | {status: 'blocked'; dialog: FoundDialog};

/** A "done" test fed one PaneView per check. Pure: no tmux, no clock. */
export interface Watcher {
  /** Scrollback rows the next view should include (0: the visible screen is enough). */
  readonly historyRows: number;
  /** Rows beyond `historyRows` the view must include to miss nothing (see OutputReader). */
  missingRows?(view: PaneView): number;
  /** A condition that reads more than the screen (the pane's program, a hook mark, a dialog):
   * called with each view before it is judged. It may throw to end the wait. */
  prepare?(view: PaneView): Promise<void>;
  observe(view: PaneView): Verdict;
  /** Event-driven waiting (the transport reports the pane's output): judge a view with what
   * the output events tell about it. Watchers without it are fed `observe` instead. */
  observeEvents?(view: PaneView, facts: EventFacts): Verdict;
  /** False when no verdict reads the pane's foreground (a look then skips reading it). */
  readonly readsForeground?: boolean;
  /** Set when the wait can only end on a row that one of these searches matches (tmux's own,
   * src/tmux/search.ts): a busy pane is then reported to the wait only when one may show. */
  readonly searches?: readonly TmuxSearch[] | undefined;
  /** Set when silence alone can say when to look: the condition can only hold once the pane
   * has printed nothing for this long, so the wait reads the screen only then (to confirm).
   * Undefined: the wait reads the screen after output and at every interval. */
  quietWindowMs?(intervalMs: number): number | undefined;
}

/** What output events tell about a view taken during an event-driven wait. All times are
 * on the wait's clock, in ms. */
export interface EventFacts {
  /** When the view was taken. */
  at: number;
  /** The screen cannot have changed since: the pane's last output before the view was
   * taken, or when we typed, if later. */
  quietSince: number;
  /** When we last typed into the pane (Enter): reactions count from here. */
  typedAt: number;
  /** Whether the pane printed anything after `typedAt`. */
  printedSinceTyped: boolean;
  /** The wait's interval: stability windows and grace periods are whole intervals. */
  intervalMs: number;
}

/** Apply `--ignore` masks: each match is blanked before screens are compared. */
export function maskScreen(text: string, ignore: readonly Pattern[]): string {
  let out = text;
  for (const re of ignore) out = replaceEvery(re, out, '');
  return out;
}

/** The comparison key of a view: masked visible text plus the cursor position. */
export function viewKey(view: PaneView, ignore: readonly Pattern[]): string {
  return `${view.cursorX},${view.cursorY}\n${maskScreen(visibleText(view), ignore)}`;
}

/**
 * "The pane reacted to what we did": a view that differs from the one taken just before
 * Enter, or, when nothing changes at all (no echo), the grace period has passed. Until then
 * no condition may call the pane done, so a check armed right after Enter never fires on
 * the screen as it was before the work started.
 */
export class ReactionGate {
  #seen: boolean;
  #checks = 0;
  constructor(
    private readonly baselineKey: string | undefined,
    private readonly graceChecks: number,
  ) {
    this.#seen = baselineKey === undefined;
  }
  /** Feed the key of a view; true once the pane has reacted (or the grace has passed). */
  passed(key: string): boolean {
    this.#checks++;
    if (!this.#seen && (key !== this.baselineKey || this.#checks > this.graceChecks))
      this.#seen = true;
    return this.#seen;
  }
  /** The same gate when output events are known: the pane reacted if the view differs from
   * the baseline or the pane printed after Enter; the grace period is the time the grace
   * checks would have taken (`graceChecks` intervals after Enter). */
  passedOnEvents(key: string, f: EventFacts): boolean {
    this.#checks++;
    if (
      !this.#seen &&
      (key !== this.baselineKey ||
        f.printedSinceTyped ||
        f.at - f.typedAt >= this.graceChecks * f.intervalMs)
    )
      this.#seen = true;
    return this.#seen;
  }
}

/** Shared options of the screen-state watchers. */
export interface ScreenWatchOptions {
  /** Key of the view just before Enter (undefined: no gate, e.g. `nudge wait`). */
  baselineKey: string | undefined;
  graceChecks: number;
  ignore: readonly Pattern[];
  /** The pane ran a shell when we typed: not done while another command is in the
   * foreground (process liveness as a second opinion), unless that command waits for input. */
  shellPane: boolean;
  /** What the pane's foreground is doing, as last read (the wait refreshes it before each
   * look); undefined where nobody reads it. */
  input?: (() => InputState | undefined) | undefined;
  /** The agent in the pane, whose busy markers and composer say whether a settled screen is
   * idle (`nudge wait`, the watcher); undefined where the screen alone decides. */
  agent?: Profile | undefined;
  /** End the wait as `unknown` when nothing can tell whether a settled pane's program waits for
   * input (`nudge wait` asks; a job waits on, its reason saying so). */
  endOnUnknown?: boolean | undefined;
  /** An agent's pane: a still screen is done only once the agent has settled (its turn-end
   * hook's list of what still runs, else its footer; src/detect/settle.ts). */
  settling?: Settling | undefined;
}

/** The verdict once the screen has settled: done, or busy by liveness, or (where nothing can
 * tell) unknown — the end of a wait that asked for it, else a reason to go on waiting. */
function settled(view: PaneView, o: ScreenWatchOptions): Verdict {
  const l = idleNow({
    view,
    agent: o.agent,
    shellPane: o.shellPane,
    input: o.input?.(),
    freshMark: false,
  });
  if ('idle' in l) {
    const s = o.settling?.judge(view);
    return s && !s.settled ? {status: 'pending', why: s.why} : {status: 'done', why: l.idle};
  }
  if ('busy' in l) return {status: 'pending', why: l.busy};
  return o.endOnUnknown ? {status: 'unknown', why: l.unknown} : {status: 'pending', why: l.unknown};
}

/** Why a prompt watcher is done on a turn-end hook. */
const HOOK_IDLE = "idle: the agent's turn-end hook reported";

/** Why a stable condition is not met while the screen changes. */
export const CHANGING = 'the screen is still changing';
/** The reason of a screen that did not change but was not looked at for a whole window. */
export const NOT_STILL_YET = 'the screen has not been still for one whole stability window yet';

/**
 * Done after `stableChecks` stable checks in a row, `--interval` apart, where a check is
 * stable when its (masked) view equals the previous one (the seed's count): the screen did
 * not change for `stableChecks` intervals, so 3 checks at 1 s mean 3 s of stillness.
 *
 * With output events (observeEvents) the same rule is read as a time window: done once the
 * (masked) screen has not changed for `windowMs` = `stableChecks` intervals.
 * Without masks, only output changes the screen, so the window is exact from the pane's last
 * output and one view at its end confirms the rest (the reaction gate, process liveness).
 * With masks, output may change only masked text: the views taken after output tell whether
 * the masked screen changed, and the window runs from the last output before the view that
 * first showed the current screen.
 */
export class StableWatcher implements Watcher {
  readonly historyRows = 0;
  #gate: ReactionGate;
  #lastKey: string | undefined;
  #stable = 0;
  /** Event-driven state: the masked key of the last view, and since when it is unchanged. */
  #eventKey: string | undefined;
  #unchangedSince = Number.NEGATIVE_INFINITY;
  constructor(
    private readonly stableChecks: number,
    private readonly o: ScreenWatchOptions,
  ) {
    this.#gate = new ReactionGate(o.baselineKey, o.graceChecks);
  }
  async prepare(view: PaneView): Promise<void> {
    await this.o.settling?.prepare(view);
  }
  observe(view: PaneView): Verdict {
    if (this.o.settling?.settledByHook(view)) return {status: 'done', why: HOOK_IDLE};
    const key = viewKey(view, this.o.ignore);
    if (!this.#gate.passed(key)) return {status: 'pending', why: 'waiting for the pane to react'};
    const changed = this.#lastKey !== undefined && key !== this.#lastKey;
    this.#stable = key === this.#lastKey ? this.#stable + 1 : 0;
    this.#lastKey = key;
    if (this.#stable < this.stableChecks) {
      // Busy by liveness says more than "changing" while the screen is still.
      const now = settled(view, this.o);
      if (now.status === 'pending' && this.#stable > 0) return now;
      // "Changing" only when two looks differed: a first look, or a screen still for fewer
      // looks than the window needs (`wait --timeout 2s` on an idle pane), has not changed.
      return {status: 'pending', why: changed ? CHANGING : NOT_STILL_YET};
    }
    return settled(view, this.o);
  }
  /** The stability window: `stableChecks` intervals. */
  windowMs(intervalMs: number): number {
    return intervalMs * Math.max(1, this.stableChecks);
  }
  quietWindowMs(intervalMs: number): number | undefined {
    // Masked text (a clock) prints while the screen we compare stays the same: silence
    // cannot be required, the views decide.
    return this.o.ignore.length === 0 ? this.windowMs(intervalMs) : undefined;
  }
  observeEvents(view: PaneView, f: EventFacts): Verdict {
    if (this.o.settling?.settledByHook(view)) return {status: 'done', why: HOOK_IDLE};
    // Counting stable views (observe) starts afresh should the wait fall back to polling.
    this.#stable = 0;
    this.#lastKey = undefined;
    const key = viewKey(view, this.o.ignore);
    if (this.o.ignore.length === 0 || key !== this.#eventKey) this.#unchangedSince = f.quietSince;
    this.#eventKey = key;
    if (!this.#gate.passedOnEvents(key, f))
      return {status: 'pending', why: 'waiting for the pane to react'};
    const window = this.windowMs(f.intervalMs);
    const unchanged = f.at - this.#unchangedSince;
    if (unchanged < window) {
      const now = settled(view, this.o);
      return now.status === 'pending' && unchanged > 0 ? now : {status: 'pending', why: CHANGING};
    }
    return settled(view, this.o);
  }
}

/** Done when the idle prompt (a profile's or a regex on any visible line) shows on two
 * consecutive checks. */
export class PromptWatcher implements Watcher {
  readonly historyRows = 0;
  #gate: ReactionGate;
  #inARow = 0;
  constructor(
    private readonly matches: (view: PaneView) => boolean,
    private readonly o: ScreenWatchOptions,
    private readonly required = 2,
    private readonly agent: {
      /** Evidence that settles it at once (a turn-end hook mark since Enter saying nothing
       * still runs, nothing busy on screen): no reaction gate and no second look. */
      decisive?: (view: PaneView) => boolean;
      /** Whether the agent has settled (src/detect/settle.ts): read before each look, and
       * why it has not, while its composer is idle. */
      settling?: Settling;
    } = {},
  ) {
    this.#gate = new ReactionGate(o.baselineKey, o.graceChecks);
  }
  async prepare(view: PaneView): Promise<void> {
    await this.agent.settling?.prepare(view);
  }
  observe(view: PaneView): Verdict {
    if (this.agent.decisive?.(view)) return {status: 'done', why: HOOK_IDLE};
    if (!this.#gate.passed(viewKey(view, this.o.ignore)))
      return {status: 'pending', why: 'waiting for the pane to react'};
    return this.#count(view);
  }
  /** Views come after output settles and at each quiet interval; the gate also opens on
   * output after Enter, and its grace is time. */
  observeEvents(view: PaneView, f: EventFacts): Verdict {
    if (this.agent.decisive?.(view)) return {status: 'done', why: HOOK_IDLE};
    if (!this.#gate.passedOnEvents(viewKey(view, this.o.ignore), f))
      return {status: 'pending', why: 'waiting for the pane to react'};
    return this.#count(view);
  }
  #count(view: PaneView): Verdict {
    const now = settled(view, this.o);
    // The prompt itself says the program waits; only a known-running one vetoes it.
    const idle = this.matches(view) && (now.status === 'done' || now.status === 'unknown');
    this.#inARow = idle ? this.#inARow + 1 : 0;
    if (this.#inARow >= this.required) return {status: 'done', why: 'idle: at its prompt'};
    if (now.status === 'unknown') return {status: 'pending', why: now.why};
    const last = this.agent.settling?.last;
    if (last && !last.settled) return {status: 'pending', why: last.why};
    return now.status === 'pending' ? now : {status: 'pending', why: 'no idle prompt yet'};
  }
}

/**
 * What a pane's foreground is doing, read again before each look of a wait: the watcher's
 * liveness reads `state`. Where /proc cannot tell, `onUnknown` hears why once (the job
 * records it), and liveness decides as it did before.
 */
export class ForegroundWatch {
  state: InputState | undefined;
  #told = false;
  constructor(
    private readonly probe: () => Promise<InputState>,
    private readonly onUnknown: (why: string) => void = () => {},
  ) {}
  async refresh(): Promise<void> {
    this.state = await this.probe();
    if (this.state.kind === 'unknown' && !this.#told) {
      this.#told = true;
      this.onUnknown(this.state.why);
    }
  }
}

/**
 * `watcher`, telling `onFirst` once — the first look where `test` holds (an agent shown at
 * work after Enter: its turn started). Everything else is the watcher's own.
 */
export function noticing(
  watcher: Watcher,
  test: (view: PaneView) => boolean,
  onFirst: () => void,
): Watcher {
  let told = false;
  const look = (view: PaneView) => {
    if (told || !test(view)) return;
    told = true;
    onFirst();
  };
  const w: Watcher = {
    get historyRows() {
      return watcher.historyRows;
    },
    get readsForeground() {
      return watcher.readsForeground;
    },
    get searches() {
      return watcher.searches;
    },
    observe(view) {
      look(view);
      return watcher.observe(view);
    },
  };
  if (watcher.missingRows) w.missingRows = (view) => watcher.missingRows?.(view) ?? 0;
  if (watcher.prepare) w.prepare = (view) => watcher.prepare?.(view) ?? Promise.resolve();
  const events = watcher.observeEvents?.bind(watcher);
  if (events)
    w.observeEvents = (view, facts) => {
      look(view);
      return events(view, facts);
    };
  if (watcher.quietWindowMs) w.quietWindowMs = (ms) => watcher.quietWindowMs?.(ms);
  return w;
}
