import {blockedIn, type FoundDialog} from '../agents/dialogs.js';
import {isAgent, type Profile} from '../agents/profile.js';
import type {Detection} from '../agents/registry.js';
import {isPosixShell, isShellPane} from '../agents/shell.js';
import {describeUntil} from '../detect/until.js';
import {ifBusyMeans} from '../job-options/policies.js';
import type {JobEvents, JobOutcome} from '../jobs/events.js';
import {dueElsewhere} from '../jobs/notice.js';
import {hookEvents} from '../jobs/recorder.js';
import {deliverOptionsOf, type JobRequest, sentinelOf, textToType} from '../jobs/request.js';
import type {FencedLease} from '../locks/fenced-lease.js';
import {awaitDone} from '../pane/await-done.js';
import {type Delivered, deliver} from '../pane/deliver.js';
import {PaneBlocked, PaneFailure} from '../pane/failures.js';
import {waitUntilPaneIdle} from '../pane/idle.js';
import type {PaneIo} from '../pane/keys.js';
import {preflight} from '../pane/preflight.js';
import {recognize} from '../pane/profile.js';
import {behindProgram} from './behind-program.js';
import {changeOfEnding, stoppedEnding, type Waited, waitedOf} from './ending.js';
import type {JobDeps} from './job-deps.js';
import {LimitWaits, resumeAfterLimit} from './limit.js';
import {holdingPlace, takePaneLock} from './lock-pane.js';
import {noticeOfJob} from './notice-doors.js';
import {deliverNow} from './now.js';
import {jobStallHook} from './stall.js';
import {typingProgress} from './typing-progress.js';
import {blockedUntilAnswered} from './unblocked.js';

const SHELL_TOOK = 'the shell took the line';

/** The pane as the job began to type: its foreground command, first process, and whether it
 * is a shell's pane running no agent. */
type AtPane = {paneCommand: string; panePid: number; shellPane: boolean};

/** The job's states, each with what it needs; the machine moves by returning the next. */
type Step =
  | {at: 'queued'}
  | {at: 'locked'}
  | ({at: 'typing'; detected: Detection} & AtPane)
  /** `timeoutMs`: what is left of --timeout once a dialog was answered (the person's time is
   * not the work's). */
  | ({at: 'waiting'; profile: Profile; delivered: Delivered; timeoutMs?: number} & AtPane)
  | {at: 'notifying'; waited: Waited}
  | {at: 'ended'; outcome: JobOutcome};

/** Where the job is, for messages ("Cancelled while waiting"). */
type Phase = Exclude<Step['at'], 'ended'>;

/**
 * Run one job: the worker's state machine.
 *
 *   queued → locked → typing → waiting → notifying → done | timeout | failed | cancelled
 *
 * Each state change is recorded (state.json, events.jsonl, pino log) through the recorder,
 * and the ending through the one writer of endings. The pane typed into is locked from typing
 * to the end of the wait; the notice pane while the notice is typed (one lock for the whole
 * job when they are the same pane); a notice goes through the agent's door where it has one
 * (src/doors/); a text for the door now (`--if-busy now`) goes only there. `signal` cancels
 * (SIGTERM from `nudge cancel`). Never throws: every ending is an outcome. */
export async function runJob(deps: JobDeps, request: JobRequest, signal: AbortSignal) {
  const outcome = ifBusyMeans(request.options.ifBusy).door
    ? await deliverNow(deps, request, signal)
    : await new Job(deps, request, signal).run();
  await deps.recorder.end(outcome);
  const change = changeOfEnding(outcome);
  if (change) await deps.tell(change);
  return outcome;
}

class Job {
  #phase: Phase = 'queued';
  #typed = 0;
  /** The wait's time before a dialog was answered (the ending's waitedMs counts it too). */
  #waitedBefore = 0;
  #profile: Profile | undefined;
  /** The pane's foreground when the job began to type: its command and process group. */
  #began: {command: string; group: number | undefined} | undefined;
  /** The command typed into a shell's pane, once Enter was pressed (a cancel stops it). */
  #running: {panePid: number} | undefined;
  /** The pane lock held now: checked right before every key sent (PaneIo.guard). */
  #lease: FencedLease | undefined;
  readonly #o: JobRequest['options'];
  readonly #notifyPane: string;
  readonly #io: PaneIo;
  readonly #limits: LimitWaits;

  constructor(
    private readonly deps: JobDeps,
    /** Its text as edited while queued once the lock is taken (#lock). */
    private request: JobRequest,
    private readonly signal: AbortSignal,
  ) {
    this.#o = request.options;
    this.#notifyPane = request.options.notifyPane ?? request.pane;
    this.#limits = new LimitWaits(deps, request.options);
    this.#io = {
      tmux: deps.tmux.fenced(() => this.#lease?.fence),
      clock: deps.clock,
      note: (event, data) => deps.recorder.event(event, data as JobEvents[typeof event]),
      // Every key goes under the pane's lock: none without a lease, none after its release;
      // and tmux takes it only while the pane is still marked this job's (src/tmux/fence.ts).
      guard: () => {
        if (!this.#lease) throw new Error('no key may be sent without the pane lock');
        this.#lease.assertHeld();
      },
    };
  }

  async run(): Promise<JobOutcome> {
    let step: Step = {at: 'queued'};
    try {
      for (;;) {
        if (step.at === 'ended') return step.outcome;
        this.#phase = step.at;
        step = await this.#next(step);
      }
    } catch (error) {
      return await this.#outcomeOf(error);
    } finally {
      await this.#lease?.release();
    }
  }

  /** The step after `step`. */
  #next(step: Exclude<Step, {at: 'ended'}>): Promise<Step> {
    switch (step.at) {
      case 'queued':
        return this.#queued();
      case 'locked':
        return this.#locked();
      case 'typing':
        return this.#typing(step);
      case 'waiting':
        return this.#waiting(step);
      case 'notifying':
        return this.#notifying(step.waited);
    }
  }

  /** Wait for an idle pane if asked (--when-idle), then for the pane's lock. */
  async #queued(): Promise<Step> {
    const {pane} = this.request;
    await this.deps.recorder.event('worker-started', {pid: this.deps.pid});
    if (ifBusyMeans(this.#o.ifBusy).waitsForIdle) {
      await holdingPlace(this.deps.lockFor(pane), this.request, this.deps.pid, () =>
        waitUntilPaneIdle(
          {...this.deps, ...this.#io},
          pane,
          {profile: this.#o.profile, timeoutMs: this.#o.idleTimeoutMs},
          this.signal,
        ),
      );
    }
    return (await this.#lock(pane)) ?? {at: 'locked'};
  }

  /** Locked: pause (--delay), check the pane, recognise its program. */
  async #locked(): Promise<Step> {
    const {pane} = this.request;
    const notifyPane = this.#notifyPane;
    await this.deps.recorder.transition('locked', notifyPane === pane ? {} : {notifyPane});
    await this.deps.clock.sleep(this.#o.delayMs, this.#jobSignal());
    const first = await preflight(this.#io, pane, this.request.server.pid);
    let detected = await recognize(this.deps, pane, first, this.#o.profile);
    const {intervalMs, timeoutMs, ifBusy, profile} = this.#o;
    const typesInto = ifBusyMeans(ifBusy).typesAhead || profile !== 'auto';
    const o = {serverPid: this.request.server.pid, intervalMs, timeoutMs, typesInto};
    const behind = await behindProgram(
      this.#io,
      pane,
      {info: first, profile: detected.profile},
      o,
      this.#jobSignal(),
    );
    if ('timedOut' in behind) return this.#ended(behind.timedOut);
    const info = behind.ready;
    if (info !== first) detected = await recognize(this.deps, pane, info, this.#o.profile);
    if (this.#o.until.kind === 'exit' && !isPosixShell(info.currentCommand)) {
      throw new PaneFailure(
        `--until exit needs a POSIX shell in pane ${pane}, but it runs ${info.currentCommand}; nothing was typed.`,
      );
    }
    this.#profile = detected.profile;
    this.#began = {
      command: info.currentCommand,
      group: await this.deps.foreground.group(info.panePid),
    };
    // A shell's pane is done when its shell holds the terminal again (AtPane.shellPane).
    const shellPane = !isAgent(detected.profile) && isShellPane(info);
    const {currentCommand: paneCommand, panePid} = info;
    return {at: 'typing', detected, paneCommand, panePid, shellPane};
  }

  /** Type the text (under `--until exit`, wrapped to print its exit status) and submit it. */
  async #typing(step: Extract<Step, {at: 'typing'}>): Promise<Step> {
    const {detected, paneCommand} = step;
    const text = textToType(this.request);
    const {profile, reason} = detected;
    const chosen = {profile: profile.name, profileReason: reason, program: paneCommand};
    const until = describeUntil(this.#o.until);
    const chars = [...text].length;
    await this.deps.recorder.transition('typing', {...chosen, chars, until}, {...chosen, chars});
    const count = typingProgress(this.deps, chars, (n) => {
      this.#typed += n;
    });
    const options = deliverOptionsOf(this.request, {enter: this.#o.enter, typed: count});
    let delivered: Delivered;
    try {
      const {pane} = this.request;
      delivered = await deliver(this.#io, pane, text, profile, options, this.#jobSignal());
    } catch (error) {
      // A usage limit before anything was typed: wait it out (--on-limit wait), then type.
      if (!(error instanceof PaneBlocked) || !this.#limits.waitsOut(error.dialog)) throw error;
      return (await this.#waitOutLimit(error.dialog)) ?? step;
    }
    const typed = {chars: [...text].length, enter: this.#o.enter, delivery: delivered.delivery};
    await this.deps.recorder.event('typed', typed);
    const {panePid, shellPane} = step;
    if (shellPane && this.#o.enter) this.#running = {panePid};
    if (shellPane && delivered.delivery.startsWith('submitted'))
      await this.deps.recorder.event('turn-started', {pane: this.request.pane, by: SHELL_TOOK});
    return {at: 'waiting', profile, paneCommand, panePid, shellPane, delivered};
  }

  /** Wait until the --until condition holds, the fail pattern shows, or --timeout. */
  async #waiting(step: Extract<Step, {at: 'waiting'}>): Promise<Step> {
    const {recorder} = this.deps;
    const {pane} = this.request;
    const o = this.#o;
    const {before, delivery} = step.delivered;
    await recorder.transition('waiting', {until: describeUntil(o.until), intervalMs: o.intervalMs});
    const onInputUnknown = (why: string) => void recorder.event('input-state-unknown', {pane, why});
    const stall = jobStallHook(this.deps, this.#io, this.request, step, () => this.#jobSignal());
    const done = await awaitDone(
      this.deps,
      pane,
      {
        ...o,
        ...step,
        before,
        exitPattern: sentinelOf(this.request).pattern,
        dialogs: 'end',
        ...hookEvents(recorder, pane, delivery),
        onInputUnknown,
        stall,
      },
      this.#jobSignal(),
    );
    // A stall still going on when the wait ended: the record and the pane show the ending.
    if (stall?.watch.current) await recorder.mark({stalled: undefined});
    const {waitedMs, checks, why: verdict, dialog} = done;
    if (dialog) {
      const blocked = blockedIn(pane, dialog);
      await recorder.event('needs-person', {waitedMs, checks, verdict, ...blocked});
      if (this.#limits.waitsOut(dialog)) {
        const ended = await this.#waitOutLimit(dialog);
        if (ended) return ended;
        const resumed = await resumeAfterLimit(
          this.#io,
          this.request,
          step.profile,
          this.#jobSignal(),
        );
        await recorder.event('resumed', {pane, text: o.resumeText, delivery: resumed.delivery});
        return {...step, delivered: resumed};
      }
      const at = {profile: step.profile, blocked};
      const answer = await blockedUntilAnswered(this.deps, at, o.intervalMs, this.#jobSignal());
      this.#waitedBefore += waitedMs + answer.afterMs;
      if (!answer.answered) {
        const waited = {waitedMs: this.#waitedBefore, delivery, reason: answer.reason};
        return this.#ended({state: 'blocked', blocked, ...waited});
      }
      return {...step, timeoutMs: Math.max(1, (step.timeoutMs ?? o.timeoutMs) - waitedMs)};
    }
    const whole = {...done, waitedMs: done.waitedMs + this.#waitedBefore};
    const {event, found, failed, waited: result} = waitedOf(whole, delivery);
    await recorder.event(event, found);
    if (failed) return this.#ended(result);
    if (!o.notify) return this.#ended(result);
    if (o.noticeElsewhere) return this.#ended(await dueElsewhere(this.request, result, recorder));
    // Same pane: keep the lock; another: free this one first (no job holds two: no deadlock).
    if (this.#notifyPane === pane) return {at: 'notifying', waited: result};
    await this.#lease?.release();
    this.#lease = undefined;
    const timedOut = await this.#lock(this.#notifyPane);
    return timedOut ?? {at: 'notifying', waited: result};
  }

  /** Send the notice to the notify pane (noticeOfJob), unless another program holds it. */
  async #notifying(waited: Waited): Promise<Step> {
    const pane = this.#notifyPane;
    await this.deps.recorder.transition('notifying', {pane});
    // The job's own pane: what the job saw of it (its foreground then, its program).
    const [began, profile] = pane === this.request.pane ? [this.#began, this.#profile] : [];
    const at = {pane, began, profile, replied: this.#profile};
    const {deps, request} = this;
    return this.#ended(await noticeOfJob(deps, this.#io, request, at, waited, this.#jobSignal()));
  }

  /** Wait a usage limit out (the pane's lock freed meanwhile), then take the lock again; the
   * failed ending when it does not come back. */
  async #waitOutLimit(dialog: FoundDialog): Promise<Step | undefined> {
    const {pane} = this.request;
    await this.#lease?.release();
    this.#lease = undefined;
    const planned = this.deps.clock.now();
    await this.#limits.wait(pane, dialog, this.signal);
    const timedOut = await this.#lock(pane);
    if (timedOut) return timedOut;
    await this.deps.recorder.event('limit-over', {pane, waitedMs: this.deps.clock.now() - planned});
    return undefined;
  }

  #ended(outcome: Omit<JobOutcome, 'notified'> & {notified?: boolean}): Step {
    return {at: 'ended', outcome: {...outcome, notified: outcome.notified ?? false}};
  }

  /** Cancellation, or the loss of the lock held. */
  #jobSignal(): AbortSignal {
    return this.#lease ? AbortSignal.any([this.signal, this.#lease.signal]) : this.signal;
  }

  /** Queue for `pane`'s lock and take it; on the lock timeout, the failed ending. */
  async #lock(pane: string): Promise<Step | undefined> {
    const taken = await takePaneLock(this.deps, this.request, pane, this.signal);
    if (!taken.ok) return this.#ended(taken.error);
    this.#lease = taken.value.lease;
    this.request = {...this.request, text: taken.value.text};
    return undefined;
  }

  /** How the job ended, from what stopped it (a typed line cleared, a command interrupted). */
  #outcomeOf(error: unknown): Promise<JobOutcome> {
    return stoppedEnding(error, this.#io, this.deps, {
      phase: this.#phase,
      cancelled: this.signal.aborted,
      profile: this.#profile,
      request: this.request,
      typed: this.#typed,
      running: this.#running,
      leaseLost: this.#lease?.signal.aborted ?? false,
      notifyPane: this.#notifyPane,
    });
  }
}
