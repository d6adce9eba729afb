import {isIdle} from '../agents/idle-screen.js';
import type {Profile} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {readComposerState} from '../agents/screens.js';
import {isPosixShell, isShellCommand} from '../agents/shell.js';
import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {shellWord} from '../base/shell.js';
import {waitUntil} from '../detect/wait-until.js';
import type {Verdict, Watcher} from '../detect/watchers.js';
import {type Delivered, deliver} from '../pane/deliver.js';
import {PaneFailure} from '../pane/failures.js';
import type {PaneIo} from '../pane/keys.js';
import type {Foreground, InputState} from '../process/foreground.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';

/** How long a new pane's shell may take to show its prompt, and an agent its composer. */
const SHELL_READY_MS = 30_000;
const AGENT_READY_MS = 120_000;
/** How long after typing the agent's command the shell may still be at its prompt. */
const NEVER_STARTED_MS = 5_000;
/** The pause before Enter when the agent's launch command is typed. */
const LAUNCH_ENTER_DELAY_MS = 100;

/** What starting in the run's pane needs. */
export interface StartDeps {
  tmux: Tmux;
  clock: Clock;
  foreground: Foreground;
}

/** How often a starting pane is looked at. */
const SHELL_LOOK_MS = 200;
const AGENT_LOOK_MS = 300;

/** Wait for the new pane's shell: a POSIX shell in the foreground, its screen settled. */
export async function shellReady(
  deps: StartDeps,
  pane: string,
  signal: AbortSignal,
): Promise<PaneInfo> {
  const ready = new ShellReady(deps, pane);
  const waited = await waitUntil(deps.tmux, pane, ready, {
    intervalMs: SHELL_LOOK_MS,
    timeoutMs: SHELL_READY_MS,
    clock: deps.clock,
    signal,
  }).catch((error: unknown) => {
    if (error instanceof TmuxCommandError && error.kind === 'no-target') throw ready.closed();
    throw error;
  });
  const last = ready.info;
  if (waited.status === 'done' && last) return last;
  throw new PaneFailure(
    !last || isPosixShell(last.currentCommand)
      ? `The new pane's shell showed no settled prompt within ${formatDuration(SHELL_READY_MS)}.`
      : `The new pane runs ${last.currentCommand}, not a POSIX shell; nudge run types into sh, bash, zsh, dash or ksh (set tmux's default-shell).`,
  );
}

/** The new pane's shell is ready: a POSIX shell whose screen shows something and held still
 * since the look before, with nothing running in its foreground. */
class ShellReady implements Watcher {
  readonly historyRows = 0;
  info: PaneInfo | undefined;
  #input: InputState | undefined;
  #previous: string | undefined;
  constructor(
    private readonly deps: StartDeps,
    private readonly pane: string,
  ) {}
  closed(): PaneFailure {
    return new PaneFailure(`The run's pane ${this.pane} closed before it started.`);
  }
  async prepare(): Promise<void> {
    const info = await this.deps.tmux.describePane(this.pane);
    if (!info) throw this.closed();
    this.info = info;
    this.#input = isPosixShell(info.currentCommand)
      ? await this.deps.foreground.inputState(info.panePid)
      : undefined;
  }
  observe(view: PaneView): Verdict {
    if (!this.#input) return {status: 'pending', why: 'no POSIX shell in the foreground'};
    const screen = visibleText(view);
    const settled = screen.trim() !== '' && screen === this.#previous;
    this.#previous = screen;
    return settled && this.#input.kind !== 'running'
      ? {status: 'done', why: 'the shell is at its prompt'}
      : {status: 'pending', why: 'the shell is starting'};
  }
}

/**
 * Start the agent from the pane's shell (its profile's launch command) and wait for its idle
 * composer. A trust dialog on the way goes to `onDialog` (asked or denied as the run says),
 * and while one is shown the start's deadline waits. Throws PaneFailure when the agent does
 * not start (not on PATH), exits, or never shows its composer.
 */
export async function startAgent(
  deps: StartDeps & {io: PaneIo; onDialog: (view: PaneView) => Promise<boolean>},
  pane: string,
  profile: Profile,
  shellPid: number,
  signal: AbortSignal,
  /** The words after the launch command (a session id to start with, or to resume). */
  args: readonly string[] = [],
): Promise<void> {
  const launch = [profile.launch ?? profile.name, ...args.map(shellWord)].join(' ');
  await deliver(
    deps.io,
    pane,
    launch,
    PROFILES.shell,
    {
      enter: true,
      typeDelayMs: 0,
      enterDelayMs: LAUNCH_ENTER_DELAY_MS,
      clear: false,
      clearDraft: false,
      draftWaitMs: RUN_DRAFT_WAIT_MS,
      busyWaitMs: RUN_DRAFT_WAIT_MS,
      ownText: launch,
      owner: `run ${pane}`,
    },
    signal,
  );
  const {clock} = deps;
  const ready = new AgentReady(deps, launch, profile, shellPid, clock.now());
  for (;;) {
    // A person deciding on a trust dialog is not the agent being slow to start: the deadline
    // runs from the last look that showed one.
    const deadline = ready.lastAskedAt + AGENT_READY_MS;
    if (clock.now() >= deadline) break;
    const waited = await waitUntil(deps.tmux, pane, ready, {
      intervalMs: AGENT_LOOK_MS,
      timeoutMs: deadline - clock.now(),
      clock,
      signal,
    });
    if (waited.status === 'done') return;
  }
  throw new PaneFailure(
    `${launch} did not show its idle composer within ${formatDuration(AGENT_READY_MS)}: ${ready.lastLines}`,
  );
}

/**
 * The agent started from the pane's shell is ready: its idle, empty composer on two looks
 * in a row with the same screen, no dialog shown. Reading a view may throw: the agent exited
 * (the shell is back), or never left the shell (not on its PATH).
 */
class AgentReady implements Watcher {
  readonly historyRows = 0;
  /** When the agent was launched, or a dialog was last shown. */
  lastAskedAt: number;
  /** The last rows of the last view (for the failure's sentence). */
  lastLines = '';
  #left = false;
  #asking = false;
  #previous: string | undefined;
  constructor(
    private readonly deps: StartDeps & {onDialog: (view: PaneView) => Promise<boolean>},
    private readonly launch: string,
    private readonly profile: Profile,
    private readonly shellPid: number,
    private readonly launchedAt: number,
  ) {
    this.lastAskedAt = launchedAt;
  }
  async prepare(view: PaneView): Promise<void> {
    const {clock, foreground} = this.deps;
    this.lastLines = lastLines(view, 3).join(' / ');
    const shellAgain = isShellCommand(view.currentCommand);
    if (!shellAgain) this.#left = true;
    if (this.#left && shellAgain) {
      throw new PaneFailure(
        `${this.launch} exited before it was ready: ${this.lastLines || 'no output'}`,
      );
    }
    // Still the shell, at its prompt, seconds after: the agent never started (not found).
    if (!this.#left && clock.now() - this.launchedAt > NEVER_STARTED_MS) {
      const input = await foreground.inputState(this.shellPid);
      if (input.kind === 'waiting-for-input') {
        throw new PaneFailure(
          `${this.launch} did not start (is it on the PATH of tmux's shells?): ${lastLines(view, 2).join(' / ') || 'no output'}`,
        );
      }
    }
    this.#asking = await this.deps.onDialog(view);
    if (this.#asking) this.lastAskedAt = clock.now();
  }
  observe(view: PaneView): Verdict {
    const screen = visibleText(view);
    const idle =
      !this.#asking &&
      isIdle(this.profile, view) &&
      readComposerState(this.profile, view)?.text === '';
    if (!idle) {
      this.#previous = undefined;
      return {status: 'pending', why: this.#asking ? 'a dialog is shown' : 'not ready yet'};
    }
    const held = screen === this.#previous;
    this.#previous = screen;
    return held
      ? {status: 'done', why: 'at its idle composer'}
      : {status: 'pending', why: 'settling'};
  }
}

/** The last `n` non-empty rows of the visible screen. */
export function lastLines(view: PaneView, n: number): string[] {
  return visibleText(view)
    .split('\n')
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-n);
}

/** The least pause before Enter when a run types its command or prompt. */
const RUN_ENTER_DELAY_MS = 300;
/** How long a person's draft in a run's new pane is waited for (none is expected there). */
const RUN_DRAFT_WAIT_MS = 10_000;

/** Type a run's command (or an agent's prompt) into its new pane and submit it. */
export function deliverRunText(
  io: PaneIo,
  pane: string,
  text: string,
  profile: Profile,
  signal: AbortSignal,
): Promise<Delivered> {
  return deliver(
    io,
    pane,
    text,
    profile,
    {
      enter: true,
      typeDelayMs: 0,
      enterDelayMs: Math.max(RUN_ENTER_DELAY_MS, profile.minEnterDelayMs),
      clear: false,
      clearDraft: false,
      draftWaitMs: RUN_DRAFT_WAIT_MS,
      busyWaitMs: RUN_DRAFT_WAIT_MS,
      ownText: text,
      owner: `run ${pane}`,
    },
    signal,
  );
}
