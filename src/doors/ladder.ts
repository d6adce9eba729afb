import type {DoorKind, DoorSpec} from '../agents/doors.js';
import {compareVersions} from '../agents/verified.js';
import type {ProcessTree} from '../process/tree.js';
import {holdsOutsideMessages, postToInbox, transcriptOf} from './claude-inbox.js';
import {type ClaudeSession, claudeConfigDirs, sessionOfPane} from './claude-session.js';
import {postToCodex, remoteSocketOf} from './codex-door.js';
import {
  currentSession,
  type OpencodeServer,
  portOf,
  postToOpencode,
  serverOf,
} from './opencode-door.js';
import {piSocketOf, postToPi} from './pi-door.js';

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
  /** nudge's state folder: where Pi's extension listens (`doors/pi-<pid>.sock`). */
  stateDir: string;
  /** The command line of the program in the foreground of a pane (opencode's `--port`). */
  commandLine(panePid: number): Promise<readonly string[] | undefined>;
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
    case 'pi-extension':
      return piExtension(deps, target, notice);
    case 'opencode-server':
      return opencodeServer(deps, target, notice, signal);
    case 'codex-app-server':
      return codexAppServer(deps, target, notice);
    default:
      return spec.kind satisfies never;
  }
}

/** The pane's Claude Code session, if its inbox can take a message from nudge; else why not. */
async function inboxOf(
  deps: Pick<DoorDeps, 'tree' | 'env'>,
  spec: DoorSpec,
  panePid: number,
): Promise<{session: ClaudeSession} | {why: string}> {
  const found = await sessionOfPane(deps.tree, panePid, claudeConfigDirs(deps.env));
  if ('why' in found) return found;
  const {session} = found;
  if (spec.minVersion && session.version && compareVersions(session.version, spec.minVersion) < 0)
    return {why: `Claude Code ${session.version} has no inbox (it came in ${spec.minVersion})`};
  if (!session.socket) return {why: 'its inbox is off (no messagingSocketPath)'};
  return found;
}

async function claudeInbox(
  deps: DoorDeps,
  spec: DoorSpec,
  target: DoorTarget,
  notice: string,
  signal: AbortSignal,
): Promise<DoorAttempt> {
  const started = Date.now();
  const found = await inboxOf(deps, spec, target.panePid);
  if ('why' in found)
    return {
      door: 'claude-inbox',
      result: 'not-applicable',
      why: found.why,
      ms: Date.now() - started,
    };
  const {session} = found;
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

async function piExtension(
  deps: DoorDeps,
  target: DoorTarget,
  notice: string,
): Promise<DoorAttempt> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const found = await piSocketOf(deps.tree, deps.stateDir, target.panePid);
  if ('why' in found)
    return {door: 'pi-extension', result: 'not-applicable', why: found.why, ms: ms()};
  const r = await postToPi(found.socket, notice, deps.confirmMs);
  return r.ok
    ? {door: 'pi-extension', result: 'delivered', delivery: r.delivery, ms: ms()}
    : {door: 'pi-extension', result: 'refused', why: r.why, ms: ms()};
}

/** The server of the pane's opencode, when it was started with `--port`; else why not. */
async function opencodeOf(
  deps: Pick<DoorDeps, 'commandLine' | 'env'>,
  panePid: number,
): Promise<OpencodeServer | {why: string}> {
  const argv = await deps.commandLine(panePid);
  if (!argv) return {why: "its command line cannot be read, so its server's port is unknown"};
  const port = portOf(argv);
  if (port === undefined)
    return {
      why: 'it was started without --port, so its server cannot be found (opencode --port N opens this door)',
    };
  return serverOf(port, deps.env);
}

async function opencodeServer(
  deps: DoorDeps,
  target: DoorTarget,
  notice: string,
  signal: AbortSignal,
): Promise<DoorAttempt> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const server = await opencodeOf(deps, target.panePid);
  if ('why' in server)
    return {door: 'opencode-server', result: 'not-applicable', why: server.why, ms: ms()};
  const r = await postToOpencode(server, notice, deps.confirmMs, signal);
  return r.ok
    ? {door: 'opencode-server', result: 'delivered', delivery: r.delivery, ms: ms()}
    : {door: 'opencode-server', result: 'refused', why: r.why, ms: ms()};
}

/** The app-server socket of the pane's Codex, when its TUI was started with
 * `--remote unix://PATH`; else why not. */
async function codexSocketOf(
  deps: Pick<DoorDeps, 'commandLine'>,
  panePid: number,
): Promise<{socket: string} | {why: string}> {
  const argv = await deps.commandLine(panePid);
  if (!argv) return {why: 'its command line cannot be read, so its app-server is unknown'};
  const socket = remoteSocketOf(argv);
  return socket
    ? {socket}
    : {why: 'it was started without --remote unix://PATH, so no other client can reach its thread'};
}

async function codexAppServer(
  deps: DoorDeps,
  target: DoorTarget,
  notice: string,
): Promise<DoorAttempt> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  const found = await codexSocketOf(deps, target.panePid);
  if ('why' in found)
    return {door: 'codex-app-server', result: 'not-applicable', why: found.why, ms: ms()};
  const r = await postToCodex(found.socket, notice, deps.confirmMs);
  return r.ok
    ? {door: 'codex-app-server', result: 'delivered', delivery: r.delivery, ms: ms()}
    : {door: 'codex-app-server', result: 'refused', why: r.why, ms: ms()};
}

/** What `nudge explain` says of a door: whether a notice would go through it now, and why. */
export interface DoorPlan {
  door: DoorKind | 'keys';
  use: boolean;
  why: string;
}

/**
 * The doors a notice to this pane would try, in order, ending with typing, each with whether
 * it would take the notice now and why — looked at, never posted to. With the pane's Claude
 * Code session, where one was found (its status is a signal of its own).
 */
export async function planDoors(
  deps: Pick<DoorDeps, 'tree' | 'env' | 'stateDir' | 'commandLine'>,
  specs: readonly DoorSpec[],
  panePid: number,
): Promise<{plans: DoorPlan[]; session?: ClaudeSession | undefined}> {
  const plans: DoorPlan[] = [];
  let session: ClaudeSession | undefined;
  for (const spec of specs) {
    if (spec.kind === 'codex-app-server') {
      const found = await codexSocketOf(deps, panePid);
      plans.push(
        'why' in found
          ? {door: spec.kind, use: false, why: found.why}
          : {door: spec.kind, use: true, why: `its app-server listens on ${found.socket}`},
      );
      continue;
    }
    if (spec.kind === 'opencode-server') {
      const server = await opencodeOf(deps, panePid);
      const session = 'why' in server ? server : await currentSession(server, 2_000);
      plans.push(
        'why' in session
          ? {door: spec.kind, use: false, why: session.why}
          : {
              door: spec.kind,
              use: true,
              why: `its server takes the notice into session ${session.id}`,
            },
      );
      continue;
    }
    if (spec.kind === 'pi-extension') {
      const pi = await piSocketOf(deps.tree, deps.stateDir, panePid);
      plans.push(
        'why' in pi
          ? {door: spec.kind, use: false, why: pi.why}
          : {door: spec.kind, use: true, why: `nudge's extension listens on ${pi.socket}`},
      );
      continue;
    }
    const found = await inboxOf(deps, spec, panePid);
    if ('why' in found) {
      plans.push({door: spec.kind, use: false, why: found.why});
      continue;
    }
    session = found.session;
    const holds = await holdsOutsideMessages(session, await transcriptOf(session));
    plans.push(
      holds
        ? {door: spec.kind, use: false, why: holds}
        : {
            door: spec.kind,
            use: true,
            why: `Claude Code ${session.version ?? ''} session ${session.sessionId} listens on ${session.socket}`,
          },
    );
  }
  const door = plans.find((p) => p.use);
  plans.push({
    door: 'keys',
    use: !door,
    why: door
      ? `the notice goes through ${door.door}; typed only if it does not take it`
      : specs.length
        ? 'no door takes it now: the notice is typed'
        : 'the program has no door: the notice is typed',
  });
  return {plans, session};
}
