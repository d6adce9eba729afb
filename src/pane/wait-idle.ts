import {type Blocked, blockedIn} from '../agents/dialogs.js';
import type {HookMarkSource} from '../agents/hook-marks.js';
import type {Profile} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isShellPane} from '../agents/shell.js';
import type {Clock} from '../base/clock.js';
import {checkUntilFits, createWatcher} from '../detect/conditions.js';
import type {Stall, StallHook} from '../detect/stall.js';
import {describeUntil, type UntilSpec} from '../detect/until.js';
import {waitUntil} from '../detect/wait-until.js';
import {ForegroundWatch, NOT_STILL_YET} from '../detect/watchers.js';
import type {Foreground} from '../process/foreground.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {cursorRow} from '../tmux/view.js';
import {agentInPane} from './profile.js';

/** What waiting for a pane to be idle needs. */
export interface WaitIdleDeps {
  tmux: Tmux;
  clock: Clock;
  foreground: Foreground;
  /** The agents' own signals: a notification hook's "waits for a person" mark. */
  hookMarks: HookMarkSource;
}

/** How idle is judged (`nudge wait`'s options, resolved). */
export interface WaitIdleOptions {
  until: Exclude<UntilSpec, {kind: 'exit'}>;
  intervalMs: number;
  timeoutMs: number;
  /** Captures in a row equal to the one before: stableChecks × intervalMs of stillness. */
  stableChecks: number;
  ignore: readonly string[];
  lines: number;
  /** The stall watchdog over the wait (the watcher's `--stall`), made once the pane's agent
   * (if any) is known. */
  stall?: ((agent: Profile | undefined) => StallHook) | undefined;
  /** End as `unknown` once the screen has held still and nothing can tell whether the
   * program waits for input (`nudge wait`, its tool); else wait on (the watcher's idle step). */
  unknownEnds?: boolean | undefined;
}

/** What the wait found. */
export interface PaneIdleResult {
  /** `blocked`: the agent waits for a person (a dialog, a usage limit): see `blocked`.
   * `unknown`: the screen held still, and nothing can tell whether its program waits for input
   * (a process view without wait channels, macOS's): `reason` says what. */
  status: 'idle' | 'timeout' | 'blocked' | 'unknown';
  pane: string;
  until: string;
  durationMs: number;
  /** Why it is idle (`idle`, `idle: waiting for input (python3)`), or, on a timeout, why
   * not (`still running: sleep`, `the screen is still changing`). */
  reason: string;
  /** Set when /proc cannot say whether the foreground waits for input (liveness then
   * decides as before). */
  inputState?: string;
  /** `--until regex:`: what matched, on which line. */
  match?: string;
  line?: string;
  /** What the person is asked, and where (status `blocked`). */
  blocked?: Blocked;
  /** The wait ended on a stall (`--on-stall cancel`; status `timeout`). */
  stalled?: Stall | undefined;
  /** A timeout on a pane that never changed: it was only not yet still for a whole stability
   * window (longer than the wait), not active. */
  stillSoFar?: true;
}

/**
 * Block until the pane is idle by `until` or the timeout passes: the verdicts of `nudge wait`
 * (a quiet command still running keeps a shell's pane busy; a program waiting for input is
 * idle once its screen holds). Nothing is typed, so there is no reaction to wait for: a pane
 * that is already idle is idle after the first few checks. Shared by `nudge wait`, the MCP
 * `wait` tool and the watcher's IDLE_SPIN.
 */
export async function waitPaneIdle(
  deps: WaitIdleDeps,
  info: PaneInfo,
  o: WaitIdleOptions,
  signal: AbortSignal,
): Promise<PaneIdleResult> {
  // A shell's pane stays a shell's pane while a command runs in it (liveness, prompt).
  const shellPane = isShellPane(info);
  checkUntilFits(o.until, info, shellPane ? PROFILES.shell : undefined);
  const started = deps.clock.now();
  // Hook marks are written by other processes, on the wall clock.
  const startedWall = deps.clock.wall();
  let unknown: string | undefined;
  const foreground = new ForegroundWatch(
    () => deps.foreground.inputState(info.panePid),
    (why) => {
      unknown = why;
    },
  );
  const entry = await deps.tmux.view(info.paneId, 0);
  // An agent's own markers also say whether its settled screen is idle (src/detect/idle.ts),
  // and its dialogs whether it waits for a person.
  const agent = await agentInPane(deps, info, entry);
  const watcher = createWatcher(o.until, {
    stableChecks: o.stableChecks,
    ignore: o.ignore,
    baselineKey: undefined,
    graceChecks: 0,
    paneCommand: info.currentCommand,
    shellPane,
    endOnUnknown: o.unknownEnds,
    profile: shellPane ? PROFILES.shell : undefined,
    mark: {row: cursorRow(entry), col: entry.cursorX},
    lines: o.lines,
    input: () => foreground.state,
    idleAgent: agent,
    blockedBy: {
      profile: agent,
      now: () => deps.clock.wall(),
      needs: {read: () => deps.hookMarks.readNeeds(info.paneId), since: startedWall},
    },
  });
  const waited = await waitUntil(deps.tmux, info.paneId, watcher, {
    intervalMs: o.intervalMs,
    timeoutMs: o.timeoutMs,
    clock: deps.clock,
    signal,
    foreground,
    stall: o.stall?.(agent),
  });
  const v = waited.verdict;
  if (v.status === 'blocked') {
    return {
      status: 'blocked',
      pane: info.paneId,
      until: describeUntil(o.until),
      durationMs: deps.clock.now() - started,
      reason: `waiting for a person: ${v.dialog.kind} (${v.dialog.question})`,
      blocked: blockedIn(info.paneId, v.dialog),
    };
  }
  return {
    status: waited.status === 'done' ? 'idle' : waited.status === 'unknown' ? 'unknown' : 'timeout',
    pane: info.paneId,
    until: describeUntil(o.until),
    durationMs: deps.clock.now() - started,
    reason:
      v.status === 'pending' || v.status === 'unknown'
        ? v.why
        : v.status === 'done'
          ? (v.why ?? 'idle')
          : 'failed',
    ...(unknown === undefined ? {} : {inputState: `unknown: ${unknown}`}),
    ...(v.status === 'pending' && v.why === NOT_STILL_YET ? {stillSoFar: true} : {}),
    ...(waited.stalled ? {stalled: waited.stalled} : {}),
    ...(v.status === 'done' && v.match !== undefined ? {match: v.match, line: v.line} : {}),
  };
}
