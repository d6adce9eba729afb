import type {NeedsMark} from '../agents/hook-marks.js';
import {isBusy, isIdle, type Profile} from '../agents/profile.js';
import {isShellCommand} from '../agents/shell.js';
import type {InputState} from '../process/foreground.js';
import {cursorLine, type PaneView} from '../tmux/view.js';

/** What one look at a pane tells about whether it is idle. */
export interface IdleFacts {
  view: PaneView;
  /** The pane's program when it is an agent nudge knows (its composer and busy markers). */
  agent: Profile | undefined;
  /** The pane runs a shell, or a program started from one (process liveness applies). */
  shellPane: boolean;
  /** What the pane's foreground is doing, where the system can tell. */
  input: InputState | undefined;
  /** The agent's turn-end hook reported since the wait began. */
  freshMark: boolean;
  /** The agent's notification hook reported it waits for a person since the wait began. */
  needs?: NeedsMark | undefined;
}

/**
 * The idle verdict of one look: the one rule `nudge wait`, `--when-idle` and the watcher's
 * idle step share (whether the screen has held still is each caller's part):
 *
 * - an agent: idle when nothing on screen says busy and its composer shows (or its turn-end
 *   hook reported);
 * - a shell's pane: process liveness — a command in the foreground keeps it busy
 *   (`still running: sleep`) unless it waits for input (`idle: waiting for input (python3)`);
 *   the shell itself is idle. Where the foreground cannot be read, any command in it is busy;
 * - any other program: idle (its screen holding still decides).
 */
export function idleNow(f: IdleFacts): {idle: string} | {busy: string} {
  if (f.agent) {
    if (isIdle(f.agent, f.view)) return {idle: 'idle: at its prompt'};
    const busy = isBusy(f.agent, f.view);
    if (f.freshMark && !busy) return {idle: "idle: the agent's turn-end hook reported"};
    return {busy: busy ? 'the agent is busy' : 'no idle composer on screen'};
  }
  if (!f.shellPane) return {idle: 'idle'};
  const input = f.input;
  if (input?.kind === 'waiting-for-input') {
    return isShellCommand(input.program) && shellPromptVisible(f.view)
      ? {idle: 'idle'}
      : {idle: `idle: waiting for input (${input.program})`};
  }
  if (input?.kind === 'running') return {busy: `still running: ${input.program}`};
  return isShellCommand(f.view.currentCommand)
    ? {idle: 'idle'}
    : {busy: `still running: ${f.view.currentCommand}`};
}

/** The shell's idle prompt: the cursor sits right after a prompt character. */
export function shellPromptVisible(view: PaneView): boolean {
  const line = cursorLine(view).trimEnd();
  return /[$#%>❯»]$/.test(line) && view.cursorX >= [...line].length;
}
