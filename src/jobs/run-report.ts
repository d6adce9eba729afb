import type {DialogKind} from '../agents/profile.js';
import type {TerminalState} from './states.js';

/** A file a run changed, with its line counts (null where git cannot count: binary). */
export interface FileChange {
  file: string;
  added: number | null;
  deleted: number | null;
}

/** How a run ended, in the words of its notice. */
export type RunStatus =
  | 'success'
  | 'failed'
  | 'idle-timeout'
  | 'timeout'
  | 'cancelled'
  | 'blocked'
  | 'lost';

/** A permission stop seen during the run, and what became of it. */
export interface PermissionStop {
  at: string;
  kind: DialogKind;
  question: string;
  detail: string[];
  /** `denied` (by nudge, --permissions deny), `answered` (by a person), `pending` (still
   * shown at the end). */
  answer: 'denied' | 'answered' | 'pending';
}

/** What `nudge run` reports: report.md, and `report` in `nudge status --json`. */
export interface RunReport {
  job: string;
  path: string;
  status: RunStatus;
  state: TerminalState;
  /** Why it failed, timed out or was cancelled, one sentence. */
  reason?: string | undefined;
  /** A command's exit status. */
  exitCode?: number | undefined;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  /** The command typed, or the agent and its prompt. */
  command?: string | undefined;
  agent?: string | undefined;
  prompt?: string | undefined;
  pane: string;
  cwd: string;
  worktree?: string | undefined;
  branch?: string | undefined;
  /** Files changed: `null` outside a git work tree (nothing to count them against). */
  changes: FileChange[] | null;
  commits: string[];
  /** What `--pr` did: the pull request's address, or why it was skipped. */
  pr?: {url?: string; skipped?: string} | undefined;
  permissionStops: PermissionStop[];
  /** The last lines of the pane's output. */
  outputTail: string[];
  log: string;
  events: string;
}
