import type {Clock} from '../clock.js';
import {createWatcher} from '../conditions.js';
import {formatDuration} from '../durations.js';
import {describeError, isAbortError} from '../errors.js';
import type {JobRecord, TerminalState} from '../job-store.js';
import {renderNotice} from '../notice.js';
import type {PaneLease, PaneLock} from '../pane-lock.js';
import {cursorRow} from '../pane-view.js';
import {isPosixShell, type Profile, profileFor} from '../profile.js';
import type {JobRequest} from '../request.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {planTyping} from '../typing.js';
import {describeUntil} from '../until.js';
import {type PaneActivity, waitUntil} from '../wait-until.js';
import {exitSentinel, viewKey} from '../watch.js';
import type {JobRecorder} from './recorder.js';

/** What a job needs from the outside world. */
export interface JobDeps {
  tmux: Tmux;
  clock: Clock;
  /** The lock of a pane of the job's server. */
  lockFor: (pane: string) => Pick<PaneLock, 'acquire'>;
  recorder: JobRecorder;
  /** The process running the job (recorded in the queue so waiters can tell it is alive). */
  pid: number;
  /** Output events of panes, when the transport provides them (control mode). */
  activity?: PaneActivity | undefined;
}

/** How a job ended. */
export interface JobOutcome {
  state: TerminalState;
  reason?: string;
  waitedMs?: number;
  notified: boolean;
  /** `--until exit`: the command's exit status. */
  exitCode?: number;
  /** `--until regex:`: the matched text. */
  match?: string;
}

/** A failure with a sentence for the job record (pane gone, pane dead, ...). */
class JobFailure extends Error {
  override name = 'JobFailure';
}

/** Where the job is, for messages ("Cancelled while waiting"). */
type Phase = 'queued' | 'locked' | 'typing' | 'waiting' | 'notifying';

/** Pause between the groups of clearing keys (longer than a typical ESC-sequence wait). */
const CLEAR_KEY_GAP_MS = 60;
/** The reaction gate opens after this many checks without any change (see ReactionGate). */
const GRACE_CHECKS = 2;

/**
 * Run one job: the worker's state machine.
 *
 *   queued → locked → typing → waiting → notifying → done | timeout | failed | cancelled
 *
 * Each transition is recorded (state.json, events.jsonl, pino log) through `deps.recorder`.
 * The pane typed into is locked from typing to the end of the wait; the notice pane is
 * locked while the notice is typed (one lock for the whole job when they are the same
 * pane). `signal` cancels (SIGTERM from `nudge cancel`). Never throws: every ending is an
 * outcome.
 */
export async function runJob(
  deps: JobDeps,
  request: JobRequest,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const job = new Job(deps, request, signal);
  const outcome = await job.run();
  await finish(deps, outcome);
  return outcome;
}

async function finish({recorder, clock}: JobDeps, outcome: JobOutcome): Promise<void> {
  const patch: Partial<JobRecord> = {
    finishedAt: new Date(clock.now()).toISOString(),
    notified: outcome.notified,
  };
  const data: Record<string, unknown> = {notified: outcome.notified};
  for (const key of ['reason', 'waitedMs', 'exitCode', 'match'] as const) {
    if (outcome[key] !== undefined) {
      (patch as Record<string, unknown>)[key] = outcome[key];
      data[key] = outcome[key];
    }
  }
  await recorder.transition(outcome.state, data, patch);
}

class Job {
  #phase: Phase = 'queued';
  #typed = 0;
  #profile: Profile | undefined;
  readonly #o: JobRequest['options'];
  readonly #notifyPane: string;

  constructor(
    private readonly deps: JobDeps,
    private readonly request: JobRequest,
    private readonly signal: AbortSignal,
  ) {
    this.#o = request.options;
    this.#notifyPane = request.options.notifyPane ?? request.pane;
  }

  async run(): Promise<JobOutcome> {
    const {recorder} = this.deps;
    const {pane} = this.request;
    let lease: PaneLease | undefined;
    try {
      await recorder.event('worker-started', {pid: this.deps.pid});
      lease = await this.#lock(pane, this.signal);
      const jobSignal = AbortSignal.any([this.signal, lease.signal]);
      const waited = await this.#typeAndWait(jobSignal);
      if (waited.state === 'failed' || !this.#o.notify) return {...waited, notified: false};

      // The notice: same pane → keep the lock; another pane → free this one first, so no
      // job ever holds two pane locks at once (no deadlock between crossing jobs).
      if (this.#notifyPane !== pane) {
        await lease.release();
        lease = await this.#lock(this.#notifyPane, this.signal);
      }
      await this.#notify(AbortSignal.any([this.signal, lease.signal]), waited);
      return {...waited, notified: true};
    } catch (error) {
      return this.#outcomeOf(error, lease);
    } finally {
      await lease?.release();
    }
  }

  /** Queue for `pane`'s lock and take it; the lock timeout is a JobFailure. */
  async #lock(pane: string, signal: AbortSignal): Promise<PaneLease> {
    const {recorder} = this.deps;
    const acquired = await this.deps.lockFor(pane).acquire({
      jobId: this.request.jobId,
      pid: this.deps.pid,
      timeoutMs: this.#o.lockTimeoutMs,
      signal,
      onWaiting: (ahead) =>
        void recorder.event('waiting-for-lock', {
          pane,
          ahead: ahead.length,
          head: ahead[0] ?? null,
        }),
    });
    if (!acquired.ok) {
      const holder = acquired.error.holder ? ` (job ${acquired.error.holder} holds it)` : '';
      throw new JobFailure(
        `Waited ${formatDuration(this.#o.lockTimeoutMs)} for pane ${pane}'s lock${holder}; raise --lock-timeout or cancel the job ahead.`,
      );
    }
    return acquired.value;
  }

  async #typeAndWait(
    signal: AbortSignal,
  ): Promise<Omit<JobOutcome, 'notified'> & {waitedMs: number}> {
    const {tmux, clock, recorder} = this.deps;
    const {pane} = this.request;
    const o = this.#o;
    this.#phase = 'locked';
    await recorder.transition(
      'locked',
      pane === this.#notifyPane ? {} : {notifyPane: this.#notifyPane},
    );
    await clock.sleep(o.delayMs, signal);

    const info = await this.#preflight(pane);
    if (o.until.kind === 'exit' && !isPosixShell(info.currentCommand)) {
      throw new JobFailure(
        `--until exit needs a POSIX shell in pane ${pane}, but it runs ${info.currentCommand}; nothing was typed.`,
      );
    }
    this.#profile = profileFor(info.currentCommand);
    this.#phase = 'typing';
    const sentinel = exitSentinel(this.request.jobId.replace(/-/g, ''));
    // --until exit: run the text in a { } group, then print a sentinel with its status.
    const text =
      o.until.kind === 'exit' ? `{ ${this.request.text}\n${sentinel.command}` : this.request.text;
    await recorder.transition('typing', {
      profile: this.#profile.name,
      chars: [...text].length,
      until: describeUntil(o.until),
    });
    if (o.clear) await this.#clear(pane, this.#profile, signal);
    await this.#type(pane, text, signal, true);
    await clock.sleep(o.enterDelayMs, signal);
    // The screen just before Enter: the reaction gate's baseline, and new output starts on
    // the row after the cursor (so the echo of the typed command never matches a regex).
    const before = await tmux.view(pane, 0);
    if (o.enter) await tmux.pressKeys(pane, ['Enter']);
    await recorder.event('typed', {chars: [...text].length, enter: o.enter});

    this.#phase = 'waiting';
    const waitStart = clock.now();
    await recorder.transition('waiting', {until: describeUntil(o.until), intervalMs: o.intervalMs});
    const watcher = createWatcher(o.until, {
      stableChecks: o.stableChecks,
      ignore: o.ignore,
      baselineKey: viewKey(before, []),
      graceChecks: GRACE_CHECKS,
      paneCommand: info.currentCommand,
      mark: {row: cursorRow(before) + 1, col: 0},
      lines: o.lines,
      exitPattern: sentinel.pattern,
    });
    const waited = await waitUntil(tmux, pane, watcher, {...o, clock, signal, activity: this.deps.activity, typedAt: waitStart});
    const waitedMs = clock.now() - waitStart;
    const v = waited.verdict;
    const found: Record<string, unknown> = {waitedMs, checks: waited.checks};
    if (v.status === 'done' && v.exitCode !== undefined) found.exitCode = v.exitCode;
    if (v.status !== 'pending' && v.match !== undefined) found.match = v.match;
    await recorder.event(
      waited.status === 'done'
        ? 'condition-met'
        : waited.status === 'timeout'
          ? 'wait-timeout'
          : 'fail-pattern',
      found,
    );
    if (v.status === 'failed') {
      return {
        state: 'failed',
        waitedMs,
        match: v.match,
        reason: `The fail pattern /${v.pattern}/ matched: ${v.line.trim()}`,
      };
    }
    const outcome: Omit<JobOutcome, 'notified'> & {waitedMs: number} = {
      state: waited.status === 'done' ? 'done' : 'timeout',
      waitedMs,
    };
    if (v.status === 'done' && v.exitCode !== undefined) outcome.exitCode = v.exitCode;
    if (v.status === 'done' && v.match !== undefined) outcome.match = v.match;
    return outcome;
  }

  async #notify(
    signal: AbortSignal,
    waited: Omit<JobOutcome, 'notified'> & {waitedMs: number},
  ): Promise<void> {
    const {recorder, clock, tmux} = this.deps;
    const pane = this.#notifyPane;
    this.#phase = 'notifying';
    await recorder.transition('notifying', {pane});
    const status = waited.state === 'timeout' ? 'timeout' : 'done';
    const notice = renderNotice(this.#o.noticeTemplate ?? undefined, status, {
      status,
      elapsed: formatDuration(waited.waitedMs),
      job: this.request.jobId,
      until: describeUntil(this.#o.until),
      exit: waited.exitCode !== undefined ? String(waited.exitCode) : '',
      match: waited.match ?? '',
    });
    const target = await this.#preflight(pane);
    if (this.#o.clear) await this.#clear(pane, profileFor(target.currentCommand), signal);
    await this.#type(pane, notice, signal, false);
    await clock.sleep(this.#o.enterDelayMs, signal);
    await tmux.pressKeys(pane, ['Enter']);
    await recorder.event('notified', {pane, chars: [...notice].length});
  }

  #outcomeOf(error: unknown, lease: PaneLease | undefined): JobOutcome {
    const phase = this.#phase;
    if (lease?.signal.aborted) {
      return {
        state: 'failed',
        reason: `Stopped while ${phase}: the pane lock was lost (the worker stalled longer than the lock's stale time, e.g. a suspended machine), so another job may own the pane now.`,
        notified: false,
      };
    }
    // `nudge cancel` signals the worker's whole process group, so a tmux call in flight can
    // fail before the abort is seen: once cancelled, any error means "cancelled".
    if (isAbortError(error) || this.signal.aborted) {
      if (phase === 'typing' && this.#typed > 0 && this.#o.clear && this.#profile) {
        // Do not leave half a command sitting in the input line.
        void this.#clear(this.request.pane, this.#profile, AbortSignal.timeout(5_000)).catch(
          () => {},
        );
      }
      const progress =
        phase === 'typing'
          ? ` after typing ${this.#typed} of ${[...this.request.text].length} characters`
          : '';
      return {state: 'cancelled', reason: `Cancelled while ${phase}${progress}.`, notified: false};
    }
    return {state: 'failed', reason: this.#failureReason(error), notified: false};
  }

  #failureReason(error: unknown): string {
    const phase = this.#phase;
    if (error instanceof JobFailure) return error.message;
    const pane = phase === 'notifying' ? this.#notifyPane : this.request.pane;
    if (error instanceof TmuxCommandError) {
      switch (error.kind) {
        case 'no-target':
          return `Pane ${pane} is gone (closed while ${phase}).`;
        case 'no-server':
          return `The tmux server at ${this.request.server.socketPath} stopped while ${phase}.`;
        case 'no-tmux':
          return 'tmux is no longer on PATH.';
        default:
          return `tmux failed while ${phase}: ${error.message}`;
      }
    }
    return `Internal error while ${phase}: ${describeError(error)}`;
  }

  /**
   * Check a pane before typing: it must still be the pane this job was for (same server
   * pid: ids restart at %0 after a server restart), alive, not in a mode (keys would drive
   * the mode instead of the program), accepting input, and not synchronized (keys would
   * reach every pane in the window). Copy mode and other modes are left; the rest fail.
   */
  async #preflight(pane: string): Promise<PaneInfo> {
    const {tmux, recorder} = this.deps;
    let info = await tmux.describePane(pane);
    if (!info) throw new JobFailure(`Pane ${pane} is gone; nothing more was typed.`);
    if (info.serverPid !== this.request.server.pid) {
      throw new JobFailure(
        `The tmux server restarted (pid ${info.serverPid}, was ${this.request.server.pid}), so ${pane} is a different pane now; nothing was typed.`,
      );
    }
    if (info.dead)
      throw new JobFailure(`Pane ${pane} is dead (its program exited); nothing was typed.`);
    if (info.inMode) {
      await recorder.event('left-mode', {pane, mode: info.mode});
      await tmux.leaveMode(pane);
      info = await tmux.describePane(pane);
      if (!info) throw new JobFailure(`Pane ${pane} is gone; nothing more was typed.`);
      if (info.inMode)
        throw new JobFailure(
          `Pane ${pane} stays in ${info.mode || 'a mode'} and would swallow the keys; nothing was typed.`,
        );
    }
    if (info.inputOff)
      throw new JobFailure(
        `Pane ${pane} has input turned off; run "tmux select-pane -e -t ${pane}" and submit again.`,
      );
    if (info.synchronized) {
      throw new JobFailure(
        `Pane ${pane} has synchronize-panes on, so keys would reach every pane in its window; turn it off and submit again.`,
      );
    }
    return info;
  }

  /** Empty the input line with the profile's keys; each group is one tmux call, with a
   * short pause between so a program that waits to tell Escape from Alt-key sees them apart. */
  async #clear(pane: string, profile: Profile, signal: AbortSignal): Promise<void> {
    const {tmux, clock} = this.deps;
    for (const [i, keys] of profile.clearKeys.entries()) {
      if (i > 0) await clock.sleep(CLEAR_KEY_GAP_MS, signal);
      await tmux.pressKeys(pane, keys);
    }
    await clock.sleep(CLEAR_KEY_GAP_MS, signal);
  }

  /**
   * Type `text`: one key event per character, paced at --type-delay from a fixed schedule
   * (the cost of each tmux call is absorbed, not added); with a type delay of 0 each line
   * goes out in one call. A newline presses Enter after the enter delay.
   */
  async #type(
    pane: string,
    text: string,
    signal: AbortSignal,
    countProgress: boolean,
  ): Promise<void> {
    const {tmux, clock} = this.deps;
    const o = this.#o;
    const progress = (n: number) => {
      if (countProgress) this.#typed += n;
    };
    for (const step of planTyping(text)) {
      if (step.kind === 'enter') {
        await clock.sleep(o.enterDelayMs, signal);
        await tmux.pressKeys(pane, ['Enter']);
        progress(1);
        continue;
      }
      if (o.typeDelayMs === 0) {
        signal.throwIfAborted();
        await tmux.typeLiteral(pane, step.chars.join(''));
        progress(step.chars.length);
        continue;
      }
      const start = clock.now();
      for (const [i, ch] of step.chars.entries()) {
        if (i > 0) await clock.sleep(start + i * o.typeDelayMs - clock.now(), signal);
        else signal.throwIfAborted();
        await tmux.typeLiteral(pane, ch);
        progress(1);
      }
    }
  }
}
