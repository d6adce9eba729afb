import type {Profile} from '../agents/profile.js';
import {isShellCommand} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import {describeStall} from '../detect/stall.js';
import {type WaitResult, waitUntil} from '../detect/wait-until.js';
import type {Verdict, Watcher} from '../detect/watchers.js';
import {recordedStallHook} from '../job-worker/stall.js';
import {type Awaited, awaitDone} from '../pane/await-done.js';
import type {Delivery} from '../pane/failures.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import type {RunDialogs} from './dialogs.js';
import type {Ending, RunDeps} from './events.js';
import type {RunLooks} from './looks.js';
import {type Verdict as LookVerdict, progressDue, RunClock} from './monitor.js';
import type {PermissionStops} from './permissions.js';
import type {RunRequest} from './request.js';
import {lastLines} from './start.js';

/** awaitDone is bounded this much past the total timeout, which the run's own timer ends. */
const AWAIT_SLACK_MS = 60_000;

/** What the running state reads of its run. */
export interface RunningRun {
  pane: string;
  options: RunRequest['options'];
  profile: Profile;
  startMs: number;
  /** The absolute row where the command's output begins. */
  startRow: number;
  /** The command's exit sentinel. */
  sentinel: RegExp;
  dialogs: RunDialogs;
  looks: RunLooks;
  permissions: PermissionStops;
  /** Remember the pane's foreground process group (ended on a stop). */
  noteGroup: () => Promise<void>;
  /** Look for the agent's session in its files, until it is found (for nudge recover). */
  lookForSession: () => Promise<void>;
  /** Type a line into the run's pane and press Enter (`--on-stall continue`). */
  type: (line: string) => Promise<Delivery>;
}

/** A run's monitor that ended with no ending of its own: a stall it cancelled, or the total
 * timeout. */
function monitorTimedOut(w: WaitResult): Ending {
  if (w.stalled)
    return {
      state: 'timeout',
      timeout: 'idle',
      reason: `Stalled (${describeStall(w.stalled)}): --on-stall cancel stopped the run.`,
    };
  return {
    state: 'timeout',
    timeout: 'total',
    reason: `total timeout: ${w.verdict.status === 'pending' ? w.verdict.why : 'no end seen'}.`,
  };
}

/**
 * running: the work's own end (awaitDone: the command's exit status, the agent idle at its
 * prompt) raced against the run's monitor, a condition that waitUntil looks at each interval
 * — progress events, permission dialogs, the idle and total timeouts, an agent that exited.
 * Whichever ends first stops the other.
 */
export async function watchRunning(
  deps: RunDeps,
  run: RunningRun,
  {shell, before, paneCommand}: {shell: PaneInfo; before: PaneView; paneCommand: string},
  signal: AbortSignal,
): Promise<Ending> {
  const {recorder, clock} = deps;
  const o = run.options;
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const done: Promise<{r: Awaited} | {e: unknown}> = awaitDone(
    deps,
    run.pane,
    {
      until: o.agent ? {kind: 'prompt', profile: undefined, pattern: undefined} : {kind: 'exit'},
      intervalMs: o.intervalMs,
      timeoutMs: o.timeoutMs + AWAIT_SLACK_MS,
      stableChecks: 2,
      ignore: [],
      lines: 50,
      profile: run.profile,
      paneCommand,
      panePid: shell.panePid,
      onInputUnknown: (why) =>
        void recorder.event('input-state-unknown', {pane: run.pane, why}).catch(() => {}),
      before,
      exitPattern: run.sentinel,
      // The run's monitor answers (--permissions deny) or reports its dialogs.
      dialogs: 'ignore',
      onHookMark: () => {},
      onHookRefused: () => {},
      onWorking: () => {},
      onTurnStarted: () => {},
    },
    both,
  ).then(
    (r) => ({r}),
    (e: unknown) => ({e}),
  );
  const monitor = new RunMonitor(deps, run, shell.panePid, signal);
  const stall = o.stall
    ? recordedStallHook(
        {recorder, clock, tell: deps.notify, foreground: deps.foreground},
        {
          policy: o.stall,
          pane: run.pane,
          panePid: shell.panePid,
          profile: run.profile,
          ignore: [],
          state: 'running',
          type: run.type,
        },
      )
    : undefined;
  const watched: Promise<{m: Ending} | {me: unknown}> = waitUntil(deps.tmux, run.pane, monitor, {
    intervalMs: o.intervalMs,
    timeoutMs: o.timeoutMs + AWAIT_SLACK_MS,
    clock,
    signal: both,
    stall,
  }).then(
    (w) => ({m: monitor.ending ?? monitorTimedOut(w)}) as const,
    (me: unknown) => ({me}),
  );
  const first = await Promise.race([done, watched]);
  if (stall?.watch.current) await recorder.mark({stalled: undefined}).catch(() => {});
  // Whatever ended first, the other stops with it (and is waited for: no look outlives it).
  stop.abort();
  await Promise.all([done, watched]);
  if ('e' in first) throw first.e;
  if ('me' in first) throw first.me;
  if ('r' in first) return finished(deps, run, first.r);
  return first.m;
}

/**
 * The run's look at its pane each interval, as a condition for waitUntil: before judging a
 * view it notes the foreground group, answers (or reports) a permission dialog, reads the
 * files and records progress; the view is done when a timeout has passed or the agent has
 * exited, with the ending in `ending`.
 */
class RunMonitor implements Watcher {
  readonly historyRows = 0;
  /** How the run ends, once the monitor says so. */
  ending: Ending | undefined;
  readonly #clock: RunClock;
  #lastProgress = Number.NEGATIVE_INFINITY;
  #dirty = false;
  #asking = false;
  #files = '';
  /** What the last look meant (the timeouts). */
  #verdict: LookVerdict | undefined;

  constructor(
    private readonly deps: RunDeps,
    private readonly run: RunningRun,
    private readonly panePid: number,
    private readonly signal: AbortSignal,
  ) {
    this.#clock = new RunClock(run.startMs, run.options, deps.clock.now());
  }

  async prepare(view: PaneView): Promise<void> {
    const {run} = this;
    const o = run.options;
    await run.noteGroup();
    await run.lookForSession();
    const shown = o.agent !== null && (await run.dialogs.onScreen(view, this.signal));
    this.#asking = shown && o.permissions === 'ask';
    this.#files = await run.looks.files();
    const verdict = this.#look(view);
    this.#dirty ||= verdict.screenChanged || verdict.filesChanged;
    const {clock, recorder} = this.deps;
    if (progressDue({changed: this.#dirty, sinceLastMs: clock.now() - this.#lastProgress})) {
      const at = {files: this.#files, clock: this.#clock, quietMs: verdict.quietMs};
      const figures = {...at, startRow: run.startRow, panePid: this.panePid};
      await recorder.event(
        'progress',
        await run.looks.progress(view, figures, run.permissions.showing),
      );
      this.#lastProgress = clock.now();
      this.#dirty = false;
    }
    this.#verdict = verdict;
  }

  #look(view: PaneView): LookVerdict {
    return this.#clock.observe({
      nowMs: this.deps.clock.now(),
      screen: visibleText(view),
      files: this.#files,
      asking: this.#asking,
    });
  }

  observe(view: PaneView): Verdict {
    const o = this.run.options;
    const verdict = this.#verdict;
    if (!verdict) throw new Error('Internal error: RunMonitor.observe before prepare');
    if (o.agent && isShellCommand(view.currentCommand)) {
      const why = `${o.agent} exited before it finished: ${lastLines(view, 3).join(' / ')}`;
      return this.#end({state: 'failed', reason: why});
    }
    if (verdict.timeout === 'idle') {
      const why = `idle timeout: no output and no file change for ${formatDuration(o.idleTimeoutMs)}.`;
      return this.#end({state: 'timeout', timeout: 'idle', reason: why});
    }
    if (verdict.timeout === 'total') {
      const why = `total timeout: still running after ${formatDuration(o.timeoutMs)}.`;
      return this.#end({state: 'timeout', timeout: 'total', reason: why});
    }
    return {status: 'pending', why: 'running'};
  }

  #end(ending: Ending): Verdict {
    this.ending = ending;
    return {status: 'done', why: ending.reason ?? ending.state};
  }
}

/** The work's own end: a command's exit status, or the agent idle at its prompt. */
async function finished(deps: RunDeps, run: RunningRun, r: Awaited): Promise<Ending> {
  await deps.recorder.event('exit-status', {exitCode: r.exitCode, verdict: r.why});
  if (r.status !== 'done') {
    return {state: 'timeout', timeout: 'total', reason: `total timeout: ${r.why}.`};
  }
  if (run.options.agent) return {state: 'done'};
  const exitCode = r.exitCode;
  return exitCode === 0
    ? {state: 'done', exitCode}
    : {state: 'failed', exitCode, reason: `The command exited with status ${exitCode}.`};
}
