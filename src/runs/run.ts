import {type FoundDialog, findPermissionDialog} from '../agents/permission.js';
import {isBusy, isIdle, type Profile} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isShellCommand} from '../agents/shell.js';
import {formatDuration} from '../base/durations.js';
import {describeError, isAbortError} from '../base/errors.js';
import {exitSentinel} from '../detect/watchers.js';
import type {TerminalState} from '../jobs/store.js';
import {type Awaited, awaitDone} from '../pane/await-done.js';
import {deliver} from '../pane/deliver.js';
import {type Delivery, PaneFailure} from '../pane/failures.js';
import {type PaneIo, pressGroups} from '../pane/keys.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {cursorRow, type PaneView, visibleText} from '../tmux/view.js';
import type {RunDeps, RunEvents, RunOutcome} from './events.js';
import {integrate} from './integrate.js';
import {progressDue, RunClock} from './monitor.js';
import {outputTail} from './output.js';
import {PermissionStops} from './permissions.js';
import {type RunReport, renderReport, runNotice, runStatusOf} from './report.js';
import type {RunRequest} from './request.js';
import {lastLines, shellReady, startAgent} from './start.js';

/** How the work ended, before integration and the report. */
interface Ending {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  timeout?: 'idle' | 'total' | undefined;
}

/** How long an interrupt gets before the process group is ended. */
const INTERRUPT_GRACE_MS = 1_000;
/** Scrollback read for the report's last lines. */
const TAIL_HISTORY_ROWS = 2_000;

/**
 * Run one `nudge run` job in the pane opened for it:
 *
 *   starting → running → [stopping] → integrating → [notifying] → done | failed | timeout | cancelled
 *
 * starting: wait for the new pane's shell, type the command (with an exit sentinel) — or
 * start the agent, wait for its composer and deliver the prompt through its profile. running:
 * wait for the command's exit status or the agent's idle prompt (awaitDone), while a timer
 * looks at the screen and the files (progress events, idle and total timeouts, permission
 * dialogs). stopping: interrupt, then end the pane's foreground process groups. integrating:
 * in a worktree commit what is left, count changes and commits, `--pr`. Then the report and the
 * one-line notice into the calling pane. `signal` cancels. Never throws.
 */
export type {RunDeps, RunEvents, RunOutcome, RunRecorder, RunState} from './events.js';

export async function runRun(
  deps: RunDeps,
  request: RunRequest,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const outcome = await new Run(deps, request, signal).run();
  await deps.recorder.end(outcome);
  return outcome;
}

class Run {
  readonly #start: number;
  readonly #o: RunRequest['options'];
  readonly #pane: string;
  readonly #io: PaneIo;
  readonly #profile: Profile;
  readonly #sentinel: {command: string; pattern: RegExp};
  #panePid: number | undefined;
  /** The absolute row where the command's output begins. */
  #startRow: number | undefined;
  /** Changed files (and their mtimes) when the run began, outside a worktree. */
  #filesAtStart: Map<string, number> | undefined;
  /** Foreground process groups seen (other than the shell's): ended on a stop. */
  readonly #groups = new Set<number>();
  readonly #permissions: PermissionStops;

  constructor(
    private readonly deps: RunDeps,
    private readonly request: RunRequest,
    private readonly signal: AbortSignal,
  ) {
    this.#start = deps.clock.now();
    this.#o = request.options;
    this.#pane = request.pane;
    this.#profile = this.#o.agent ? PROFILES[this.#o.agent] : PROFILES.shell;
    // A subshell: the command's `exit`, `cd` or `set -e` end it, not the pane's shell.
    this.#permissions = new PermissionStops(this.#o.permissions);
    this.#sentinel = exitSentinel(request.jobId.replace(/-/g, ''), ')');
    this.#io = {
      tmux: deps.tmux,
      clock: deps.clock,
      note: (event, data) => deps.recorder.event(event, data as RunEvents[typeof event]),
      // The pane is the run's own: nobody else queues for it.
      guard: () => {},
    };
  }

  async run(): Promise<RunOutcome> {
    const {recorder} = this.deps;
    await recorder.event('worker-started', {pid: this.deps.pid});
    let ending: Ending;
    try {
      ending = await this.#execute();
    } catch (error) {
      ending = this.#endingOf(error);
    }
    if (ending.state === 'timeout' || ending.state === 'cancelled') await this.#stop(ending);
    const report = await this.#report(ending);
    await this.deps.writeReport(renderReport(report));
    await recorder.event('reported', {path: report.path});
    let outcome: RunOutcome = {
      state: ending.state,
      reason: ending.reason,
      exitCode: ending.exitCode,
      notified: false,
      report,
    };
    const notifyPane = this.#o.notifyPane;
    if (notifyPane !== null && ending.state !== 'cancelled') {
      outcome = await this.#notify(notifyPane, outcome);
    }
    if (this.#o.close) {
      await this.deps.tmux.killPane(this.#pane).catch(() => {});
      await recorder.event('pane-closed', {pane: this.#pane});
    }
    return outcome;
  }

  /** starting and running: until the work ends or a timeout passes. */
  async #execute(): Promise<Ending> {
    const {recorder} = this.deps;
    const o = this.#o;
    await recorder.transition('starting', {pane: this.#pane, cwd: o.cwd});
    const shell = await shellReady(this.deps, this.#pane, this.signal);
    this.#panePid = shell.panePid;
    await recorder.event('shell-ready', {pane: this.#pane, shell: shell.currentCommand});
    if (o.git && !o.worktree) {
      this.#filesAtStart = await this.deps.git.changedFiles(o.git.root).catch(() => undefined);
    }
    const view = await this.deps.tmux.view(this.#pane, 0);
    this.#startRow = cursorRow(view) + 1;
    if (o.agent) {
      await startAgent(
        {...this.deps, io: this.#io, onDialog: (view) => this.#onDialog(view)},
        this.#pane,
        this.#profile,
        shell.panePid,
        this.signal,
      );
      await recorder.event('agent-ready', {pane: this.#pane, agent: o.agent});
    }
    const text = o.agent ? this.request.text : `( ${this.request.text}\n${this.#sentinel.command}`;
    const delivered = await deliver(
      this.#io,
      this.#pane,
      text,
      this.#profile,
      {
        enter: true,
        typeDelayMs: 0,
        enterDelayMs: Math.max(300, this.#profile.minEnterDelayMs),
        clear: false,
        clearDraft: false,
        draftWaitMs: 10_000,
        ownText: text,
      },
      this.signal,
    );
    if (!o.agent) this.#startRow = cursorRow(delivered.before) + 1;
    await recorder.transition('running', {
      idleTimeoutMs: o.idleTimeoutMs,
      timeoutMs: o.timeoutMs,
    });
    await recorder.event('started', {
      pane: this.#pane,
      ...(o.agent ? {agent: o.agent} : {command: this.request.text}),
      delivery: delivered.delivery,
    });
    // An agent's pane runs the agent now (Gemini and Codex as `node`), not the shell: its
    // idle prompt is read from its screen, not from the shell's foreground.
    const paneCommand = o.agent ? delivered.before.currentCommand : shell.currentCommand;
    return this.#watch(delivered.before, paneCommand);
  }

  /** running: the work's own end (awaitDone) raced against the timer's looks. */
  async #watch(before: PaneView, paneCommand: string): Promise<Ending> {
    const {recorder, clock} = this.deps;
    const o = this.#o;
    const stop = new AbortController();
    const agent = o.agent !== null;
    const done: Promise<{r: Awaited} | {e: unknown}> = awaitDone(
      this.deps,
      this.#pane,
      {
        until: agent ? {kind: 'prompt', profile: undefined, pattern: undefined} : {kind: 'exit'},
        intervalMs: o.intervalMs,
        // The timer below ends the run; this only bounds the wait if it somehow does not.
        timeoutMs: o.timeoutMs + 60_000,
        stableChecks: 2,
        ignore: [],
        lines: 50,
        profile: this.#profile,
        paneCommand,
        panePid: this.#panePid ?? 0,
        onInputUnknown: (why) =>
          void recorder.event('input-state-unknown', {pane: this.#pane, why}).catch(() => {}),
        before,
        exitPattern: this.#sentinel.pattern,
        onHookMark: () => {},
      },
      AbortSignal.any([this.signal, stop.signal]),
    ).then(
      (r) => ({r}),
      (e: unknown) => ({e}),
    );
    const runClock = new RunClock(this.#start, o);
    let lastProgress = Number.NEGATIVE_INFINITY;
    let dirty = false;
    for (;;) {
      const tick = clock.sleep(o.intervalMs, stop.signal).then(
        () => undefined,
        () => undefined,
      );
      const settled = await Promise.race([done, tick]);
      if (settled) {
        stop.abort();
        if ('e' in settled) throw settled.e;
        return this.#finished(settled.r);
      }
      if (this.signal.aborted) {
        stop.abort();
        await done;
        throw this.signal.reason;
      }
      const view = await this.#view().catch((error: unknown) => {
        stop.abort();
        throw error;
      });
      await this.#noteGroup();
      const asking = agent && (await this.#onDialog(view)) && o.permissions === 'ask';
      const files = o.git ? await this.deps.git.snapshot(o.git.root).catch(() => '') : '';
      const verdict = runClock.observe({
        nowMs: clock.now(),
        screen: visibleText(view),
        files,
        asking,
      });
      if (agent && isShellCommand(view.currentCommand)) {
        stop.abort();
        await done;
        return {
          state: 'failed',
          reason: `${o.agent} exited before it finished: ${lastLines(view, 3).join(' / ')}`,
        };
      }
      dirty ||= verdict.screenChanged || verdict.filesChanged;
      const sinceLastMs = clock.now() - lastProgress;
      if (progressDue({changed: dirty, sinceLastMs})) {
        await this.#progress(view, files, runClock, verdict.quietMs);
        lastProgress = clock.now();
        dirty = false;
      }
      if (verdict.timeout) {
        stop.abort();
        await done;
        return verdict.timeout === 'idle'
          ? {
              state: 'timeout',
              timeout: 'idle',
              reason: `idle timeout: no output and no file change for ${formatDuration(o.idleTimeoutMs)}.`,
            }
          : {
              state: 'timeout',
              timeout: 'total',
              reason: `total timeout: still running after ${formatDuration(o.timeoutMs)}.`,
            };
      }
    }
  }

  /** The work's own end: a command's exit status, or the agent idle at its prompt. */
  async #finished(r: Awaited): Promise<Ending> {
    await this.deps.recorder.event('exit-status', {exitCode: r.exitCode, verdict: r.why});
    if (r.status !== 'done') {
      return {state: 'timeout', timeout: 'total', reason: `total timeout: ${r.why}.`};
    }
    if (this.#o.agent) return {state: 'done'};
    const exitCode = r.exitCode;
    return exitCode === 0
      ? {state: 'done', exitCode}
      : {state: 'failed', exitCode, reason: `The command exited with status ${exitCode}.`};
  }

  /**
   * A permission or trust dialog on screen: recorded once per question; `deny` answers no
   * with the profile's keys, `ask` tells the calling pane. Returns whether one is shown.
   */
  async #onDialog(view: PaneView): Promise<boolean> {
    const {recorder} = this.deps;
    const found = findPermissionDialog(this.#profile, view);
    const step = this.#permissions.observe(found, new Date(this.deps.clock.now()).toISOString());
    if (step.kind === 'answered') {
      await recorder.event('permission-answered', {question: step.stop.question});
    }
    if (step.kind === 'new') {
      const {kind, question, detail} = step.stop;
      await recorder.event('permission-prompt', {kind, question, detail});
      if (!step.deny && found) await this.#tellAsked(found);
    }
    if (found && (step.kind === 'new' || step.kind === 'still') && step.deny) {
      await pressGroups(this.#io, this.#pane, found.denyKeys, this.signal);
      await recorder.event('permission-denied', {
        question: found.question,
        keys: found.denyKeys.flat(),
      });
    }
    return found !== undefined;
  }

  /** Tell the calling pane that the agent waits for a person's answer. */
  async #tellAsked(found: FoundDialog): Promise<void> {
    const pane = this.#o.notifyPane;
    if (pane === null) return;
    const detail = found.detail.length ? ` (${found.detail.join(' / ')})` : '';
    const line = previewLine(
      `[nudge run ${this.request.jobId}] ${this.#o.agent} asks: ${found.question}${detail} — answer it in pane ${this.#pane}`,
    );
    await this.#tell(pane, line);
  }

  async #tell(pane: string, line: string): Promise<Delivery | undefined> {
    try {
      const delivery = await this.deps.tell(pane, line);
      await this.deps.recorder.event('told', {pane, line, delivery});
      return delivery;
    } catch (error) {
      await this.deps.recorder.event('tell-failed', {pane, line, why: describeError(error)});
      return undefined;
    }
  }

  /** Remember the pane's foreground group while it is not the shell's own. */
  async #noteGroup(): Promise<void> {
    const shell = this.#panePid;
    if (shell === undefined) return;
    const group = await this.deps.foreground.group(shell);
    if (group !== undefined && group !== shell) this.#groups.add(group);
  }

  async #progress(view: PaneView, files: string, clock: RunClock, quietMs: number) {
    const o = this.#o;
    const agent = o.agent !== null;
    let verdict: string;
    if (agent) {
      verdict = this.#permissions.showing
        ? 'permission dialog'
        : isBusy(this.#profile, view)
          ? 'busy'
          : isIdle(this.#profile, view)
            ? 'idle at its prompt'
            : 'working';
    } else {
      const input = await this.deps.foreground.inputState(this.#panePid ?? 0);
      verdict =
        input.kind === 'unknown'
          ? 'unknown'
          : `${input.kind.replace(/-/g, ' ')} (${input.program})`;
    }
    const commits = o.git
      ? await this.deps.git
          .commitsSince(o.git.root, o.git.base)
          .then((c) => c.length)
          .catch(() => null)
      : null;
    await this.deps.recorder.event('progress', {
      outputLines: Math.max(0, cursorRow(view) - (this.#startRow ?? 0)),
      lastActivity: new Date(clock.lastChangeMs).toISOString(),
      quietMs,
      files: o.git ? (files === '' ? 0 : files.split('\n').length) : null,
      commits,
      verdict,
    });
  }

  /** stopping: interrupt (C-c, or the agent's Escape), then end what still runs. */
  async #stop(ending: Ending): Promise<void> {
    const {recorder, tmux, clock} = this.deps;
    await recorder.transition('stopping', {why: ending.reason ?? ending.state}).catch(() => {});
    const keys = this.#o.agent ? ['Escape'] : ['C-c'];
    try {
      await tmux.pressKeys(this.#pane, keys);
      await recorder.event('interrupted', {keys});
    } catch {
      return; // the pane is gone, and what ran in it with it
    }
    await clock.sleep(ending.state === 'cancelled' ? 300 : INTERRUPT_GRACE_MS);
    await this.#noteGroup();
    for (const group of this.#groups) {
      const how = await this.deps.endGroup(group);
      await recorder.event('group-ended', {group, how});
    }
  }

  /** integrating, then the report. */
  async #report(ending: Ending): Promise<RunReport> {
    const {recorder, clock} = this.deps;
    const o = this.#o;
    await recorder.transition('integrating', {}).catch(() => {});
    const found = await integrate(
      {
        git: this.deps.git,
        gh: this.deps.gh,
        note: (event, data) =>
          recorder.event(event, data as RunEvents['committed'] & RunEvents['pr']),
      },
      this.request,
      this.#filesAtStart,
    );
    if (found.error !== undefined) await recorder.event('integrate-failed', {why: found.error});
    const endedMs = clock.now();
    const reason =
      found.error === undefined
        ? ending.reason
        : `${ending.reason ? `${ending.reason} ` : ''}(git: ${found.error})`;
    let tail: string[] = [];
    try {
      const view = await this.deps.tmux.view(this.#pane, TAIL_HISTORY_ROWS);
      tail = outputTail(
        view,
        o.agent
          ? {agent: this.#profile}
          : {startRow: this.#startRow ?? 0, sentinel: this.#sentinel.pattern},
      );
    } catch {
      // the pane is gone
    }
    return {
      job: this.request.jobId,
      path: this.deps.files.report,
      status: runStatusOf(ending.state, ending.timeout),
      state: ending.state,
      reason,
      exitCode: ending.exitCode,
      startedAt: new Date(this.#start).toISOString(),
      endedAt: new Date(endedMs).toISOString(),
      durationMs: endedMs - this.#start,
      ...(o.agent ? {agent: o.agent, prompt: this.request.text} : {command: this.request.text}),
      pane: this.#pane,
      cwd: o.cwd,
      worktree: o.worktree?.path,
      branch: o.worktree?.branch,
      changes: found.changes,
      commits: found.commits,
      pr: found.pr,
      permissionStops: this.#permissions.stops,
      outputTail: tail,
      log: this.deps.files.log,
      events: this.deps.files.events,
    };
  }

  /** notifying: the one-line notice into the calling pane, confirmed like every notice. A
   * notice that does not arrive makes the run failed, never done. */
  async #notify(pane: string, outcome: RunOutcome): Promise<RunOutcome> {
    const {recorder} = this.deps;
    await recorder.transition('notifying', {pane});
    const line = runNotice(outcome.report);
    try {
      const delivery = await this.deps.tell(pane, line);
      await recorder.event('notified', {pane, delivery});
      return {...outcome, notified: true};
    } catch (error) {
      const why = describeError(error);
      await recorder.event('notice-failed', {pane, why});
      return {
        ...outcome,
        state: 'failed',
        reason: `The run ended (${outcome.report.status}), but the notice did not reach pane ${pane}: ${why}`,
      };
    }
  }

  async #view(): Promise<PaneView> {
    return this.deps.tmux.view(this.#pane, 0);
  }

  #endingOf(error: unknown): Ending {
    if (this.signal.aborted || isAbortError(error)) {
      return {state: 'cancelled', reason: 'Cancelled by "nudge cancel" (or Ctrl-C with --wait).'};
    }
    if (
      error instanceof TmuxCommandError &&
      (error.kind === 'no-target' || error.kind === 'no-server')
    ) {
      return {state: 'failed', reason: `The run's pane ${this.#pane} closed while it ran.`};
    }
    if (error instanceof PaneFailure) {
      return {state: 'failed', reason: error.message};
    }
    return {state: 'failed', reason: `The run failed: ${describeError(error)}`};
  }
}

/** One line, at most 400 characters (a question with its detail). */
function previewLine(text: string): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  return one.length > 400 ? `${one.slice(0, 399)}…` : one;
}
