import type {HookMarkSource} from '../agents/hook-marks.js';
import {type FoundDialog, findPermissionDialog} from '../agents/permission.js';
import {isBusy, isIdle, type Profile, readComposerState} from '../agents/profile.js';
import {PROFILES} from '../agents/registry.js';
import {isPosixShell, isShellCommand} from '../agents/shell.js';
import type {Clock} from '../base/clock.js';
import {formatDuration} from '../base/durations.js';
import {describeError, isAbortError} from '../base/errors.js';
import type {PaneActivity} from '../detect/wait-until.js';
import {exitSentinel} from '../detect/watchers.js';
import type {TerminalState} from '../jobs/store.js';
import {previewText} from '../jobs/store.js';
import {type Awaited, awaitDone} from '../pane/await-done.js';
import {deliver} from '../pane/deliver.js';
import type {PaneEvents} from '../pane/events.js';
import {type Delivery, PaneFailure} from '../pane/failures.js';
import {type PaneIo, pressGroups} from '../pane/keys.js';
import type {RecognizeDeps} from '../pane/profile.js';
import type {CommandRun} from '../process/run-command.js';
import {TmuxCommandError} from '../tmux/runner.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {cursorRow, type PaneView, visibleText} from '../tmux/view.js';
import type {FileChange, RunGit} from './git.js';
import {progressDue, RunClock} from './monitor.js';
import {
  type PermissionStop,
  type RunReport,
  renderReport,
  runNotice,
  runStatusOf,
} from './report.js';
import type {RunRequest} from './request.js';

/** The states a run moves through before it ends (`queued` is written when it is made). */
export type RunState = 'starting' | 'running' | 'stopping' | 'integrating' | 'notifying';

/** Every event a run records (events.jsonl, log) besides its state changes. */
export interface RunEvents extends PaneEvents {
  'worker-started': {pid: number};
  'shell-ready': {pane: string; shell: string};
  'agent-ready': {pane: string; agent: string};
  started: {pane: string; command?: string; agent?: string; delivery: Delivery};
  progress: {
    outputLines: number;
    lastActivity: string;
    quietMs: number;
    files: number | null;
    commits: number | null;
    verdict: string;
  };
  'permission-prompt': {kind: string; question: string; detail: string[]};
  'permission-denied': {question: string; keys: string[]};
  'permission-answered': {question: string};
  told: {pane: string; line: string; delivery: Delivery};
  'tell-failed': {pane: string; line: string; why: string};
  'exit-status': {exitCode: number | undefined; verdict: string};
  interrupted: {keys: string[]};
  'group-ended': {group: number; how: string};
  committed: {commit: string};
  'integrate-failed': {why: string};
  pr: {url?: string; skipped?: string};
  reported: {path: string};
  notified: {pane: string; delivery: Delivery};
  'notice-failed': {pane: string; why: string};
  'pane-closed': {pane: string};
  'input-state-unknown': {pane: string; why: string};
}

/** Where a run records what it does. */
export interface RunRecorder {
  transition(state: RunState, data: Record<string, unknown>): Promise<void>;
  event<K extends keyof RunEvents>(name: K, data: RunEvents[K]): Promise<void>;
  /** The report (into the record and report.md), then the ending. */
  end(outcome: RunOutcome): Promise<void>;
}

/** What a run needs from the outside world: every member is required. */
export interface RunDeps extends RecognizeDeps {
  clock: Clock;
  activity: PaneActivity | undefined;
  hookMarks: HookMarkSource;
  recorder: RunRecorder;
  git: RunGit;
  /** End a process group (what runs in the pane's foreground): SIGTERM, then SIGKILL. */
  endGroup: (pgid: number) => Promise<'gone' | 'terminated' | 'killed'>;
  /** Type one line of nudge's own into another pane (the caller) and confirm it. */
  tell: (pane: string, line: string) => Promise<Delivery>;
  /** Run `gh` (for --pr). */
  gh: (args: readonly string[], cwd: string) => Promise<CommandRun>;
  /** The job's files, named in the report. */
  files: {report: string; log: string; events: string};
  writeReport: (markdown: string) => Promise<void>;
  pid: number;
}

/** How a run ended. */
export interface RunOutcome {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  notified: boolean;
  report: RunReport;
}

/** How the work ended, before integration and the report. */
interface Ending {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  timeout?: 'idle' | 'total' | undefined;
}

/** How long a new pane's shell may take to show its prompt, and an agent its composer. */
const SHELL_READY_MS = 30_000;
const AGENT_READY_MS = 120_000;
/** How long after typing the agent's command the shell may still be at its prompt. */
const NEVER_STARTED_MS = 5_000;
/** How long an interrupt gets before the process group is ended. */
const INTERRUPT_GRACE_MS = 1_000;
/** Scrollback read for the report's last lines. */
const TAIL_HISTORY_ROWS = 2_000;
const TAIL_LINES = 20;
/** How many times a dialog still on screen is answered no again. */
const MAX_DENIES = 3;

/** A run that could not go on, in one sentence. */
class RunFailure extends Error {
  override name = 'RunFailure';
}

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
  readonly #stops: PermissionStop[] = [];
  #dialog: {found: FoundDialog; denies: number; stop: PermissionStop} | undefined;

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
    const report = await this.#integrate(ending);
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
    const shell = await this.#shellReady();
    this.#panePid = shell.panePid;
    await recorder.event('shell-ready', {pane: this.#pane, shell: shell.currentCommand});
    if (o.git && !o.worktree) {
      this.#filesAtStart = await this.deps.git.changedFiles(o.git.root).catch(() => undefined);
    }
    const view = await this.deps.tmux.view(this.#pane, 0);
    this.#startRow = cursorRow(view) + 1;
    if (o.agent) await this.#startAgent();
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

  /** Wait for the new pane's shell: a POSIX shell in the foreground, its screen settled. */
  async #shellReady(): Promise<PaneInfo> {
    const deadline = this.deps.clock.now() + SHELL_READY_MS;
    let previous: string | undefined;
    let last: PaneInfo | undefined;
    for (;;) {
      const info = await this.deps.tmux.describePane(this.#pane);
      if (!info) throw new RunFailure(`The run's pane ${this.#pane} closed before it started.`);
      last = info;
      if (isPosixShell(info.currentCommand)) {
        const screen = visibleText(await this.deps.tmux.view(this.#pane, 0));
        const input = await this.deps.foreground.inputState(info.panePid);
        if (screen.trim() !== '' && screen === previous && input.kind !== 'running') return info;
        previous = screen;
      }
      if (this.deps.clock.now() >= deadline) break;
      await this.deps.clock.sleep(200, this.signal);
    }
    throw new RunFailure(
      isPosixShell(last.currentCommand)
        ? `The new pane's shell showed no settled prompt within ${formatDuration(SHELL_READY_MS)}.`
        : `The new pane runs ${last.currentCommand}, not a POSIX shell; nudge run types into sh, bash, zsh, dash or ksh (set tmux's default-shell).`,
    );
  }

  /** Start the agent in the pane's shell and wait for its idle composer (answering, or
   * reporting, a trust dialog on the way). */
  async #startAgent(): Promise<void> {
    const profile = this.#profile;
    const launch = profile.launch ?? profile.name;
    await deliver(
      this.#io,
      this.#pane,
      launch,
      PROFILES.shell,
      {
        enter: true,
        typeDelayMs: 0,
        enterDelayMs: 100,
        clear: false,
        clearDraft: false,
        draftWaitMs: 10_000,
        ownText: launch,
      },
      this.signal,
    );
    const clock = this.deps.clock;
    const launchedAt = clock.now();
    let deadline = launchedAt + AGENT_READY_MS;
    let left = false;
    let previous: string | undefined;
    for (;;) {
      await clock.sleep(300, this.signal);
      const view = await this.#view();
      const shellAgain = isShellCommand(view.currentCommand);
      if (!shellAgain) left = true;
      if (left && shellAgain) {
        throw new RunFailure(
          `${launch} exited before it was ready: ${lastLines(view, 3).join(' / ') || 'no output'}`,
        );
      }
      // Still the shell, at its prompt, seconds after: the agent never started (not found).
      if (!left && clock.now() - launchedAt > NEVER_STARTED_MS) {
        const input = await this.deps.foreground.inputState(this.#panePid ?? 0);
        if (input.kind === 'waiting-for-input') {
          throw new RunFailure(
            `${launch} did not start (is it on the PATH of tmux's shells?): ${lastLines(view, 2).join(' / ') || 'no output'}`,
          );
        }
      }
      const asking = await this.#onDialog(view);
      // A person deciding on a trust dialog is not the agent being slow to start.
      if (asking) deadline = clock.now() + AGENT_READY_MS;
      const screen = visibleText(view);
      if (!asking && isIdle(profile, view) && readComposerState(profile, view)?.text === '') {
        if (screen === previous) break;
        previous = screen;
        continue;
      }
      previous = undefined;
      if (clock.now() >= deadline) {
        throw new RunFailure(
          `${launch} did not show its idle composer within ${formatDuration(AGENT_READY_MS)}${left ? '' : ` (is "${launch}" on the PATH of tmux's shells?)`}: ${lastLines(view, 3).join(' / ')}`,
        );
      }
    }
    await this.deps.recorder.event('agent-ready', {pane: this.#pane, agent: profile.name});
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
    const current = this.#dialog;
    if (!found) {
      if (current) {
        if (current.stop.answer === 'pending') {
          current.stop.answer = 'answered';
          await recorder.event('permission-answered', {question: current.found.question});
        }
        this.#dialog = undefined;
      }
      return false;
    }
    if (!current || current.found.question !== found.question) {
      const stop: PermissionStop = {
        at: new Date(this.deps.clock.now()).toISOString(),
        kind: found.kind,
        question: found.question,
        detail: found.detail,
        answer: 'pending',
      };
      this.#stops.push(stop);
      this.#dialog = {found, denies: 0, stop};
      await recorder.event('permission-prompt', {
        kind: found.kind,
        question: found.question,
        detail: found.detail,
      });
      if (this.#o.permissions === 'ask') await this.#tellAsked(found);
    }
    const shown = this.#dialog;
    if (this.#o.permissions === 'deny' && shown && shown.denies < MAX_DENIES) {
      shown.denies++;
      shown.stop.answer = 'denied';
      await pressGroups(this.#io, this.#pane, found.denyKeys, this.signal);
      await recorder.event('permission-denied', {
        question: found.question,
        keys: found.denyKeys.flat(),
      });
    }
    return true;
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
      verdict = this.#dialog
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

  /** integrating: in a worktree commit what is left; count changes and commits; --pr. */
  async #integrate(ending: Ending): Promise<RunReport> {
    const {recorder, git, clock} = this.deps;
    const o = this.#o;
    await recorder.transition('integrating', {}).catch(() => {});
    let changes: FileChange[] | null = null;
    let commits: string[] = [];
    let pr: RunReport['pr'];
    let integrateError: string | undefined;
    if (o.git) {
      const {root, base} = o.git;
      try {
        if (o.worktree) {
          const preview = previewText(this.request.text).slice(0, 60);
          const commit = await git.commitAll(root, `nudge run ${this.request.jobId}: ${preview}`);
          if (commit) await recorder.event('committed', {commit});
          changes = await git.numstat(root, base, 'HEAD');
        } else {
          const start = this.#filesAtStart ?? new Map<string, number>();
          const now = await git.changedFiles(root);
          const files = [...now]
            .filter(([file, mtime]) => start.get(file) !== mtime)
            .map(([file]) => file);
          changes = files.length
            ? [
                ...(await git.numstat(root, base, undefined, files)),
                ...(await git.untrackedLines(root, files)),
              ].sort((a, b) => (a.file < b.file ? -1 : 1))
            : [];
        }
        commits = await git.commitsSince(root, base);
      } catch (error) {
        integrateError = describeError(error);
        await recorder.event('integrate-failed', {why: integrateError});
      }
      if (o.pr && o.worktree) {
        pr = await this.#pullRequest(o.worktree.path, o.worktree.branch);
        await recorder.event('pr', pr);
      }
    }
    const endedMs = clock.now();
    const reason =
      integrateError === undefined
        ? ending.reason
        : `${ending.reason ? `${ending.reason} ` : ''}(git: ${integrateError})`;
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
      changes,
      commits,
      pr,
      permissionStops: this.#stops,
      outputTail: await this.#outputTail(),
      log: this.deps.files.log,
      events: this.deps.files.events,
    };
  }

  /** `--pr`: push the branch and open a pull request with gh, or say why not. */
  async #pullRequest(root: string, branch: string): Promise<{url?: string; skipped?: string}> {
    const version = await this.deps.gh(['--version'], root);
    if (version.startError !== undefined)
      return {skipped: 'gh is not installed (see https://cli.github.com).'};
    const remotes: string[] = await this.deps.git.remotes(root).catch(() => []);
    const remote = remotes.includes('origin') ? 'origin' : remotes[0];
    if (remote === undefined) return {skipped: `the branch ${branch} has no remote to push to.`};
    const pushed = await this.deps.git.push(root, remote, branch);
    if (pushed.exitCode !== 0) {
      return {
        skipped: `git push to ${remote} failed: ${firstLine(pushed.stderr || pushed.output)}`,
      };
    }
    const created = await this.deps.gh(['pr', 'create', '--fill', '--head', branch], root);
    if (created.exitCode !== 0) {
      return {skipped: `gh pr create failed: ${firstLine(created.stderr || created.output)}`};
    }
    const url = /https?:\/\/\S+/.exec(created.output)?.[0];
    return url ? {url} : {skipped: `gh pr create printed no address: ${firstLine(created.output)}`};
  }

  /** The last lines of the run's output: a command's, from its first line to its exit
   * status; an agent's transcript above its composer. */
  async #outputTail(): Promise<string[]> {
    let view: PaneView;
    try {
      view = await this.deps.tmux.view(this.#pane, TAIL_HISTORY_ROWS);
    } catch {
      return [];
    }
    let rows = view.rows;
    if (this.#o.agent) {
      const composer = readComposerState(this.#profile, view);
      const end = composer ? composer.index : rows.length;
      rows = rows.slice(0, end).filter((r) => !/^\s*─{10,}\s*$/.test(r));
    } else {
      const from = Math.max(0, (this.#startRow ?? 0) - view.firstRow);
      rows = rows.slice(from);
      const sentinel = rows.findIndex((r) => this.#sentinel.pattern.test(r));
      if (sentinel >= 0) rows = rows.slice(0, sentinel);
    }
    const kept = rows.map((r) => r.trimEnd());
    while (kept.length > 0 && kept.at(-1) === '') kept.pop();
    while (kept.length > 0 && kept[0] === '') kept.shift();
    return kept.slice(-TAIL_LINES);
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
    if (error instanceof RunFailure || error instanceof PaneFailure) {
      return {state: 'failed', reason: error.message};
    }
    return {state: 'failed', reason: `The run failed: ${describeError(error)}`};
  }
}

/** The last `n` non-empty rows of the visible screen. */
function lastLines(view: PaneView, n: number): string[] {
  return visibleText(view)
    .split('\n')
    .map((r) => r.trim())
    .filter(Boolean)
    .slice(-n);
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** One line, at most 400 characters (a question with its detail). */
function previewLine(text: string): string {
  const one = text.replace(/[\r\n]+/g, ' ');
  return one.length > 400 ? `${one.slice(0, 399)}…` : one;
}
