import {findDialog} from '../agents/dialogs.js';
import {isIdle, turnIdle} from '../agents/idle-screen.js';
import {isAgent, type Profile} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isBusy} from '../agents/screens.js';
import {isPosixShell, isShellCommand} from '../agents/shell.js';
import {NudgeError} from '../base/errors.js';
import type {Pattern} from '../base/pattern.js';
import type {InputState} from '../process/foreground.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {cursorRow, type OutputMark, OutputReader, type PaneView} from '../tmux/view.js';
import {endingOnDialogs, type NeedsSignal, signalledNeed} from './blocked.js';
import {type IdleFacts, idleNow, shellPromptVisible} from './idle.js';
import {anyVisibleLine, ExitWatcher, RegexWatcher} from './output-watchers.js';
import type {Settling} from './settle.js';
import {compileRegex, type UntilSpec} from './until.js';
import {
  PromptWatcher,
  type ScreenWatchOptions,
  StableWatcher,
  type Verdict,
  viewKey,
  type Watcher,
} from './watchers.js';

/** Everything needed to build the watcher for a condition. */
export interface WatcherSetup {
  stableChecks: number;
  ignore: readonly string[];
  /** Key of the view just before Enter; undefined for `nudge wait` (nothing typed). */
  baselineKey: string | undefined;
  /** Checks without any change after which the reaction gate opens anyway. */
  graceChecks: number;
  /** The pane's foreground command when we started. */
  paneCommand: string;
  /** The pane is a shell's pane (default: its command is a shell): stable and prompt are
   * not done while another command runs in its foreground. */
  shellPane?: boolean | undefined;
  /** The program's profile (prompt: its idle composer and busy markers). */
  profile?: Profile | undefined;
  /** What the pane's foreground is doing, as last read (see ForegroundWatch). */
  input?: (() => InputState | undefined) | undefined;
  /** The agent in the pane, when its busy markers and composer should also say whether a
   * settled screen is idle (`nudge wait` and the watcher's idle step). */
  idleAgent?: Profile | undefined;
  /** The agent whose dialogs end the wait (`blocked`) the moment one shows, and the clock
   * that dates a usage limit's reset. */
  blockedBy?:
    | {profile: Profile | undefined; now: () => number; before?: PaneView; needs?: NeedsSignal}
    | undefined;
  /** Whether the agent has settled (its turn-end hook's marks since Enter, what still runs):
   * an agent at its idle composer is done only once it has (src/detect/settle.ts). */
  settling?: Settling | undefined;
  /** End as `unknown` where nothing can tell whether the program waits (ScreenWatchOptions). */
  endOnUnknown?: boolean | undefined;
  /** Where new output starts (regex and exit conditions). */
  mark: OutputMark;
  /** Lines of output searched by regex conditions. */
  lines: number;
  /** Lines already on screen at the start that never count as new output (agent TUIs
   * redraw their transcript above the cursor, so rows alone cannot tell). */
  seenLines?: ReadonlySet<string> | undefined;
  /** The exit sentinel pattern (`--until exit`). */
  exitPattern?: Pattern;
  failPatterns?: readonly Pattern[];
}

/** The idle-prompt test for `--until prompt[:NAME]` (and `turn`) on a pane running `command`
 * (with the detected `profile`), or why there is none. An agent is idle when its composer is
 * on screen, no busy marker is, and it has settled (`settling`: its turn-end hook's list of
 * what still runs, else its footer); without a Settling, its screen alone decides. */
export function promptTest(
  spec: Extract<UntilSpec, {kind: 'prompt'}>,
  command: string,
  profile?: Profile,
  settling?: Settling,
): ((view: PaneView) => boolean) | string {
  if (spec.pattern !== undefined)
    return anyVisibleLine(compileRegex(spec.pattern, '--until prompt:'));
  const name = spec.profile ?? profile?.name ?? (isShellCommand(command) ? 'shell' : undefined);
  const named = name === undefined ? undefined : name === profile?.name ? profile : PROFILES[name];
  if (name === 'shell' || named?.kind === 'shell') return shellPromptVisible;
  const agent = named && isAgent(named) ? named : undefined;
  if (agent && settling) return (view) => turnIdle(agent, view) && settling.judge(view).settled;
  if (agent) return (view) => (spec.turn ? turnIdle(agent, view) : isIdle(agent, view));
  return `no prompt profile knows "${command}"; use --until prompt:REGEX or --profile`;
}

/** A turn-end mark since Enter, nothing busy on screen, and settled: done at once. */
function hookSaysSettled(agent: Profile, view: PaneView, settling: Settling): boolean {
  return settling.hookEnded() && !isBusy(agent, view) && settling.judge(view).settled;
}

/** Build the watcher for `spec` — ending, when `blockedBy` names an agent with dialogs, the
 * moment one shows. Throws (NudgeError) on a bad regex or a prompt with no profile for the
 * pane's program. */
export function createWatcher(spec: UntilSpec, s: WatcherSetup): Watcher {
  const watcher = conditionWatcher(spec, s);
  const b = s.blockedBy;
  return b ? endingOnDialogs(watcher, b.profile, b.now, b.before, b.needs) : watcher;
}

function conditionWatcher(spec: UntilSpec, s: WatcherSetup): Watcher {
  const screen: ScreenWatchOptions = {
    baselineKey: s.baselineKey,
    graceChecks: s.graceChecks,
    ignore: s.ignore.map((i) => compileRegex(i, '--ignore')),
    shellPane: s.shellPane ?? isShellCommand(s.paneCommand),
    input: s.input,
    agent: s.idleAgent,
    endOnUnknown: s.endOnUnknown,
  };
  switch (spec.kind) {
    case 'stable':
      return new StableWatcher(s.stableChecks, {...screen, settling: s.settling});
    case 'prompt': {
      const settling = s.settling;
      const test = promptTest(spec, s.paneCommand, s.profile, settling);
      if (typeof test === 'string') throw new Error(test);
      const agent =
        spec.pattern === undefined && settling && s.profile && s.profile.busy.length > 0
          ? s.profile
          : undefined;
      return new PromptWatcher(test, screen, 2, {
        ...(agent && settling ? {decisive: (view) => hookSaysSettled(agent, view, settling)} : {}),
        ...(settling ? {settling} : {}),
      });
    }
    case 'regex':
      return new RegexWatcher(
        new OutputReader(s.mark),
        compileRegex(spec.pattern, '--until regex:'),
        s.failPatterns ?? [],
        s.lines,
        s.seenLines,
      );
    case 'exit':
      if (!s.exitPattern) throw new Error('Internal error: --until exit without a sentinel');
      return new ExitWatcher(new OutputReader(s.mark), s.exitPattern, [], s.lines);
  }
}

/** Refuse conditions that cannot work on this pane (exit 2), before anything is spawned. */
export function checkUntilFits(until: UntilSpec, info: PaneInfo, profile?: Profile): void {
  if (until.kind === 'exit' && !isPosixShell(info.currentCommand)) {
    throw new NudgeError(
      'bad-until',
      `--until exit needs a shell (bash, zsh, sh, dash, ksh) in pane ${info.paneId}, but it runs ${info.currentCommand}; use --until stable or prompt.`,
    );
  }
  if (until.kind === 'prompt') {
    const test = promptTest(until, info.currentCommand, profile);
    if (typeof test === 'string') throw new NudgeError('bad-until', `--until prompt: ${test}.`);
  }
}

/** Checks without any change after which the reaction gate opens anyway (text was typed). */
const GRACE_CHECKS = 2;

/**
 * The watcher for text just typed and submitted: the condition judged against the screen as it
 * was just before Enter. A shell prints below the command line; an agent's TUI redraws its
 * transcript above the cursor, so there new output is any line not on screen before Enter.
 */
export function watcherAfterEnter(
  spec: UntilSpec,
  s: Pick<
    WatcherSetup,
    'stableChecks' | 'ignore' | 'lines' | 'paneCommand' | 'settling' | 'input' | 'shellPane'
  > & {
    profile: Profile;
    before: PaneView;
    agent: boolean;
    /** The agent's dialogs end the wait (`blocked`). */
    endOnDialogs: boolean;
    exitPattern: Pattern;
    /** The clock that dates a usage limit's reset (an agent's dialogs end the wait). */
    now: () => number;
    /** The agent's own "waits for a person" signal (its notification hook). */
    needs: NeedsSignal;
  },
): Watcher {
  const {before, agent} = s;
  return createWatcher(spec, {
    stableChecks: s.stableChecks,
    ignore: s.ignore,
    lines: s.lines,
    paneCommand: s.paneCommand,
    shellPane: s.shellPane,
    profile: s.profile,
    settling: s.settling,
    input: s.input,
    exitPattern: s.exitPattern,
    baselineKey: viewKey(before, []),
    graceChecks: GRACE_CHECKS,
    mark: agent ? {row: before.historySize, col: 0} : {row: cursorRow(before) + 1, col: 0},
    seenLines: agent ? new Set(before.rows.map((r) => r.trim()).filter(Boolean)) : undefined,
    blockedBy: s.endOnDialogs
      ? {profile: s.profile, now: s.now, before, needs: s.needs}
      : undefined,
  });
}

/** What an IdleCondition reads before each look, besides the screen. */
export type IdleFactsReader = (view: PaneView) => Promise<Omit<IdleFacts, 'view'>>;

/**
 * `--when-idle` as a condition for waitUntil: done after `required` looks in a row that
 * idleNow calls idle, where (but for an agent at its composer, or the shell itself waiting at
 * its prompt) the screen also held still since the look before; `blocked` at once when the
 * agent waits for a person (a dialog, a usage limit dated by `now`). `read` gathers the facts
 * before each look (the pane's program, its foreground, a hook mark); it may throw to end the
 * wait (the pane is gone).
 */
export class IdleCondition implements Watcher {
  readonly historyRows = 0;
  #facts: Omit<IdleFacts, 'view'> | undefined;
  #lastKey: string | undefined;
  #inARow = 0;
  #busyLooks = 0;
  constructor(
    private readonly read: IdleFactsReader,
    private readonly now: () => number,
    private readonly required = 2,
  ) {}
  /** Looks so far that did not find the pane idle (a wait has begun once there is one). */
  get busyLooks(): number {
    return this.#busyLooks;
  }
  async prepare(view: PaneView): Promise<void> {
    this.#facts = await this.read(view);
  }
  observe(view: PaneView): Verdict {
    const facts = this.#facts;
    if (!facts) throw new Error('Internal error: IdleCondition.observe before prepare');
    const dialog = facts.agent
      ? (findDialog(facts.agent, view, this.now()) ??
        signalledNeed(facts.agent, view, facts.needs, Number.NEGATIVE_INFINITY))
      : undefined;
    if (dialog) return {status: 'blocked', dialog};
    const key = viewKey(view, []);
    const held = key === this.#lastKey;
    this.#lastKey = key;
    const now = idleNow({...facts, view});
    const atRest =
      facts.agent !== undefined ||
      (facts.input?.kind === 'waiting-for-input' && isShellCommand(facts.input.program));
    const idle = 'idle' in now && (atRest || held);
    this.#inARow = idle ? this.#inARow + 1 : 0;
    if (!idle) this.#busyLooks++;
    if ('idle' in now && this.#inARow >= this.required) return {status: 'done', why: now.idle};
    if ('busy' in now) return {status: 'pending', why: now.busy};
    if ('unknown' in now) return {status: 'pending', why: now.unknown};
    return {status: 'pending', why: 'the screen is still changing'};
  }
}
