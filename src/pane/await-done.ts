import type {FoundDialog} from '../agents/dialogs.js';
import type {HookMark, HookMarkSource, RefusedMark} from '../agents/hook-marks.js';
import type {Profile} from '../agents/profile.js';
import {isAgent} from '../agents/profile.js';
import {isBusy} from '../agents/screens.js';
import type {Clock} from '../base/clock.js';
import type {Pattern} from '../base/pattern.js';
import {watcherAfterEnter} from '../detect/conditions.js';
import {type HookWatch, watchHookMark} from '../detect/hook-watch.js';
import {type SettledBy, Settling, servicesLeft} from '../detect/settle.js';
import type {Stall, StallHook} from '../detect/stall.js';
import type {UntilSpec} from '../detect/until.js';
import {knownEnding} from '../detect/wait-look.js';
import {type PaneActivity, waitUntil} from '../detect/wait-until.js';
import {ForegroundWatch, noticing, type Watcher} from '../detect/watchers.js';
import type {Foreground} from '../process/foreground.js';
import type {ServedInPane} from '../process/served.js';
import type {FollowKind} from '../tmux/follow-format.js';
import type {Tmux} from '../tmux/tmux.js';
import type {PaneView} from '../tmux/view.js';

/** What waiting for work to be done needs. */
export interface AwaitDeps {
  tmux: Tmux;
  clock: Clock;
  /** Output events of the pane, when the transport has them (else polling). */
  activity: PaneActivity | undefined;
  hookMarks: HookMarkSource;
  foreground: Foreground;
  /** The processes of a pane (by its first process) that listen on a port: background work
   * that serves, which never holds a "done" (src/process/served.ts). */
  served: (panePid: number) => Promise<ServedInPane>;
}

/** How the "done" condition is judged. */
export interface AwaitOptions {
  until: UntilSpec;
  intervalMs: number;
  timeoutMs: number;
  stableChecks: number;
  ignore: readonly string[];
  lines: number;
  /** The pane's program and its foreground command when the text was typed. */
  profile: Profile;
  paneCommand: string;
  /** The pane's first process (its shell): whose terminal's foreground is read. */
  panePid: number;
  /** A shell's pane running no agent: not done while a program holds its foreground (the
   * text typed into it waits unread), whatever ran there when the text was typed. Default:
   * the foreground command was a shell. */
  shellPane?: boolean | undefined;
  /** Told once when /proc cannot say what the foreground does (liveness falls back). */
  onInputUnknown: (why: string) => void;
  /** The screen just before Enter. */
  before: PaneView;
  /** An agent's dialog (a permission, a question, a usage limit): `end` the wait as blocked
   * (a job), or `ignore` it here (a run, whose own monitor answers or reports it). */
  dialogs: 'end' | 'ignore';
  /** `--until exit`'s sentinel. */
  exitPattern: Pattern;
  /** Told of each turn-end hook mark of the agent (under `--until prompt` or `turn`). */
  onHookMark: (mark: HookMark) => void;
  /** Told each time what keeps the agent from having settled changes: `working: 1
   * background shell (sleep 20)`; undefined once nothing does. */
  onWorking: (what: string | undefined) => void;
  /** Told of each hook that claimed the pane and could not prove it (nothing marked). */
  onHookRefused: (refused: RefusedMark) => void;
  /** The stall watchdog (`--stall`), if on. */
  stall?: StallHook | undefined;
  /** Told once when an agent shows itself at work after Enter (a busy marker on its screen),
   * or its turn-end hook reports: what was typed started a turn. */
  onTurnStarted: (by: string) => void;
}

/** How the wait ended. */
export interface Awaited {
  status: 'done' | 'timeout' | 'failed' | 'blocked';
  waitedMs: number;
  checks: number;
  /** `--until exit`: the command's status. */
  exitCode?: number | undefined;
  /** `--until regex:` (or a fail pattern): what matched. */
  match?: string | undefined;
  /** A fail pattern matched: which, on what line. */
  failed?: {pattern: string; line: string};
  /** The agent waits for a person: the dialog or usage limit on its screen. */
  dialog?: FoundDialog;
  /** The wait ended on a stall (`--on-stall cancel`; status `timeout`). */
  stalled?: Stall | undefined;
  /** How the busy pane was followed (src/tmux/follow-format.ts), if it was. */
  followedBy?: FollowKind[] | undefined;
  /** An agent that settled: which source said nothing it started still runs (`why` then
   * names the services it left running, src/detect/settle.ts). */
  settledBy?: SettledBy | undefined;
  /** Why it is done (`idle`, `idle: waiting for input (python3)`), or, on a timeout, why it
   * was not (`still running: sleep`, `the screen is still changing`). */
  why: string;
}

/** An agent's turn-end hook marks, under a condition they speak to: evidence of its turn's
 * end (prompt) and of what still runs after it (prompt and stable: done means settled). */
function followHookMarks(
  deps: AwaitDeps,
  pane: string,
  o: AwaitOptions,
  start: number,
  signal: AbortSignal,
): HookWatch | undefined {
  const u = o.until;
  if (!(u.kind === 'stable' || (u.kind === 'prompt' && u.pattern === undefined))) return undefined;
  const onMark = (mark: HookMark) => {
    o.onTurnStarted(`its turn-end hook reported (${mark.source})`);
    o.onHookMark(mark);
    // A turn-end mark is news of the work: no stall goes on through it.
    const change = o.stall?.watch.touch(deps.clock.now());
    if (change && 'over' in change)
      void o.stall?.over(change.over.stall, change.over.lastedMs).catch(() => {});
  };
  return watchHookMark(deps.hookMarks, pane, start, signal, onMark, o.onHookRefused);
}

/** What a wait for the work's end came to, from the ending `waited` reached: blocked on a
 * dialog, or done, failed, timed out — an agent's done with what settled it (`last`). */
function awaitedOf(
  waited: ReturnType<typeof knownEnding>,
  waitedMs: number,
  last: Settling['last'],
): Awaited {
  const v = waited.verdict;
  const base = {
    waitedMs,
    checks: waited.checks,
    ...(waited.followedBy ? {followedBy: waited.followedBy} : {}),
  };
  if (v.status === 'blocked') {
    return {
      ...base,
      status: 'blocked',
      why: `waiting for a person: ${v.dialog.kind}`,
      dialog: v.dialog,
    };
  }
  const settled = waited.status === 'done' && last?.settled ? last : undefined;
  return {
    ...base,
    ...(waited.stalled ? {stalled: waited.stalled} : {}),
    ...(settled ? {settledBy: settled.by} : {}),
    status: waited.status,
    exitCode: v.status === 'done' ? v.exitCode : undefined,
    match: v.status === 'done' || v.status === 'failed' ? v.match : undefined,
    why:
      v.status === 'pending'
        ? v.why
        : v.status === 'done'
          ? (v.why ?? 'done') + servicesLeft(settled)
          : 'failed',
    ...(v.status === 'failed' ? {failed: {pattern: v.pattern, line: v.line}} : {}),
  };
}

/** An agent's watcher that tells when its turn shows started (a busy marker on screen). */
function startNoticed(watcher: Watcher, o: AwaitOptions, agent: boolean): Watcher {
  if (!agent || o.profile.busy.length === 0) return watcher;
  const busy = (view: PaneView) => isBusy(o.profile, view);
  return noticing(watcher, busy, () => o.onTurnStarted('the agent showed itself at work'));
}

/**
 * Wait until the condition holds for what was just typed and submitted, a fail pattern shows,
 * or the timeout passes. An agent is also woken by its turn-end hook, and is done only once it
 * has settled (src/detect/settle.ts).
 */
export async function awaitDone(
  deps: AwaitDeps,
  pane: string,
  o: AwaitOptions,
  signal: AbortSignal,
): Promise<Awaited> {
  const agent = isAgent(o.profile);
  const start = deps.clock.now();
  const now = () => deps.clock.now();
  // Hook marks are written by other processes, and a dialog's reset time is read, on the wall
  // clock; every duration here on the monotonic one.
  const startWall = deps.clock.wall();
  const hook = agent ? followHookMarks(deps, pane, o, startWall, signal) : undefined;
  try {
    const foreground = new ForegroundWatch(
      () => deps.foreground.inputState(o.panePid),
      o.onInputUnknown,
    );
    const input = () => foreground.state;
    const settling = hook
      ? new Settling({
          profile: o.profile,
          latestMark: hook.latest,
          served: () => deps.served(o.panePid),
          now,
          wall: () => deps.clock.wall(),
          onWorking: o.onWorking,
          turnOnly: o.until.kind === 'prompt' && o.until.turn === true,
        })
      : undefined;
    const watcher = watcherAfterEnter(o.until, {
      ...o,
      agent,
      endOnDialogs: agent && o.dialogs === 'end',
      settling,
      input,
      now: () => deps.clock.wall(),
      needs: {read: () => deps.hookMarks.readNeeds(pane), since: startWall},
    });
    // A job's watchers never end as unknown: they wait on, their reason saying so.
    const waited = knownEnding(
      await waitUntil(deps.tmux, pane, startNoticed(watcher, o, agent), {
        intervalMs: o.intervalMs,
        timeoutMs: o.timeoutMs,
        clock: deps.clock,
        signal,
        activity: deps.activity,
        typedAt: start,
        wake: hook?.wake,
        foreground,
        stall: o.stall,
      }),
    );
    return awaitedOf(waited, deps.clock.now() - start, settling?.last);
  } finally {
    hook?.stop();
  }
}
