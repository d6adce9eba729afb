import type {Clock} from '../clock.js';
import {formatDuration} from '../durations.js';
import {describeError, isAbortError} from '../errors.js';
import type {JobRecord, TerminalState} from '../job-store.js';
import {renderNotice} from '../notice.js';
import type {PaneLock} from '../pane-lock.js';
import {type Profile, profileFor} from '../profile.js';
import type {JobRequest} from '../request.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {planTyping} from '../typing.js';
import {waitUntilStable} from '../wait-until-stable.js';
import type {JobRecorder} from './recorder.js';

/** What a job needs from the outside world. */
export interface JobDeps {
  tmux: Tmux;
  clock: Clock;
  lock: Pick<PaneLock, 'acquire'>;
  recorder: JobRecorder;
  /** The process running the job (recorded in the queue so waiters can tell it is alive). */
  pid: number;
}

/** How a job ended. */
export interface JobOutcome {
  state: TerminalState;
  reason?: string;
  waitedMs?: number;
  notified: boolean;
}

/** A failure with a sentence for the job record (pane gone, pane dead, ...). */
class JobFailure extends Error {
  override name = 'JobFailure';
}

/**
 * Run one job: the worker's state machine.
 *
 *   queued → locked → typing → waiting → notifying → done | timeout | failed | cancelled
 *
 * Each transition is recorded (state.json, events.jsonl, pino log) through `deps.recorder`.
 * `signal` cancels (SIGTERM from `nudge cancel`). Never throws: every ending is an outcome.
 */
export async function runJob(
  deps: JobDeps,
  request: JobRequest,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const {recorder, clock} = deps;
  const {options: o} = request;
  let outcome: JobOutcome;
  try {
    await recorder.event('worker-started', {pid: deps.pid});
    const acquired = await deps.lock.acquire({
      jobId: request.jobId,
      pid: deps.pid,
      timeoutMs: o.lockTimeoutMs,
      signal,
      onWaiting: (ahead) =>
        void recorder.event('waiting-for-lock', {ahead: ahead.length, head: ahead[0] ?? null}),
    });
    if (!acquired.ok) {
      const holder = acquired.error.holder ? ` (job ${acquired.error.holder} holds it)` : '';
      outcome = {
        state: 'failed',
        reason: `Waited ${formatDuration(o.lockTimeoutMs)} for pane ${request.pane}'s lock${holder}; raise --lock-timeout or cancel the job ahead.`,
        notified: false,
      };
    } else {
      const lease = acquired.value;
      try {
        outcome = await runLocked(
          deps,
          request,
          AbortSignal.any([signal, lease.signal]),
          lease.signal,
        );
      } finally {
        await lease.release();
      }
    }
  } catch (error) {
    outcome = isAbortError(error)
      ? {state: 'cancelled', reason: 'Cancelled before the pane lock was taken.', notified: false}
      : {state: 'failed', reason: `Internal error: ${describeError(error)}`, notified: false};
  }
  await finish(recorder, outcome, clock);
  return outcome;
}

async function finish(recorder: JobRecorder, outcome: JobOutcome, clock: Clock): Promise<void> {
  const patch: Partial<JobRecord> = {
    finishedAt: new Date(clock.now()).toISOString(),
    notified: outcome.notified,
  };
  if (outcome.reason !== undefined) patch.reason = outcome.reason;
  if (outcome.waitedMs !== undefined) patch.waitedMs = outcome.waitedMs;
  const data: Record<string, unknown> = {notified: outcome.notified};
  if (outcome.reason !== undefined) data.reason = outcome.reason;
  if (outcome.waitedMs !== undefined) data.waitedMs = outcome.waitedMs;
  await recorder.transition(outcome.state, data, patch);
}

/** The part of the job that runs while the pane lock is held. */
async function runLocked(
  deps: JobDeps,
  request: JobRequest,
  signal: AbortSignal,
  lockSignal: AbortSignal,
): Promise<JobOutcome> {
  const {tmux, clock, recorder} = deps;
  const {options: o, pane} = request;
  const typing = {
    typed: 0,
    total: Array.from(request.text).length,
    profile: undefined as Profile | undefined,
  };
  let phase: 'locked' | 'typing' | 'waiting' | 'notifying' = 'locked';
  try {
    await recorder.transition('locked');
    await clock.sleep(o.delayMs, signal);

    const info = await preflight(tmux, request, recorder);
    typing.profile = profileFor(info.currentCommand);
    phase = 'typing';
    await recorder.transition('typing', {profile: typing.profile.name, chars: typing.total});
    if (o.clear) await clearInput(tmux, pane, typing.profile, clock, signal);
    await typeText(deps, pane, request.text, o, signal, (n) => {
      typing.typed = n;
    });
    if (o.enter) {
      await clock.sleep(o.enterDelayMs, signal);
      await tmux.pressKeys(pane, ['Enter']);
    }
    await recorder.event('typed', {chars: typing.total, enter: o.enter});

    phase = 'waiting';
    const waitStart = clock.now();
    await recorder.transition('waiting', {
      until: 'stable',
      intervalMs: o.intervalMs,
      stableChecks: o.stableChecks,
    });
    const waited = await waitUntilStable(tmux, pane, {...o, clock, signal});
    const waitedMs = clock.now() - waitStart;
    await recorder.event(waited.status === 'stable' ? 'stable' : 'wait-timeout', {
      waitedMs,
      captures: waited.captures,
    });
    const finalState = waited.status === 'stable' ? 'done' : 'timeout';

    let notified = false;
    if (o.notify) {
      phase = 'notifying';
      await recorder.transition('notifying');
      const notice = renderNotice(o.noticeTemplate ?? undefined, finalState, {
        status: finalState,
        elapsed: formatDuration(waitedMs),
        job: request.jobId,
      });
      const target = await preflight(tmux, request, recorder);
      if (o.clear) await clearInput(tmux, pane, profileFor(target.currentCommand), clock, signal);
      await typeText(deps, pane, notice, o, signal, () => {});
      await clock.sleep(o.enterDelayMs, signal);
      await tmux.pressKeys(pane, ['Enter']);
      notified = true;
      await recorder.event('notified', {pane, chars: Array.from(notice).length});
    }
    return {state: finalState, waitedMs, notified};
  } catch (error) {
    if (lockSignal.aborted) {
      return {
        state: 'failed',
        reason: `Stopped ${phase}: the pane lock was lost (the worker stalled longer than ${formatDuration(8000)}, e.g. a suspended machine), so another job may own the pane now.`,
        notified: false,
      };
    }
    if (isAbortError(error)) {
      if (phase === 'typing' && typing.typed > 0 && request.options.clear && typing.profile) {
        // Do not leave half a command sitting in the input line.
        await clearInput(tmux, pane, typing.profile, clock, AbortSignal.timeout(5_000)).catch(
          () => {},
        );
      }
      const progress =
        phase === 'typing' ? ` after typing ${typing.typed} of ${typing.total} characters` : '';
      return {state: 'cancelled', reason: `Cancelled while ${phase}${progress}.`, notified: false};
    }
    return {state: 'failed', reason: failureReason(error, request, phase), notified: false};
  }
}

function failureReason(error: unknown, request: JobRequest, phase: string): string {
  if (error instanceof JobFailure) return error.message;
  if (error instanceof TmuxCommandError) {
    switch (error.kind) {
      case 'no-target':
        return `Pane ${request.pane} is gone (closed while ${phase}).`;
      case 'no-server':
        return `The tmux server at ${request.server.socketPath} stopped while ${phase}.`;
      case 'no-tmux':
        return 'tmux is no longer on PATH.';
      default:
        return `tmux failed while ${phase}: ${error.message}`;
    }
  }
  return `Internal error while ${phase}: ${describeError(error)}`;
}

/**
 * Check the pane before typing: it must still be the pane this job was for (same server
 * pid: ids restart at %0 after a server restart), alive, not in a mode (keys would drive the
 * mode instead of the program), accepting input, and not synchronized (keys would reach
 * every pane in the window). Copy mode and other modes are left; the rest fail the job.
 */
async function preflight(
  tmux: Tmux,
  request: JobRequest,
  recorder: JobRecorder,
): Promise<PaneInfo> {
  const {pane} = request;
  let info = await tmux.describePane(pane);
  if (!info) throw new JobFailure(`Pane ${pane} is gone; nothing more was typed.`);
  if (info.serverPid !== request.server.pid) {
    throw new JobFailure(
      `The tmux server restarted (pid ${info.serverPid}, was ${request.server.pid}), so ${pane} is a different pane now; nothing was typed.`,
    );
  }
  if (info.dead)
    throw new JobFailure(`Pane ${pane} is dead (its program exited); nothing was typed.`);
  if (info.inMode) {
    await recorder.event('left-mode', {mode: info.mode});
    await tmux.leaveMode(pane);
    info = await tmux.describePane(pane);
    if (!info) throw new JobFailure(`Pane ${pane} is gone; nothing more was typed.`);
    if (info.inMode) {
      throw new JobFailure(
        `Pane ${pane} stays in ${info.mode || 'a mode'} and would swallow the keys; nothing was typed.`,
      );
    }
  }
  if (info.inputOff) {
    throw new JobFailure(
      `Pane ${pane} has input turned off; run "tmux select-pane -e -t ${pane}" and submit again.`,
    );
  }
  if (info.synchronized) {
    throw new JobFailure(
      `Pane ${pane} has synchronize-panes on, so keys would reach every pane in its window; turn it off and submit again.`,
    );
  }
  return info;
}

/** Empty the input line with the profile's keys; each group is one tmux call, with a short
 * pause between so a program that waits to tell Escape from Alt-key sees them apart. */
async function clearInput(
  tmux: Tmux,
  pane: string,
  profile: Profile,
  clock: Clock,
  signal: AbortSignal,
): Promise<void> {
  for (const [i, keys] of profile.clearKeys.entries()) {
    if (i > 0) await clock.sleep(CLEAR_KEY_GAP_MS, signal);
    await tmux.pressKeys(pane, keys);
  }
  await clock.sleep(CLEAR_KEY_GAP_MS, signal);
}

/** Pause between the groups of clearing keys (longer than a typical ESC-sequence wait). */
const CLEAR_KEY_GAP_MS = 60;

/**
 * Type `text` into `pane`: one key event per character, paced at `typeDelayMs` from a fixed
 * schedule (so the cost of each tmux call is absorbed, not added). With a type delay of 0,
 * each line goes out in one call. A newline in the text presses Enter after the enter delay.
 */
async function typeText(
  deps: JobDeps,
  pane: string,
  text: string,
  o: {typeDelayMs: number; enterDelayMs: number},
  signal: AbortSignal,
  onProgress: (typed: number) => void,
): Promise<void> {
  const {tmux, clock} = deps;
  let typed = 0;
  for (const step of planTyping(text)) {
    if (step.kind === 'enter') {
      await clock.sleep(o.enterDelayMs, signal);
      await tmux.pressKeys(pane, ['Enter']);
      typed++;
      onProgress(typed);
      continue;
    }
    if (o.typeDelayMs === 0) {
      signal.throwIfAborted();
      await tmux.typeLiteral(pane, step.chars.join(''));
      typed += step.chars.length;
      onProgress(typed);
      continue;
    }
    const start = clock.now();
    for (const [i, ch] of step.chars.entries()) {
      if (i > 0) await clock.sleep(start + i * o.typeDelayMs - clock.now(), signal);
      else signal.throwIfAborted();
      await tmux.typeLiteral(pane, ch);
      typed++;
      onProgress(typed);
    }
  }
}
