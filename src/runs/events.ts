import type {HookMarkSource} from '../agents/hook-marks.js';
import type {SessionSource} from '../agents/resume.js';
import type {Clock} from '../base/clock.js';
import type {PaneActivity} from '../detect/wait-until.js';
import type {TellingEvents} from '../jobs/events.js';
import type {Recorder} from '../jobs/recorder.js';
import type {RunReport} from '../jobs/run-report.js';
import type {StallEvents} from '../jobs/stalled.js';
import type {RunState as RunRecordState, SameMembers, TerminalState} from '../jobs/states.js';
import type {Tell} from '../notify/tell.js';
import type {PaneEvents} from '../pane/events.js';
import type {Delivery} from '../pane/failures.js';
import type {RecognizeDeps} from '../pane/profile.js';
import type {CommandRun} from '../process/run-command.js';
import type {ServedInPane} from '../process/served.js';
import type {AgentSession} from './agent-session.js';
import type {RunGit} from './git.js';

/** The states a run moves through before it ends (`queued` is written when it is made). */
export type RunState = keyof RunTransitions;

/** Every event a run records (events.jsonl, log) besides its state changes. */
export interface RunEvents extends PaneEvents, StallEvents, TellingEvents {
  'worker-started': {pid: number};
  /** A user profile file that was refused (the built-in profile is used instead). */
  'profile-file-refused': {why: string};
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
  /** A git look failed while the run went on (recorded once per kind of look). */
  'git-failed': {look: string; why: string};
  pr: {url?: string; skipped?: string};
  reported: {path: string};
  notified: {pane: string; delivery: Delivery};
  'notice-failed': {pane: string; why: string};
  'pane-closed': {pane: string};
  'input-state-unknown': {pane: string; why: string};
  /** The agent's session (its conversation): what `nudge recover` resumes. */
  session: {id: string; from: string};
}

/** What each of a run's state changes carries. */
export interface RunTransitions {
  starting: {pane: string; cwd: string};
  running: {idleTimeoutMs: number; timeoutMs: number};
  stopping: {why: string};
  integrating: Record<string, never>;
  notifying: {pane: string};
}

/** Its record's states are these (src/jobs/states.ts): a transition left out there fails here. */
export const RUN_STATES_ARE_TRANSITIONS: SameMembers<
  keyof RunTransitions | 'queued',
  Exclude<RunRecordState, TerminalState>
> = true;

/** Where a run records what it does (the report goes into the record with its ending). */
export type RunRecorder = Recorder<RunTransitions, RunEvents, RunOutcome>;

/** What a run needs from the outside world: every member is required. */
export interface RunDeps extends RecognizeDeps {
  clock: Clock;
  activity: PaneActivity | undefined;
  hookMarks: HookMarkSource;
  /** The processes of a pane that listen on a port (src/process/served.ts). */
  served: (panePid: number) => Promise<ServedInPane>;
  recorder: RunRecorder;
  git: RunGit;
  /** End a process group (what runs in the pane's foreground): SIGTERM, then SIGKILL. */
  endGroup: (pgid: number) => Promise<'gone' | 'terminated' | 'killed'>;
  /** Type one line of nudge's own into another pane (the caller) and confirm it. */
  tell: (pane: string, line: string) => Promise<Delivery>;
  /** Tell the person of a change (the run's `--notify` sinks; none: a no-op). */
  notify: Tell;
  /** Run `gh` (for --pr). */
  gh: (args: readonly string[], cwd: string) => Promise<CommandRun>;
  /** The job's files, named in the report. */
  files: {report: string; log: string; events: string};
  writeReport: (markdown: string) => Promise<void>;
  pid: number;
  /** The agent's session, read from its own files (src/runs/agent-session.ts). */
  findSession: (
    source: SessionSource,
    o: {cwd: string; sinceMs: number; panePid: number},
  ) => Promise<AgentSession | undefined>;
  /** A new session id of nudge's own (for an agent that takes one as it starts). */
  newSessionId: () => string;
}

/** How the work ended, before integration and the report. */
export interface Ending {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  timeout?: 'idle' | 'total' | undefined;
}

/** How a run ended. */
export interface RunOutcome {
  state: TerminalState;
  reason?: string | undefined;
  exitCode?: number | undefined;
  notified: boolean;
  report: RunReport;
}
