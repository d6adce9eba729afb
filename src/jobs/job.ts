import type {HookMarkSource} from '../agents/hook-marks.js';
import {
  countEchoes,
  type EchoKind,
  echoKindOf,
  isBusy,
  type Profile,
  readComposer,
  readComposerState,
} from '../agents/profile.js';
import {
  agentOfCommandLine,
  chooseProfile,
  type Detection,
  isAgent,
  PROFILES,
} from '../agents/registry.js';
import {isPosixShell, isShellCommand} from '../agents/shell.js';
import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {describeError, isAbortError} from '../base/errors.js';
import {createWatcher} from '../detect/conditions.js';
import {describeUntil} from '../detect/until.js';
import {type PaneActivity, waitUntil} from '../detect/wait-until.js';
import {exitSentinel, shellPromptVisible, viewKey} from '../detect/watchers.js';
import type {PaneLease, PaneLock} from '../locks/pane-lock.js';
import type {PaneMemory} from '../pane/memory.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {planTyping} from '../tmux/typing.js';
import {cursorLine, cursorRow, type PaneView, visibleText} from '../tmux/view.js';
import {renderNotice} from './notice.js';
import type {JobRecorder} from './recorder.js';
import type {JobRequest} from './request.js';
import type {JobRecord, TerminalState} from './store.js';

/** What a job needs from the outside world. */
export interface JobDeps {
  tmux: Tmux;
  clock: Clock;
  /** The lock of a pane of the job's server. */
  lockFor: (pane: string) => Pick<PaneLock, 'acquire'>;
  recorder: JobRecorder;
  /** The process running the job (recorded in the queue so waiters can tell it is alive). */
  pid: number;
  /** Output events of panes, when the transport provides them (control mode): undefined
   * when the transport has none. */
  activity: PaneActivity | undefined;
  /** "This pane's agent finished a turn" marks (Claude Stop / Codex notify hooks). */
  hookMarks: HookMarkSource;
  /** The command line of the program in the foreground of a pane's terminal (by the pane's
   * pid), where the system can tell: it names an agent whose screen does not. */
  foregroundCommandLine: (panePid: number) => Promise<readonly string[] | undefined>;
  /** Which agent each pane was last recognised as (kept when its screen shows no marker). */
  paneMemory: PaneMemory;
}

/** Whether the program took what was typed: read back from its screen after Enter. */
export type Delivery =
  | 'submitted'
  | 'submitted-after-retry'
  | 'queued'
  | 'not-submitted'
  | 'unconfirmed'
  | 'no-enter';

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
  /** Whether the text was submitted (confirmed on screen). */
  delivery?: Delivery;
  /** Whether the notice was submitted. */
  noticeDelivery?: Delivery;
}

/** A failure with a sentence for the job record (pane gone, pane dead, ...). */
class JobFailure extends Error {
  override name = 'JobFailure';
}

/** Text that was typed but did not reach the program as meant (stayed in the composer, or
 * ran as a shell command): the job fails with this sentence. */
class NotDelivered extends JobFailure {
  override name = 'NotDelivered';
  constructor(
    message: string,
    readonly delivery: Delivery,
  ) {
    super(message);
  }
}

/** Where the job is, for messages ("Cancelled while waiting"). */
type Phase = 'queued' | 'locked' | 'typing' | 'waiting' | 'notifying';

/** Pause between the groups of clearing keys (longer than a typical ESC-sequence wait). */
const CLEAR_KEY_GAP_MS = 60;
/** The reaction gate opens after this many checks without any change (see ReactionGate). */
const GRACE_CHECKS = 2;
/** How long to look for signs that an Enter took, and how many Enters in all. */
const DELIVERY_WAIT_MS = 2_000;
/** Scrollback read with the screen when counting a prompt's echoes in the transcript. */
const ECHO_HISTORY_ROWS = 300;
/** How many times the keys that leave an input mode, or clear the input line, are tried. */
const MAX_MODE_LEAVES = 3;
const MAX_CLEARS = 3;
/** How often a pane's hook mark is looked at when no file event comes (the backstop). */
const HOOK_MARK_BACKSTOP_MS = 1_000;
const DELIVERY_POLL_MS = 100;
const MAX_ENTERS = 3;
/** How often a draft, or a busy pane (--when-idle), is looked at again. */
const RECHECK_MS = 500;

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
  for (const key of [
    'reason',
    'waitedMs',
    'exitCode',
    'match',
    'delivery',
    'noticeDelivery',
  ] as const) {
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
  #delivery: Delivery | undefined;
  /** The pane lock held now: checked right before every key sent (see #keysAllowed). */
  #lease: PaneLease | undefined;
  readonly #stopTimers: Array<() => void> = [];
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
      if (this.#o.whenIdle) await this.#waitForIdle(pane, this.signal);
      lease = await this.#lock(pane, this.signal);
      this.#lease = lease;
      const jobSignal = AbortSignal.any([this.signal, lease.signal]);
      const waited = await this.#typeAndWait(jobSignal);
      if (waited.state === 'failed' || !this.#o.notify) return {...waited, notified: false};

      // The notice: same pane → keep the lock; another pane → free this one first, so no
      // job ever holds two pane locks at once (no deadlock between crossing jobs).
      if (this.#notifyPane !== pane) {
        await lease.release();
        lease = await this.#lock(this.#notifyPane, this.signal);
        this.#lease = lease;
      }
      try {
        const noticeDelivery = await this.#notify(
          AbortSignal.any([this.signal, lease.signal]),
          waited,
        );
        return {...waited, notified: true, noticeDelivery};
      } catch (error) {
        // The work is done but the notice did not reach the agent: never `done`.
        if (!(error instanceof NotDelivered)) throw error;
        return {
          ...waited,
          state: 'failed',
          reason: `The work ended (${waited.state}), but the notice did not reach the agent: ${error.message}`,
          notified: false,
          noticeDelivery: error.delivery,
        };
      }
    } catch (error) {
      return this.#outcomeOf(error, lease);
    } finally {
      for (const stop of this.#stopTimers) stop();
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
    const detected = await this.#detect(pane, info);
    this.#profile = detected.profile;
    this.#phase = 'typing';
    const sentinel = exitSentinel(this.request.jobId.replace(/-/g, ''));
    // --until exit: run the text in a { } group, then print a sentinel with its status.
    const text =
      o.until.kind === 'exit' ? `{ ${this.request.text}\n${sentinel.command}` : this.request.text;
    await recorder.transition(
      'typing',
      {
        profile: detected.profile.name,
        profileReason: detected.reason,
        chars: [...text].length,
        until: describeUntil(o.until),
      },
      {profile: detected.profile.name, profileReason: detected.reason},
    );
    const {delivery, before} = await this.#deliver(pane, text, detected.profile, signal, {
      enter: o.enter,
      progress: true,
    });
    await recorder.event('typed', {chars: [...text].length, enter: o.enter, delivery});
    this.#delivery = delivery;

    this.#phase = 'waiting';
    const agentTui = isAgent(detected.profile);
    const waitStart = clock.now();
    const hookWatch = agentTui ? this.#hookMarkWatch(pane, waitStart, signal) : undefined;
    await recorder.transition('waiting', {until: describeUntil(o.until), intervalMs: o.intervalMs});
    const watcher = createWatcher(o.until, {
      stableChecks: o.stableChecks,
      ignore: o.ignore,
      baselineKey: viewKey(before, []),
      graceChecks: GRACE_CHECKS,
      paneCommand: info.currentCommand,
      profile: detected.profile,
      freshHookMark: hookWatch?.fresh,
      // A shell prints below the command line; an agent's TUI redraws its transcript above
      // the cursor, so there new output is any line of the screen not on it before Enter.
      mark: agentTui ? {row: before.historySize, col: 0} : {row: cursorRow(before) + 1, col: 0},
      seenLines: agentTui ? new Set(before.rows.map((r) => r.trim()).filter(Boolean)) : undefined,
      lines: o.lines,
      exitPattern: sentinel.pattern,
    });
    const waited = await waitUntil(tmux, pane, watcher, {
      ...o,
      clock,
      signal,
      activity: this.deps.activity,
      typedAt: waitStart,
      wake: hookWatch?.wake,
    });
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
        delivery,
        match: v.match,
        reason: `The fail pattern /${v.pattern}/ matched: ${v.line.trim()}`,
      };
    }
    const outcome: Omit<JobOutcome, 'notified'> & {waitedMs: number} = {
      state: waited.status === 'done' ? 'done' : 'timeout',
      waitedMs,
      delivery,
    };
    if (v.status === 'done' && v.exitCode !== undefined) outcome.exitCode = v.exitCode;
    if (v.status === 'done' && v.match !== undefined) outcome.match = v.match;
    return outcome;
  }

  async #notify(
    signal: AbortSignal,
    waited: Omit<JobOutcome, 'notified'> & {waitedMs: number},
  ): Promise<Delivery> {
    const {recorder} = this.deps;
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
      delivery: waited.delivery ?? 'unconfirmed',
    });
    const target = await this.#preflight(pane);
    const profile =
      pane === this.request.pane && this.#profile
        ? this.#profile
        : (await this.#detect(pane, target)).profile;
    // The notice is nudge's own one-line text (no picker character, nothing a person typed):
    // to an agent it goes as one burst followed by the profile's measured least pause before
    // Enter, so an agent waits for its wake-up no longer than it must.
    const burst = isAgent(profile) && !/[\r\n]/.test(notice);
    const {delivery} = await this.#deliver(pane, notice, profile, signal, {
      enter: true,
      progress: false,
      ...(burst ? {typeDelayMs: 0, enterDelayMs: profile.minEnterDelayMs} : {}),
    });
    await recorder.event('notified', {pane, chars: [...notice].length, delivery});
    return delivery;
  }

  /** The pane's profile: --profile, or detected from its foreground program (where the
   * system can tell), its command and its screen. */
  async #detect(pane: string, info: PaneInfo): Promise<Detection> {
    const view = await this.deps.tmux.view(pane, 0);
    const argv = await this.deps.foregroundCommandLine(info.panePid);
    const program = argv ? agentOfCommandLine(argv) : undefined;
    const found = chooseProfile(this.#o.profile, info.currentCommand, visibleText(view), program);
    if (this.#o.profile !== 'auto') return found;
    const {paneMemory} = this.deps;
    if (isAgent(found.profile)) {
      await paneMemory.remember(pane, info.panePid, found.profile.name);
      return found;
    }
    // An agent recognised earlier whose screen shows none of its markers now (not a shell:
    // the agent has exited back to one).
    const earlier = isShellCommand(info.currentCommand)
      ? undefined
      : await paneMemory.recall(pane, info.panePid);
    if (earlier && earlier !== found.profile.name) {
      return {
        profile: PROFILES[earlier],
        reason: `recognised as ${earlier} earlier; its screen shows no marker of it now`,
      };
    }
    return found;
  }

  /**
   * Put `text` into the pane's input line and submit it: make the composer ready (a person's
   * draft waited for or, with --clear-draft, cleared; an input mode left), type it — or paste
   * it where typing would open a picker or submit early — pause, press Enter, and read the
   * screen back to confirm it arrived as meant: as a prompt in the agent's transcript (or its
   * queued-message marker), or, for text that starts with the shell prefix, as a command of
   * its shell mode. Enter is pressed again (never the text retyped) a bounded number of
   * times. Text that cannot be confirmed so throws NotDelivered.
   */
  async #deliver(
    pane: string,
    text: string,
    profile: Profile,
    signal: AbortSignal,
    o: {enter: boolean; progress: boolean; typeDelayMs?: number; enterDelayMs?: number},
  ): Promise<{delivery: Delivery; before: PaneView}> {
    const {tmux, clock, recorder} = this.deps;
    await this.#prepareComposer(pane, profile, signal);
    const kind = echoKindOf(profile, text);
    const pasted =
      isAgent(profile) && (/[\r\n]/.test(text) || profile.pasteWhen?.test(text) === true);
    if (pasted) {
      signal.throwIfAborted();
      this.#keysAllowed();
      await tmux.paste(pane, text);
      if (o.progress) this.#typed = [...text].length;
      const shown = readComposer(profile, await tmux.view(pane, 0));
      await recorder.event('pasted', {
        pane,
        chars: [...text].length,
        verified: shown === text.trim(),
      });
    } else {
      await this.#type(pane, text, signal, o.progress, o.typeDelayMs ?? this.#o.typeDelayMs);
    }
    await clock.sleep(
      Math.max(o.enterDelayMs ?? this.#o.enterDelayMs, profile.minEnterDelayMs),
      signal,
    );
    // The screen just before Enter: the reaction gate's baseline, and new output starts on
    // the row after the cursor (so the echo of the typed command never matches a regex).
    const before = await tmux.view(pane, 0);
    // A person typing into the pane meanwhile mixes their keys into the line: then pressing
    // Enter would run what they typed (and a half of ours). Where the line can be read, it
    // must still hold only the text; otherwise leave it as it is, for them.
    const composer = pasted ? undefined : readComposerState(profile, before);
    if (composer !== undefined && !holdsOnly(composer.text, text)) {
      throw new JobFailure(
        `Someone typed into pane ${pane} while the job typed (its input line reads ${JSON.stringify(preview(composer.text))}); Enter was not pressed and the line was left as it is.`,
      );
    }
    // A prompt must not be sent from an input mode (it would run as a shell command).
    if (kind === 'prompt' && composer?.mode) {
      throw new NotDelivered(
        `Pane ${pane}'s input line is in ${composer.mode.name} after typing, so the text would run as a shell command; Enter was not pressed.`,
        'not-submitted',
      );
    }
    if (!o.enter) return {delivery: 'no-enter', before};
    const echoesBefore = isAgent(profile) ? await this.#echoes(pane, profile, text) : undefined;
    // Where Enter would break into a running turn, the profile's queue key sends the line
    // after it instead (never for a retry: a queued line is no longer in the composer).
    const queueKey = profile.queueKey && isBusy(profile, before) ? profile.queueKey : undefined;
    if (queueKey) await recorder.event('queueing', {pane, key: queueKey});
    for (let enters = 1; ; enters++) {
      this.#keysAllowed();
      await tmux.pressKeys(pane, [enters === 1 && queueKey ? queueKey : 'Enter']);
      const took = await this.#submitted(pane, profile, text, kind, before, echoesBefore, signal);
      if (took === 'wrong-mode') {
        await recorder.event('not-submitted', {pane, enters, why: 'ran-as-shell-command'});
        throw new NotDelivered(
          `The text sent to pane ${pane} ran as a shell command in the agent's shell mode instead of reaching the model as a prompt.`,
          'not-submitted',
        );
      }
      if (took !== 'not-yet') {
        const delivery: Delivery =
          took === 'queued'
            ? 'queued'
            : took === 'unconfirmed'
              ? 'unconfirmed'
              : enters === 1
                ? 'submitted'
                : 'submitted-after-retry';
        return {delivery, before};
      }
      if (enters >= MAX_ENTERS) {
        await recorder.event('not-submitted', {pane, enters});
        throw new NotDelivered(
          `The text typed into pane ${pane} was not submitted: after ${enters} Enters it ${
            isAgent(profile)
              ? 'did not show in the transcript as a prompt'
              : 'stayed in the input line'
          }.`,
          'not-submitted',
        );
      }
      await recorder.event('enter-retry', {pane, enters});
    }
  }

  /** How often `text` shows in the transcript as a prompt and as a shell command. */
  async #echoes(
    pane: string,
    profile: Profile,
    text: string,
  ): Promise<{prompt: number | undefined; shell: number | undefined}> {
    const view = await this.deps.tmux.view(pane, ECHO_HISTORY_ROWS);
    return {
      prompt: countEchoes(profile, view, text, 'prompt'),
      shell: countEchoes(profile, view, text, 'shell'),
    };
  }

  /**
   * Look for signs that an Enter took. An agent: the text shows once more in its transcript
   * as what it was meant to be (a prompt, or a shell-mode command), or its queued-message
   * marker shows; the other kind of echo means it went to the wrong mode. Where the profile
   * cannot read echoes, the old signs count: the input line no longer holds the text, or the
   * agent went busy. A shell: the cursor left the line.
   */
  async #submitted(
    pane: string,
    profile: Profile,
    text: string,
    kind: EchoKind,
    before: PaneView,
    echoesBefore: {prompt: number | undefined; shell: number | undefined} | undefined,
    signal: AbortSignal,
  ): Promise<'yes' | 'queued' | 'unconfirmed' | 'not-yet' | 'wrong-mode'> {
    const {tmux, clock} = this.deps;
    if (profile.name === 'raw') return 'unconfirmed';
    const tail = lastLine(text).slice(-24);
    const deadline = clock.now() + DELIVERY_WAIT_MS;
    const wrongKind: EchoKind = kind === 'prompt' ? 'shell' : 'prompt';
    for (;;) {
      await clock.sleep(DELIVERY_POLL_MS, signal);
      if (profile.name === 'shell') {
        const view = await tmux.view(pane, 0);
        if (cursorRow(view) !== cursorRow(before) || cursorLine(view) !== cursorLine(before))
          return 'yes';
      } else {
        const view = await tmux.view(pane, ECHO_HISTORY_ROWS);
        const now = {
          prompt: countEchoes(profile, view, text, 'prompt'),
          shell: countEchoes(profile, view, text, 'shell'),
        };
        const was = echoesBefore ?? {prompt: undefined, shell: undefined};
        const grew = (k: EchoKind) =>
          now[k] !== undefined && was[k] !== undefined && now[k] > (was[k] ?? 0);
        if (grew(kind)) return 'yes';
        if (kind === 'prompt' && grew(wrongKind)) return 'wrong-mode';
        if (profile.queued?.test(visibleText(view))) return 'queued';
        const composer = readComposer(profile, view);
        const cleared =
          composer !== undefined &&
          !composer.includes('[Pasted text') &&
          (tail === '' || !composer.replace(/\s+/g, ' ').includes(tail.replace(/\s+/g, ' ')));
        // A shell-mode command may print nothing the profile knows before it ends; a pasted
        // text is drawn as "[Pasted text]"; a profile without echoes cannot tell.
        const echoUnknown = now[kind] === undefined || was[kind] === undefined;
        if ((kind === 'shell' || echoUnknown) && (cleared || isBusy(profile, view))) return 'yes';
        if (clock.now() >= deadline) {
          // The input line emptied but no echo showed (scrolled away, drawn differently).
          return cleared ? 'unconfirmed' : 'not-yet';
        }
        continue;
      }
      if (clock.now() >= deadline) return 'not-yet';
    }
  }

  /**
   * Make the input line ready for new text without destroying anything nudge cannot read:
   * - a person's draft is waited for (up to --draft-wait) to be sent or cleared, then the job
   *   fails having typed nothing; --clear-draft clears it instead;
   * - a prompt the agent put back after an interruption (this job's own text) is cleared;
   * - an input mode (shell mode, bash mode) is left with the profile's keys, once the agent is
   *   not busy;
   * - an agent's screen that shows no input line nudge can read (a dialog, a menu) is waited
   *   for like a draft, never cleared blindly.
   * A shell's line that cannot be read, or a program nudge knows nothing about, is cleared
   * as before (unless --no-clear).
   */
  async #prepareComposer(pane: string, profile: Profile, signal: AbortSignal): Promise<void> {
    const {tmux, clock, recorder} = this.deps;
    const deadline = clock.now() + this.#o.draftWaitMs;
    const announced = new Set<string>();
    const announce = async (event: string, data: Record<string, unknown>) => {
      if (announced.has(event)) return;
      announced.add(event);
      await recorder.event(event, {pane, ...data});
    };
    let leaves = 0;
    let clears = 0;
    for (;;) {
      const view = await tmux.view(pane, 0);
      const state = readComposerState(profile, view);
      const busy = isBusy(profile, view);
      let waitingFor: string;
      if (state === undefined) {
        if (!isAgent(profile)) {
          if (this.#o.clear) await this.#clear(pane, profile, signal, busy);
          return;
        }
        await announce('waiting-for-composer', {profile: profile.name});
        waitingFor = `shows no input line nudge can read (its screen ends ${JSON.stringify(preview(lastRows(view)))})`;
      } else if (state.text !== '') {
        // An agent that gives up on a turn (or is interrupted) puts the prompt back into its
        // composer: that "draft" is this job's own text, not a person's. Cleared a bounded
        // number of times (keys that do not clear it must not spin here).
        const own = sameText(state.text, this.request.text);
        if ((own || this.#o.clearDraft) && clears < MAX_CLEARS) {
          clears++;
          await recorder.event(own ? 'own-text-cleared' : 'draft-cleared', {
            pane,
            chars: [...state.text].length,
          });
          await this.#clear(pane, profile, signal, busy);
          continue;
        }
        await announce('waiting-for-draft', {chars: [...state.text].length});
        waitingFor = `has a draft in its input line (${JSON.stringify(preview(state.text))}) that was not sent or cleared`;
      } else if (state.mode) {
        if (!busy && leaves < MAX_MODE_LEAVES) {
          leaves++;
          await recorder.event('left-input-mode', {pane, mode: state.mode.name});
          await this.#pressGroups(pane, state.mode.leaveKeys, signal);
          continue;
        }
        if (!busy) {
          throw new JobFailure(
            `Pane ${pane}'s input line stays in ${state.mode.name} after ${MAX_MODE_LEAVES} tries to leave it; nothing was typed.`,
          );
        }
        // Keys that leave a mode may cancel a running turn: wait until it ends.
        await announce('waiting-to-leave-mode', {mode: state.mode.name});
        waitingFor = `is in ${state.mode.name} while the agent works`;
      } else {
        return;
      }
      if (clock.now() >= deadline) {
        throw new JobFailure(
          `Pane ${pane} ${waitingFor} within ${formatDuration(this.#o.draftWaitMs)}; nothing was typed${
            waitingFor.includes('draft') ? ' (use --clear-draft to clear it)' : ''
          }.`,
        );
      }
      await clock.sleep(Math.min(RECHECK_MS, Math.max(0, deadline - clock.now())), signal);
    }
  }

  /** --when-idle: before queueing for the lock, wait until the pane is idle per its profile
   * (two checks in a row, or a fresh hook mark with nothing busy on screen). */
  async #waitForIdle(pane: string, signal: AbortSignal): Promise<void> {
    const {tmux, clock, recorder} = this.deps;
    const started = clock.now();
    const deadline = started + this.#o.idleTimeoutMs;
    let inARow = 0;
    let lastKey: string | undefined;
    let announced = false;
    for (;;) {
      signal.throwIfAborted();
      const info = await tmux.describePane(pane);
      if (!info) throw new JobFailure(`Pane ${pane} is gone; nothing was typed.`);
      const view = await tmux.view(pane, 0);
      const {profile} = await this.#detect(pane, info);
      const mark = await this.deps.hookMarks.read(pane);
      const key = viewKey(view, []);
      let idle: boolean;
      if (profile.name === 'shell')
        idle = isShellCommand(view.currentCommand) && shellPromptVisible(view);
      else if (profile.name === 'raw') idle = key === lastKey;
      else
        idle =
          !isBusy(profile, view) &&
          (readComposer(profile, view) !== undefined ||
            (mark !== undefined && mark.atMs >= started));
      lastKey = key;
      inARow = idle ? inARow + 1 : 0;
      if (inARow >= 2) {
        if (announced) await recorder.event('idle', {pane, waitedMs: clock.now() - started});
        return;
      }
      if (!announced) {
        announced = true;
        await recorder.event('waiting-for-idle', {pane, profile: profile.name});
      }
      if (clock.now() >= deadline) {
        throw new JobFailure(
          `Pane ${pane} stayed busy for ${formatDuration(this.#o.idleTimeoutMs)} (--idle-timeout); nothing was typed.`,
        );
      }
      await clock.sleep(Math.min(RECHECK_MS, Math.max(0, deadline - clock.now())), signal);
    }
  }

  /**
   * For `--until prompt` on an agent: follow the pane's turn-end hook mark (file events on
   * the marks folder, with a backstop) and say whether one came after `since`. `fresh` is
   * read synchronously by the watcher; `wake` resolves when a fresh mark arrives, so the wait
   * looks at once instead of at its next interval.
   */
  #hookMarkWatch(
    pane: string,
    since: number,
    signal: AbortSignal,
  ): {fresh: () => boolean; wake: (s: AbortSignal) => Promise<void>} | undefined {
    if (this.#o.until.kind !== 'prompt') return undefined;
    const {hookMarks, recorder} = this.deps;
    let fresh = false;
    const waiters = new Set<() => void>();
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    signal.addEventListener('abort', onAbort, {once: true});
    this.#stopTimers.push(() => {
      signal.removeEventListener('abort', onAbort);
      stop.abort();
    });
    void (async () => {
      while (!stop.signal.aborted && !fresh) {
        const seen = hookMarks.version();
        const mark = await hookMarks.read(pane);
        if (mark !== undefined && mark.atMs >= since) {
          fresh = true;
          void recorder.event('hook-mark', {pane, source: mark.source, atMs: mark.atMs});
          for (const wake of waiters) wake();
          return;
        }
        await hookMarks.changed(stop.signal, HOOK_MARK_BACKSTOP_MS, seen).catch(() => {});
      }
    })();
    return {
      fresh: () => fresh,
      wake: (s) =>
        new Promise<void>((resolve) => {
          if (fresh || s.aborted) return;
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          s.addEventListener('abort', () => waiters.delete(wake), {once: true});
        }),
    };
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
      if (phase === 'typing' && this.#typed > 0 && this.#profile) {
        // Do not leave half a command sitting in the input line.
        void this.#clear(
          this.request.pane,
          this.#profile,
          AbortSignal.timeout(5_000),
          isAgent(this.#profile),
        ).catch(() => {});
      }
      const progress =
        phase === 'typing'
          ? ` after typing ${this.#typed} of ${[...this.request.text].length} characters`
          : '';
      return {state: 'cancelled', reason: `Cancelled while ${phase}${progress}.`, notified: false};
    }
    const failed: JobOutcome = {
      state: 'failed',
      reason: this.#failureReason(error),
      notified: false,
    };
    if (error instanceof NotDelivered) failed.delivery = error.delivery;
    return failed;
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

  /** Throw unless the pane lock is certainly still ours: after a stall (SIGSTOP, a suspended
   * machine) the next timer to fire may be a keystroke's, before proper-lockfile notices the
   * takeover, so every key is preceded by this synchronous check. */
  #keysAllowed(): void {
    this.#lease?.assertHeld?.();
  }

  /** Empty the input line with the profile's keys. While the agent is busy, keys that would
   * cancel its turn (Escape) are left out. */
  async #clear(pane: string, profile: Profile, signal: AbortSignal, busy: boolean): Promise<void> {
    const groups = busy
      ? profile.clearKeys.filter((g) => !g.includes('Escape'))
      : profile.clearKeys;
    await this.#pressGroups(pane, groups, signal);
  }

  /** Press key groups, each one tmux call, with a short pause between so a program that
   * waits to tell Escape from Alt-key sees them apart. */
  async #pressGroups(
    pane: string,
    groups: readonly (readonly string[])[],
    signal: AbortSignal,
  ): Promise<void> {
    const {tmux, clock} = this.deps;
    for (const [i, keys] of groups.entries()) {
      if (i > 0) await clock.sleep(CLEAR_KEY_GAP_MS, signal);
      this.#keysAllowed();
      await tmux.pressKeys(pane, keys);
    }
    await clock.sleep(CLEAR_KEY_GAP_MS, signal);
  }

  /**
   * Type `text`: one key event per character, paced at `typeDelayMs` (--type-delay) from a fixed schedule
   * (the cost of each tmux call is absorbed, not added); with a type delay of 0 each line
   * goes out in one call. A newline presses Enter after the enter delay.
   */
  async #type(
    pane: string,
    text: string,
    signal: AbortSignal,
    countProgress: boolean,
    typeDelayMs: number,
  ): Promise<void> {
    const {tmux, clock} = this.deps;
    const o = this.#o;
    const progress = (n: number) => {
      if (countProgress) this.#typed += n;
    };
    for (const step of planTyping(text)) {
      if (step.kind === 'enter') {
        await clock.sleep(o.enterDelayMs, signal);
        this.#keysAllowed();
        await tmux.pressKeys(pane, ['Enter']);
        progress(1);
        continue;
      }
      if (typeDelayMs === 0) {
        signal.throwIfAborted();
        this.#keysAllowed();
        await tmux.typeLiteral(pane, step.chars.join(''));
        progress(step.chars.length);
        continue;
      }
      const start = clock.now();
      for (const [i, ch] of step.chars.entries()) {
        if (i > 0) await clock.sleep(start + i * typeDelayMs - clock.now(), signal);
        else signal.throwIfAborted();
        this.#keysAllowed();
        await tmux.typeLiteral(pane, ch);
        progress(1);
      }
    }
  }
}

/** The last line of a text (what stays visible in a one-line input). */
function lastLine(text: string): string {
  return (text.split(/\r\n|\n|\r/).pop() ?? '').trim();
}

/** Whether an input line read back after typing holds only (the visible end of) `text`:
 * whitespace is ignored, as the line may wrap or the program may reflow it. */
function holdsOnly(line: string, text: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, '');
  return squash(text).endsWith(squash(line));
}

/** The last non-empty rows of a screen, joined by " / " (what a dialog or menu shows). */
function lastRows(view: PaneView): string {
  return visibleText(view)
    .split('\n')
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-2)
    .join(' / ');
}

/** At most 40 characters of a draft, for messages. */
function preview(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** The same text, ignoring how whitespace and line breaks were drawn. */
function sameText(a: string, b: string): boolean {
  const norm = (t: string) => t.replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}
