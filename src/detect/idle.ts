import type {NeedsMark} from '../agents/hook-marks.js';
import {isIdle, workingOnScreen} from '../agents/idle-screen.js';
import type {Profile, ProgramWait} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isBusy} from '../agents/screens.js';
import {isShellCommand} from '../agents/shell.js';
import type {InputState} from '../process/foreground.js';
import {cursorLine, type PaneView, visibleText} from '../tmux/view.js';

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
  /** What a program that waits for its user shows, for when the process view cannot say
   * (default: the shell profile's `waits`). */
  waits?: readonly ProgramWait[] | undefined;
}

/** A look's verdict: idle, busy, or `unknown` where nothing can tell (a quiet program whose
 * wait the process view cannot see, and whose screen shows nothing known): never called busy
 * for that, nor idle. */
export type IdleNow = {idle: string} | {busy: string} | {unknown: string};

/**
 * The idle verdict of one look: the one rule `nudge wait`, `--when-idle` and the watcher's
 * idle step share (whether the screen has held still is each caller's part):
 *
 * - an agent: idle when nothing on screen says busy, its composer shows (or its turn-end
 *   hook reported) and its footer shows no work it started still running;
 * - a shell's pane: process liveness — a command in the foreground keeps it busy
 *   (`still running: sleep`) unless it waits for input (`idle: waiting for input (python3)`);
 *   the shell itself is idle. Where the foreground cannot be read, any command in it is busy;
 * - any other program: idle (its screen holding still decides).
 */
export function idleNow(f: IdleFacts): IdleNow {
  if (f.agent) {
    if (isIdle(f.agent, f.view)) return {idle: 'idle: at its prompt'};
    const busy = isBusy(f.agent, f.view);
    // Its turn ended, but its footer says work it started still runs: not settled.
    const working = busy ? undefined : workingOnScreen(f.agent, f.view);
    if (working) return {busy: `working: ${working} (the agent's footer)`};
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
  if (input?.kind === 'unknown') return unseenWait(f, input.why);
  return isShellCommand(f.view.currentCommand)
    ? {idle: 'idle'}
    : {busy: `still running: ${f.view.currentCommand}`};
}

/**
 * A shell pane whose foreground's wait the process view cannot see (macOS): the shell at its
 * prompt is idle; a program idle when its screen shows it waits (a REPL's prompt, a pager, an
 * editor, a question: the shell profile's `waits`); else `unknown`, with why.
 */
function unseenWait(f: IdleFacts, why: string): IdleNow {
  const program = f.view.currentCommand;
  if (isShellCommand(program) && shellPromptVisible(f.view)) return {idle: 'idle'};
  const seen = waitingOnScreen(f.waits ?? PROFILES.shell.waits ?? [], program, f.view);
  if (seen) return {idle: `idle: waiting for input (${program}): ${seen}`};
  return {unknown: `cannot tell whether ${program || 'the program'} waits for input (${why})`};
}

/** What `view` shows of `program` waiting for its user (a `waits` entry's `what`), if it does. */
export function waitingOnScreen(
  waits: readonly ProgramWait[],
  program: string,
  view: PaneView,
): string | undefined {
  const beforeCursor = [...cursorLine(view)].slice(0, view.cursorX).join('');
  const last = visibleText(view)
    .split('\n')
    .filter((row) => row.trim() !== '')
    .at(-1);
  for (const w of waits) {
    if (w.programs && !w.programs.some((p) => p.test(program))) continue;
    if (w.cursorLine && !w.cursorLine.test(beforeCursor)) continue;
    if (w.lastLine && !w.lastLine.test((last ?? '').trim())) continue;
    if (w.alternateScreen !== undefined && w.alternateScreen !== view.alternateOn) continue;
    return w.what;
  }
  return undefined;
}

/** The shell's idle prompt: the cursor sits right after a prompt character. */
export function shellPromptVisible(view: PaneView): boolean {
  const line = cursorLine(view).trimEnd();
  return /[$#%>❯»]$/.test(line) && view.cursorX >= [...line].length;
}
