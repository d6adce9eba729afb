import type {Profile} from '../agents/profile.js';
import {isIdle, readComposerState} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isPosixShell, isShellCommand} from '../agents/shell.js';
import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {type Delivered, deliver} from '../pane/deliver.js';
import {PaneFailure} from '../pane/failures.js';
import type {PaneIo} from '../pane/keys.js';
import type {Foreground} from '../process/foreground.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';

/** How long a new pane's shell may take to show its prompt, and an agent its composer. */
const SHELL_READY_MS = 30_000;
const AGENT_READY_MS = 120_000;
/** How long after typing the agent's command the shell may still be at its prompt. */
const NEVER_STARTED_MS = 5_000;

/** What starting in the run's pane needs. */
export interface StartDeps {
  tmux: Tmux;
  clock: Clock;
  foreground: Foreground;
}

/** Wait for the new pane's shell: a POSIX shell in the foreground, its screen settled. */
export async function shellReady(
  deps: StartDeps,
  pane: string,
  signal: AbortSignal,
): Promise<PaneInfo> {
  const deadline = deps.clock.now() + SHELL_READY_MS;
  let previous: string | undefined;
  let last: PaneInfo | undefined;
  for (;;) {
    const info = await deps.tmux.describePane(pane);
    if (!info) throw new PaneFailure(`The run's pane ${pane} closed before it started.`);
    last = info;
    if (isPosixShell(info.currentCommand)) {
      const screen = visibleText(await deps.tmux.view(pane, 0));
      const input = await deps.foreground.inputState(info.panePid);
      if (screen.trim() !== '' && screen === previous && input.kind !== 'running') return info;
      previous = screen;
    }
    if (deps.clock.now() >= deadline) break;
    await deps.clock.sleep(200, signal);
  }
  throw new PaneFailure(
    isPosixShell(last.currentCommand)
      ? `The new pane's shell showed no settled prompt within ${formatDuration(SHELL_READY_MS)}.`
      : `The new pane runs ${last.currentCommand}, not a POSIX shell; nudge run types into sh, bash, zsh, dash or ksh (set tmux's default-shell).`,
  );
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
): Promise<void> {
  const launch = profile.launch ?? profile.name;
  await deliver(
    deps.io,
    pane,
    launch,
    PROFILES.shell,
    {
      enter: true,
      typeDelayMs: 0,
      enterDelayMs: 100,
      clear: false,
      clearDraft: false,
      draftWaitMs: 10_000,
      ownText: launch,
    },
    signal,
  );
  const {clock} = deps;
  const launchedAt = clock.now();
  let deadline = launchedAt + AGENT_READY_MS;
  let left = false;
  let previous: string | undefined;
  for (;;) {
    await clock.sleep(300, signal);
    const view = await deps.tmux.view(pane, 0);
    const shellAgain = isShellCommand(view.currentCommand);
    if (!shellAgain) left = true;
    if (left && shellAgain) {
      throw new PaneFailure(
        `${launch} exited before it was ready: ${lastLines(view, 3).join(' / ') || 'no output'}`,
      );
    }
    // Still the shell, at its prompt, seconds after: the agent never started (not found).
    if (!left && clock.now() - launchedAt > NEVER_STARTED_MS) {
      const input = await deps.foreground.inputState(shellPid);
      if (input.kind === 'waiting-for-input') {
        throw new PaneFailure(
          `${launch} did not start (is it on the PATH of tmux's shells?): ${lastLines(view, 2).join(' / ') || 'no output'}`,
        );
      }
    }
    const asking = await deps.onDialog(view);
    // A person deciding on a trust dialog is not the agent being slow to start.
    if (asking) deadline = clock.now() + AGENT_READY_MS;
    const screen = visibleText(view);
    if (!asking && isIdle(profile, view) && readComposerState(profile, view)?.text === '') {
      if (screen === previous) return;
      previous = screen;
      continue;
    }
    previous = undefined;
    if (clock.now() >= deadline) {
      throw new PaneFailure(
        `${launch} did not show its idle composer within ${formatDuration(AGENT_READY_MS)}: ${lastLines(view, 3).join(' / ')}`,
      );
    }
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
      ownText: text,
    },
    signal,
  );
}
