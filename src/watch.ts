import {
  cursorLine,
  type OutputLine,
  type OutputReader,
  type PaneView,
  visibleText,
} from './pane-view.js';
import {isShellCommand} from './profile.js';

/** What a watcher concludes from one look at the pane. */
export type Verdict =
  | {status: 'pending'; why: string}
  | {status: 'done'; match?: string; line?: string; exitCode?: number}
  | {status: 'failed'; match: string; line: string; pattern: string};

/** A "done" test fed one PaneView per check. Pure: no tmux, no clock. */
export interface Watcher {
  /** Scrollback rows the next view should include (0: the visible screen is enough). */
  readonly historyRows: number;
  /** Rows beyond `historyRows` the view must include to miss nothing (see OutputReader). */
  missingRows?(view: PaneView): number;
  observe(view: PaneView): Verdict;
}

/** Apply `--ignore` masks: each match is blanked before screens are compared. */
export function maskScreen(text: string, ignore: readonly RegExp[]): string {
  let out = text;
  for (const re of ignore)
    out = out.replace(new RegExp(re.source, `${re.flags.replace('g', '')}g`), '');
  return out;
}

/** The comparison key of a view: masked visible text plus the cursor position. */
export function viewKey(view: PaneView, ignore: readonly RegExp[]): string {
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
}

/** Shared options of the screen-state watchers. */
export interface ScreenWatchOptions {
  /** Key of the view just before Enter (undefined: no gate, e.g. `nudge wait`). */
  baselineKey: string | undefined;
  graceChecks: number;
  ignore: readonly RegExp[];
  /** The pane ran a shell when we typed: not done while another command is in the
   * foreground (process liveness as a second opinion). */
  shellPane: boolean;
}

function busyShell(view: PaneView, o: ScreenWatchOptions): string | undefined {
  return o.shellPane && !isShellCommand(view.currentCommand)
    ? `${view.currentCommand} is still running in the foreground`
    : undefined;
}

/** Done after `stableChecks` identical (masked) views in a row. */
export class StableWatcher implements Watcher {
  readonly historyRows = 0;
  #gate: ReactionGate;
  #lastKey: string | undefined;
  #identical = 0;
  constructor(
    private readonly stableChecks: number,
    private readonly o: ScreenWatchOptions,
  ) {
    this.#gate = new ReactionGate(o.baselineKey, o.graceChecks);
  }
  observe(view: PaneView): Verdict {
    const key = viewKey(view, this.o.ignore);
    if (!this.#gate.passed(key)) return {status: 'pending', why: 'waiting for the pane to react'};
    this.#identical = key === this.#lastKey ? this.#identical + 1 : 1;
    this.#lastKey = key;
    if (this.#identical < this.stableChecks)
      return {status: 'pending', why: `${this.#identical} identical`};
    const busy = busyShell(view, this.o);
    return busy ? {status: 'pending', why: busy} : {status: 'done'};
  }
}

/** The shell's idle prompt: the cursor sits right after a prompt character. */
export function shellPromptVisible(view: PaneView): boolean {
  const line = cursorLine(view).trimEnd();
  return /[$#%>❯»]$/.test(line) && view.cursorX >= [...line].length;
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
  ) {
    this.#gate = new ReactionGate(o.baselineKey, o.graceChecks);
  }
  observe(view: PaneView): Verdict {
    if (!this.#gate.passed(viewKey(view, this.o.ignore)))
      return {status: 'pending', why: 'waiting for the pane to react'};
    const idle = this.matches(view) && busyShell(view, this.o) === undefined;
    this.#inARow = idle ? this.#inARow + 1 : 0;
    return this.#inARow >= this.required
      ? {status: 'done'}
      : {status: 'pending', why: `prompt seen ${this.#inARow}x`};
  }
}

/** A regex tested line by line against the visible screen. */
export function anyVisibleLine(pattern: RegExp): (view: PaneView) => boolean {
  return (view) =>
    visibleText(view)
      .split('\n')
      .some((line) => pattern.test(line));
}

/** Find the first line matching `pattern`; the match and the whole line. */
export function findMatch(
  lines: readonly OutputLine[],
  pattern: RegExp,
): {match: string; line: string} | undefined {
  for (const l of lines) {
    const m = pattern.exec(l.text);
    if (m) return {match: m[0], line: l.full ?? l.text};
  }
  return undefined;
}

/**
 * Done when `pattern` shows in output written after the mark (text already on screen does
 * not count); failed when a fail pattern shows first. Searches at most the last `lines`
 * lines of new output plus everything new since the previous check, so output that scrolls
 * far between two checks is still searched.
 */
export class RegexWatcher implements Watcher {
  #reader: OutputReader;
  #historyRows: number;
  constructor(
    reader: OutputReader,
    private readonly pattern: RegExp,
    private readonly failPatterns: readonly RegExp[],
    private readonly lines: number,
  ) {
    this.#reader = reader;
    this.#historyRows = lines;
  }
  get historyRows(): number {
    return this.#historyRows;
  }
  missingRows(view: PaneView): number {
    return this.#reader.missingRows(view);
  }
  /** All new output seen by the last check (for `--action return_output`). */
  lastOutput: OutputLine[] = [];
  observe(view: PaneView): Verdict {
    const {lines} = this.#reader.read(view);
    this.lastOutput = lines;
    this.#historyRows = this.lines;
    for (const l of lines) {
      for (const fail of this.failPatterns) {
        const m = fail.exec(l.text);
        if (m) return {status: 'failed', match: m[0], line: l.full ?? l.text, pattern: fail.source};
      }
      const m = this.pattern.exec(l.text);
      if (m) return {status: 'done', match: m[0], line: l.full ?? l.text};
    }
    return {status: 'pending', why: 'no match yet'};
  }
}

/** The sentinel that `--until exit` appends: unique per job, and the echo of the typed
 * command (which holds `%s`, not digits) can never match it. */
export function exitSentinel(token: string): {command: string; pattern: RegExp} {
  return {
    command: `} ; printf '\\n__NUDGE_%s_EXIT_%s__\\n' ${token} "$?"`,
    pattern: new RegExp(`__NUDGE_${token}_EXIT_(\\d+)__`),
  };
}

/** Done when the job's exit sentinel shows; reports the command's exit status. */
export class ExitWatcher extends RegexWatcher {
  override observe(view: PaneView): Verdict {
    const verdict = super.observe(view);
    if (verdict.status !== 'done') return verdict;
    const code = /_EXIT_(\d+)__/.exec(verdict.match ?? '')?.[1];
    return {status: 'done', exitCode: Number(code)};
  }
}
