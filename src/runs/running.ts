import type {Profile} from '../agents/profile.js';
import {isShellCommand} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import {type Awaited, awaitDone} from '../pane/await-done.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import type {RunDialogs} from './dialogs.js';
import type {Ending, RunDeps} from './events.js';
import type {RunLooks} from './looks.js';
import {progressDue, RunClock} from './monitor.js';
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
}

/**
 * running: the work's own end (awaitDone: the command's exit status, the agent idle at its
 * prompt) raced against the run's timer, which looks at the screen and the files each
 * interval — progress events, permission dialogs, the idle and total timeouts.
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
  const agent = o.agent !== null;
  const done: Promise<{r: Awaited} | {e: unknown}> = awaitDone(
    deps,
    run.pane,
    {
      until: agent ? {kind: 'prompt', profile: undefined, pattern: undefined} : {kind: 'exit'},
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
      onHookMark: () => {},
    },
    AbortSignal.any([signal, stop.signal]),
  ).then(
    (r) => ({r}),
    (e: unknown) => ({e}),
  );
  // Whatever ends the watch, awaitDone stops with it.
  const end = async (ending: Ending | Promise<Ending>) => {
    stop.abort();
    await done;
    return ending;
  };
  const runClock = new RunClock(run.startMs, o);
  let lastProgress = Number.NEGATIVE_INFINITY;
  let dirty = false;
  for (;;) {
    const tick = clock.sleep(o.intervalMs, stop.signal).catch(() => undefined);
    const settled = await Promise.race([done, tick.then(() => undefined)]);
    if (settled) {
      stop.abort();
      if ('e' in settled) throw settled.e;
      return finished(deps, run, settled.r);
    }
    if (signal.aborted) {
      await end({state: 'cancelled'});
      throw signal.reason;
    }
    const view = await deps.tmux.view(run.pane, 0).catch(async (error: unknown) => {
      await end({state: 'failed'});
      throw error;
    });
    await run.noteGroup();
    const shown = agent && (await run.dialogs.onScreen(view, signal));
    const asking = shown && o.permissions === 'ask';
    const files = await run.looks.files();
    const verdict = runClock.observe({
      nowMs: clock.now(),
      screen: visibleText(view),
      files,
      asking,
    });
    if (agent && isShellCommand(view.currentCommand)) {
      const why = `${o.agent} exited before it finished: ${lastLines(view, 3).join(' / ')}`;
      return end({state: 'failed', reason: why});
    }
    dirty ||= verdict.screenChanged || verdict.filesChanged;
    if (progressDue({changed: dirty, sinceLastMs: clock.now() - lastProgress})) {
      const at = {files, clock: runClock, quietMs: verdict.quietMs, startRow: run.startRow};
      const figures = {...at, panePid: shell.panePid};
      await recorder.event(
        'progress',
        await run.looks.progress(view, figures, run.permissions.showing),
      );
      lastProgress = clock.now();
      dirty = false;
    }
    if (verdict.timeout === 'idle') {
      const why = `idle timeout: no output and no file change for ${formatDuration(o.idleTimeoutMs)}.`;
      return end({state: 'timeout', timeout: 'idle', reason: why});
    }
    if (verdict.timeout === 'total') {
      const why = `total timeout: still running after ${formatDuration(o.timeoutMs)}.`;
      return end({state: 'timeout', timeout: 'total', reason: why});
    }
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
