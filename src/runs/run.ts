import type {Profile} from '../agents/profile.js';
import {agentNamed, PROFILES} from '../agents/registry.js';
import {describeError} from '../base/errors.js';
import {exitSentinel} from '../detect/output-watchers.js';
import {endingOf} from '../job-worker/ending.js';
import type {PaneIo} from '../pane/keys.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {cursorRow, type PaneView} from '../tmux/view.js';
import {type AgentSession, sessionAtStart} from './agent-session.js';
import {RunDialogs} from './dialogs.js';
import type {Ending, RunDeps, RunEvents, RunOutcome} from './events.js';
import {reportOf} from './finish.js';
import {RunLooks} from './looks.js';
import {PermissionStops} from './permissions.js';
import {runNotice} from './report.js';
import type {RunRequest} from './request.js';
import {type RunningRun, watchRunning} from './running.js';
import {deliverRunText, shellReady, startAgent} from './start.js';
import {stopRun} from './stop.js';

export type {Ending, RunDeps, RunEvents, RunOutcome, RunRecorder, RunState} from './events.js';

/** How long after the agent started its session is looked for in its files. */
const SESSION_LOOKUP_MS = 120_000;
/** A file's time and our clock may differ a little (a coarse file system). */
const SESSION_CLOCK_SLACK_MS = 2_000;

/** The run's states, each with what it needs; the machine moves by returning the next. */
type Step =
  | {at: 'starting'}
  | {at: 'running'; shell: PaneInfo; before: PaneView; paneCommand: string}
  | {at: 'stopping'; ending: Ending}
  | {at: 'integrating'; ending: Ending}
  | {at: 'notifying'; pane: string; outcome: RunOutcome}
  | {at: 'closing'; outcome: RunOutcome}
  | {at: 'ended'; outcome: RunOutcome};

/**
 * Run one `nudge run` job in the pane opened for it:
 *
 *   starting → running → [stopping] → integrating → [notifying] → closing → ended
 *
 * starting: wait for the new pane's shell, type the command (with an exit sentinel) — or start
 * the agent, wait for its composer and deliver the prompt through its profile. running: wait
 * for the command's exit status or the agent's idle prompt (awaitDone), while a timer looks at
 * the screen and the files (progress events, idle and total timeouts, permission dialogs).
 * stopping (timeout, cancel): interrupt, then end the pane's foreground process groups.
 * integrating: in a worktree commit what is left, count changes and commits, `--pr`; the
 * report. notifying: the one-line notice into the calling pane. closing: `--close`. `signal`
 * cancels. Never throws.
 */
export async function runRun(
  deps: RunDeps,
  request: RunRequest,
  signal: AbortSignal,
): Promise<RunOutcome> {
  const outcome = await new Run(deps, request, signal).run();
  await deps.recorder.end(outcome);
  if (outcome.state !== 'cancelled')
    await deps.notify({
      event: outcome.state,
      state: outcome.state,
      ...(outcome.reason ? {reason: outcome.reason} : {}),
    });
  return outcome;
}

class Run {
  readonly #start: number;
  readonly #o: RunRequest['options'];
  readonly #pane: string;
  readonly #io: PaneIo;
  readonly #profile: Profile;
  readonly #sentinel: {command: string; pattern: RegExp};
  readonly #permissions: PermissionStops;
  readonly #dialogs: RunDialogs;
  readonly #looks: RunLooks;
  /** The pane's shell, once it is ready. */
  #shellPid: number | undefined;
  /** The absolute row where the command's output begins. */
  #startRow = 0;
  /** Changed files (and their mtimes) when the run began, outside a worktree. */
  #filesAtStart: Map<string, number> | undefined;
  /** Foreground process groups seen (other than the shell's): ended on a stop. */
  readonly #groups = new Set<number>();
  /** The agent's session, once known; and when the agent was started (its files are newer). */
  #session: AgentSession | undefined;
  #agentStartedAt = 0;

  constructor(
    private readonly deps: RunDeps,
    private readonly request: RunRequest,
    private readonly signal: AbortSignal,
  ) {
    this.#start = deps.clock.now();
    this.#o = request.options;
    this.#pane = request.pane;
    this.#profile = this.#o.agent ? agentNamed(this.#o.agent, '--agent') : PROFILES.shell;
    this.#permissions = new PermissionStops(this.#o.permissions);
    // A subshell: the command's `exit`, `cd` or `set -e` end it, not the pane's shell.
    this.#sentinel = exitSentinel(request.jobId.replace(/-/g, ''), ')');
    this.#io = {
      tmux: deps.tmux,
      clock: deps.clock,
      note: (event, data) => deps.recorder.event(event, data as RunEvents[typeof event]),
      // The pane is the run's own: nobody else queues for it.
      guard: () => {},
    };
    this.#dialogs = new RunDialogs(deps, {
      io: this.#io,
      pane: this.#pane,
      profile: this.#profile,
      stops: this.#permissions,
      notifyPane: this.#o.notifyPane,
      who: `[nudge run ${request.jobId}] ${this.#o.agent}`,
    });
    this.#looks = new RunLooks(deps, this.#o, this.#profile);
  }

  async run(): Promise<RunOutcome> {
    await this.deps.recorder.event('worker-started', {pid: this.deps.pid});
    let step = {at: 'starting'} as Step;
    for (;;) {
      const now: Step = step;
      switch (now.at) {
        case 'starting':
          step = await this.#work('starting', () => this.#starting());
          break;
        case 'running':
          step = await this.#work('running', async () =>
            this.#afterWork(await watchRunning(this.deps, this.#running(), now, this.signal)),
          );
          break;
        case 'stopping':
          await stopRun(this.deps, this.#stopTarget(), now.ending);
          step = {at: 'integrating', ending: now.ending};
          break;
        case 'integrating':
          step = await this.#integrating(now.ending);
          break;
        case 'notifying':
          step = {at: 'closing', outcome: await this.#notifying(now.pane, now.outcome)};
          break;
        case 'closing':
          await this.#closing();
          step = {at: 'ended', outcome: now.outcome};
          break;
        case 'ended':
          return now.outcome;
        default:
          return now satisfies never;
      }
    }
  }

  /** starting or running; an error ends the work as the jobs' one mapping says. */
  async #work(phase: 'starting' | 'running', body: () => Promise<Step>): Promise<Step> {
    try {
      return await body();
    } catch (error) {
      const {state, reason} = endingOf(error, {
        phase,
        leaseLost: false,
        cancelled: this.signal.aborted,
        pane: this.#pane,
        socketPath: this.request.server.socketPath,
      });
      return this.#afterWork({state, reason});
    }
  }

  /** A timeout or a cancel stops what runs first; any ending is then integrated. */
  #afterWork(ending: Ending): Step {
    return ending.state === 'timeout' || ending.state === 'cancelled'
      ? {at: 'stopping', ending}
      : {at: 'integrating', ending};
  }

  /** starting: the shell, the agent if any, then the command or prompt delivered. */
  async #starting(): Promise<Step> {
    const {recorder} = this.deps;
    const o = this.#o;
    await recorder.transition('starting', {pane: this.#pane, cwd: o.cwd});
    const shell = await shellReady(this.deps, this.#pane, this.signal);
    this.#shellPid = shell.panePid;
    await recorder.event('shell-ready', {pane: this.#pane, shell: shell.currentCommand});
    this.#filesAtStart = await this.#looks.filesAtStart();
    this.#startRow = cursorRow(await this.deps.tmux.view(this.#pane, 0)) + 1;
    if (o.agent) {
      const onDialog = (view: PaneView) => this.#dialogs.onScreen(view, this.signal);
      const {args, session} = sessionAtStart(this.#o, this.#profile, this.deps.newSessionId);
      // Compared with the agent's files' mtimes: the wall clock.
      this.#agentStartedAt = this.deps.clock.wall();
      await startAgent(
        {...this.deps, io: this.#io, onDialog},
        this.#pane,
        this.#profile,
        shell.panePid,
        this.signal,
        args,
      );
      await recorder.event('agent-ready', {pane: this.#pane, agent: o.agent});
      if (session) await this.#noteSession(session);
    }
    // Resumed (nudge recover): the agent is back in its conversation; nothing is typed.
    if (o.resume) {
      await recorder.transition('running', {
        idleTimeoutMs: o.idleTimeoutMs,
        timeoutMs: o.timeoutMs,
      });
      const before = await this.deps.tmux.view(this.#pane, 0);
      return {at: 'running', shell, before, paneCommand: before.currentCommand};
    }
    const text = o.agent ? this.request.text : `( ${this.request.text}\n${this.#sentinel.command}`;
    const delivered = await deliverRunText(this.#io, this.#pane, text, this.#profile, this.signal);
    if (!o.agent) this.#startRow = cursorRow(delivered.before) + 1;
    await recorder.transition('running', {idleTimeoutMs: o.idleTimeoutMs, timeoutMs: o.timeoutMs});
    await recorder.event('started', {
      pane: this.#pane,
      ...(o.agent ? {agent: o.agent} : {command: this.request.text}),
      delivery: delivered.delivery,
    });
    // An agent's pane runs the agent now (Gemini and Codex as `node`), not the shell: its
    // idle prompt is read from its screen, not from the shell's foreground.
    const paneCommand = o.agent ? delivered.before.currentCommand : shell.currentCommand;
    return {at: 'running', shell, before: delivered.before, paneCommand};
  }

  async #noteSession(session: AgentSession): Promise<void> {
    this.#session = session;
    await this.deps.recorder.event('session', session);
    await this.deps.recorder.mark({session});
  }

  /** Look for the agent's session in its files (each look while running, for two minutes
   * after it started): once found, it is recorded for nudge recover. */
  async #lookForSession(): Promise<void> {
    const source = this.#profile.resume?.session;
    if (this.#session || !source || source === 'chosen' || this.#shellPid === undefined) return;
    if (this.deps.clock.wall() - this.#agentStartedAt > SESSION_LOOKUP_MS) return;
    const found = await this.deps
      .findSession(source, {
        cwd: this.#o.cwd,
        sinceMs: this.#agentStartedAt - SESSION_CLOCK_SLACK_MS,
        panePid: this.#shellPid,
      })
      .catch(() => undefined);
    if (found) await this.#noteSession(found);
  }

  /** Remember the pane's foreground group while it is not the shell's own. */
  async #noteGroup(): Promise<void> {
    const shell = this.#shellPid;
    if (shell === undefined) return;
    const group = await this.deps.foreground.group(shell);
    if (group !== undefined && group !== shell) this.#groups.add(group);
  }

  #running(): RunningRun {
    return {
      pane: this.#pane,
      options: this.#o,
      profile: this.#profile,
      startMs: this.#start,
      startRow: this.#startRow,
      sentinel: this.#sentinel.pattern,
      dialogs: this.#dialogs,
      looks: this.#looks,
      permissions: this.#permissions,
      noteGroup: () => this.#noteGroup(),
      lookForSession: () => this.#lookForSession(),
      type: async (line) =>
        (await deliverRunText(this.#io, this.#pane, line, this.#profile, this.signal)).delivery,
    };
  }

  #stopTarget() {
    return {
      pane: this.#pane,
      agent: this.#o.agent !== null,
      groups: this.#groups,
      noteGroup: () => this.#noteGroup(),
    };
  }

  /** integrating, then the report; next, the notice (unless cancelled or told no one). */
  async #integrating(ending: Ending): Promise<Step> {
    const report = await reportOf(this.deps, this.request, ending, {
      startMs: this.#start,
      startRow: this.#startRow,
      filesAtStart: this.#filesAtStart,
      sentinel: this.#sentinel.pattern,
      profile: this.#profile,
      permissionStops: this.#permissions.stops,
    });
    const outcome: RunOutcome = {
      state: ending.state,
      reason: ending.reason,
      exitCode: ending.exitCode,
      notified: false,
      report,
    };
    const pane = this.#o.notifyPane;
    return pane !== null && ending.state !== 'cancelled'
      ? {at: 'notifying', pane, outcome}
      : {at: 'closing', outcome};
  }

  /** notifying: the one-line notice into the calling pane, confirmed like every notice. A
   * notice that does not arrive makes the run failed, never done. */
  async #notifying(pane: string, outcome: RunOutcome): Promise<RunOutcome> {
    const {recorder} = this.deps;
    await recorder.transition('notifying', {pane});
    try {
      const delivery = await this.deps.tell(pane, runNotice(outcome.report));
      await recorder.event('notified', {pane, delivery});
      return {...outcome, notified: true};
    } catch (error) {
      const why = describeError(error);
      await recorder.event('notice-failed', {pane, why});
      const status = outcome.report.status;
      const reason = `The run ended (${status}), but the notice did not reach pane ${pane}: ${why}`;
      return {...outcome, state: 'failed', reason};
    }
  }

  /** closing: `--close` closes the pane. */
  async #closing(): Promise<void> {
    if (!this.#o.close) return;
    await this.deps.tmux.killPane(this.#pane).catch(() => {});
    await this.deps.recorder.event('pane-closed', {pane: this.#pane});
  }
}
