import type {DoorKind, DoorSpec} from '../agents/doors.js';
import {compareVersions} from '../agents/verified.js';
import type {ProcessTree} from '../process/tree.js';
import {postToInbox} from './claude-inbox.js';
import {claudeConfigDirs, sessionOfPane} from './claude-session.js';

/** The pane a notice is for. */
export interface DoorTarget {
  pane: string;
  panePid: number;
  /** The job's id: names the receipt socket, and is said in the notice's first line. */
  jobId: string;
}

/** What one door did with a notice. */
export interface DoorAttempt {
  door: DoorKind;
  /** `delivered`: the program shows it taken; otherwise why typing follows (or, with
   * `--via native`, why the notice did not go). */
  result: 'delivered' | 'not-applicable' | 'refused' | 'held' | 'unconfirmed';
  /** Delivered: given to the model now, or queued behind its running turn. */
  delivery?: 'submitted' | 'queued' | undefined;
  why?: string | undefined;
  ms: number;
}

/** The doors' needs from the world: every member required. */
export interface DoorDeps {
  tree: ProcessTree;
  /** The worker's environment: HOME, CLAUDE_CONFIG_DIR, and — when the job was submitted
   * from Claude Code's own tool — CLAUDE_CODE_MESSAGING_SOCKET and _TOKEN. */
  env: Record<string, string | undefined>;
  /** How long a door waits for its program to show the notice taken. */
  confirmMs: number;
}

/** The doors as a job uses them. */
export interface Doors {
  /** Try `specs` in order until one delivers `notice`; every attempt, in order. */
  deliver(
    specs: readonly DoorSpec[],
    target: DoorTarget,
    notice: string,
    signal: AbortSignal,
  ): Promise<DoorAttempt[]>;
}

/**
 * The first line of a notice that goes through a door: Claude Code shows it to the model
 * under "Another Claude session sent a message:", so it says who it is from and why.
 */
export function doorBody(notice: string, jobId: string): string {
  return `From nudge (not another Claude session): job ${jobId}, which this session started, has ended.\n${notice}`;
}

/** The real doors. */
export function realDoors(deps: DoorDeps): Doors {
  return {
    async deliver(specs, target, notice, signal) {
      const attempts: DoorAttempt[] = [];
      for (const spec of specs) {
        const attempt = await tryDoor(deps, spec, target, notice, signal);
        attempts.push(attempt);
        if (attempt.result === 'delivered') break;
      }
      return attempts;
    },
  };
}

async function tryDoor(
  deps: DoorDeps,
  spec: DoorSpec,
  target: DoorTarget,
  notice: string,
  signal: AbortSignal,
): Promise<DoorAttempt> {
  switch (spec.kind) {
    case 'claude-inbox':
      return claudeInbox(deps, spec, target, notice, signal);
    default:
      return spec.kind satisfies never;
  }
}

async function claudeInbox(
  deps: DoorDeps,
  spec: DoorSpec,
  target: DoorTarget,
  notice: string,
  signal: AbortSignal,
): Promise<DoorAttempt> {
  const started = Date.now();
  const skip = (why: string): DoorAttempt => ({
    door: 'claude-inbox',
    result: 'not-applicable',
    why,
    ms: Date.now() - started,
  });
  const found = await sessionOfPane(deps.tree, target.panePid, claudeConfigDirs(deps.env));
  if ('why' in found) return skip(found.why);
  const {session} = found;
  if (spec.minVersion && session.version && compareVersions(session.version, spec.minVersion) < 0)
    return skip(`Claude Code ${session.version} has no inbox (it came in ${spec.minVersion})`);
  const own = deps.env.CLAUDE_CODE_MESSAGING_SOCKET === session.socket;
  const posted = await postToInbox({
    session,
    body: doorBody(notice, target.jobId),
    token: own ? deps.env.CLAUDE_CODE_MESSAGING_TOKEN : undefined,
    name: target.jobId,
    confirmMs: deps.confirmMs,
    queuedAfterMs: 600,
    signal,
  });
  const base = {door: 'claude-inbox' as const, ms: posted.ms};
  if ('why' in posted) return {...base, result: posted.kind, why: posted.why};
  return {...base, result: 'delivered', delivery: posted.kind};
}
