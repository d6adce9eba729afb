import type {DoorKind, DoorSpec} from '../agents/doors.js';
import {compareVersions} from '../agents/verified.js';
import {realClock} from '../base/clock.js';
import type {Listeners} from '../process/listeners.js';
import {descendsFrom, type ProcessTree} from '../process/tree.js';
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
  /** What goes through: the job's notice (its work has ended), or the job's own text
   * (`--if-busy now`). Absent: a notice. */
  purpose?: 'notice' | 'text' | undefined;
  /** The pane the message comes from, where a door can say so (Claude Code's inbox: its
   * sender's address and the body's first line): a notice's is the pane whose work ended.
   * Undefined: nudge alone is named. */
  from: string | undefined;
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
  /** Who listens on a TCP port: opencode's password goes only to the pane's own server. */
  listeners(port: number): Promise<Listeners>;
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
export function doorBody(
  notice: string,
  jobId: string,
  purpose: DoorTarget['purpose'],
  from?: string,
): string {
  const who = `From nudge (${from ? `from ${from}; ` : ''}not another Claude session)`;
  if (purpose === 'text')
    return `${who}: a message the person sent to this session with nudge submit --if-busy now (job ${jobId}).\n${notice}`;
  return `${who}: job ${jobId}, which this session started, has ended.\n${notice}`;
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

/** What a door's post came to. */
type Posted =
  | {ok: true; delivery: 'submitted' | 'queued'}
  | {ok: false; result: Exclude<DoorAttempt['result'], 'delivered'>; why: string};

/** One kind of door: how it finds the pane's program, what `explain` says of it once found
 * (looked at, never posted to), and how it hands over a notice. */
interface DoorWay<Found> {
  find(deps: DoorDeps, spec: DoorSpec, panePid: number): Promise<Found | {why: string}>;
  ready(found: Found): Promise<{use: boolean; why: string}>;
  post(
    deps: DoorDeps,
    found: Found,
    notice: string,
    target: DoorTarget,
    signal: AbortSignal,
  ): Promise<Posted>;
}

const fromPost = (
  r: {ok: true; delivery: 'submitted' | 'queued'} | {ok: false; why: string},
): Posted => (r.ok ? r : {ok: false, result: 'refused', why: r.why});

const claudeInbox: DoorWay<{session: ClaudeSession}> = {
  find: (deps, spec, panePid) => inboxOf(deps, spec, panePid),
  async ready({session}) {
    const holds = await holdsOutsideMessages(session, await transcriptOf(session));
    return holds
      ? {use: false, why: holds}
      : {
          use: true,
          why: `Claude Code ${session.version ?? ''} session ${session.sessionId} listens on ${session.socket}`,
        };
  },
  async post(deps, {session}, notice, target, signal) {
    const own = deps.env.CLAUDE_CODE_MESSAGING_SOCKET === session.socket;
    const posted = await postToInbox({
      session,
      body: doorBody(notice, target.jobId, target.purpose, target.from),
      token: own ? deps.env.CLAUDE_CODE_MESSAGING_TOKEN : undefined,
      // The sender's address Claude Code shows ("Message from @nudge-from-%3-…").
      name: target.from ? `from-${target.from}-${target.jobId}` : target.jobId,
      confirmMs: deps.confirmMs,
      queuedAfterMs: 600,
      signal,
    });
    return 'why' in posted
      ? {ok: false, result: posted.kind, why: posted.why}
      : {ok: true, delivery: posted.kind};
  },
};

const piExtension: DoorWay<{socket: string}> = {
  find: (deps, _spec, panePid) => piSocketOf(deps.tree, deps.stateDir, panePid),
  ready: async ({socket}) => ({use: true, why: `nudge's extension listens on ${socket}`}),
  post: async (deps, {socket}, notice) => fromPost(await postToPi(socket, notice, deps.confirmMs)),
};

/** opencode's server on `port`, once the listener there is proven a process of the pane:
 * what listens on a loopback port may be anyone's, and the request carries the password. */
export async function ownServer(
  deps: Pick<DoorDeps, 'listeners' | 'tree' | 'env'>,
  port: number,
  panePid: number,
): Promise<OpencodeServer | {why: string}> {
  const found = await deps.listeners(port);
  if ('why' in found) return {why: `${found.why}, so its password is not sent there`};
  for (const pid of found.pids)
    if (await descendsFrom(deps.tree, pid, panePid)) return serverOf(port, deps.env);
  return {
    why:
      found.pids.length === 0
        ? `nothing of yours listens on its --port ${port}`
        : `what listens on its --port ${port} (pid ${found.pids.join(', ')}) is not a process of the pane, so its password is not sent there`,
  };
}

const opencodeServer: DoorWay<OpencodeServer> = {
  async find(deps, _spec, panePid) {
    const port = portOf((await deps.commandLine(panePid)) ?? []);
    return port === undefined
      ? {
          why: 'it was not started with --port (or its command line cannot be read), so its server cannot be found (opencode --port N opens this door)',
        }
      : ownServer(deps, port, panePid);
  },
  async ready(server) {
    const session = await currentSession(server, 2_000);
    return 'why' in session
      ? {use: false, why: session.why}
      : {use: true, why: `its server takes the notice into session ${session.id}`};
  },
  post: async (deps, server, notice, _target, signal) =>
    fromPost(await postToOpencode(server, notice, deps.confirmMs, signal)),
};

const codexAppServer: DoorWay<{socket: string}> = {
  async find(deps, _spec, panePid) {
    const socket = remoteSocketOf((await deps.commandLine(panePid)) ?? []);
    return socket
      ? {socket}
      : {
          why: 'it was not started with --remote unix://PATH (or its command line cannot be read), so no other client can reach its thread',
        };
  },
  ready: async ({socket}) => ({use: true, why: `its app-server listens on ${socket}`}),
  post: async (deps, {socket}, notice) =>
    fromPost(await postToCodex(socket, notice, deps.confirmMs)),
};

/** Each kind of door, by its name in the profiles. */
const WAYS: {[K in DoorKind]: DoorWay<never>} = {
  'claude-inbox': claudeInbox as DoorWay<never>,
  'pi-extension': piExtension as DoorWay<never>,
  'opencode-server': opencodeServer as DoorWay<never>,
  'codex-app-server': codexAppServer as DoorWay<never>,
};

async function tryDoor(
  deps: DoorDeps,
  spec: DoorSpec,
  target: DoorTarget,
  notice: string,
  signal: AbortSignal,
): Promise<DoorAttempt> {
  const started = realClock.now();
  const ms = () => realClock.now() - started;
  const way = WAYS[spec.kind];
  const found = await way.find(deps, spec, target.panePid);
  if (isWhy(found)) return {door: spec.kind, result: 'not-applicable', why: found.why, ms: ms()};
  const r = await way.post(deps, found, notice, target, signal);
  return r.ok
    ? {door: spec.kind, result: 'delivered', delivery: r.delivery, ms: ms()}
    : {door: spec.kind, result: r.result, why: r.why, ms: ms()};
}

function isWhy(x: unknown): x is {why: string} {
  return !!x && typeof x === 'object' && 'why' in x;
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
  deps: DoorDeps,
  specs: readonly DoorSpec[],
  panePid: number,
): Promise<{plans: DoorPlan[]; session?: ClaudeSession | undefined}> {
  const plans: DoorPlan[] = [];
  let session: ClaudeSession | undefined;
  for (const spec of specs) {
    const way = WAYS[spec.kind];
    const found = await way.find(deps, spec, panePid);
    if (isWhy(found)) {
      plans.push({door: spec.kind, use: false, why: found.why});
      continue;
    }
    if (spec.kind === 'claude-inbox') session = (found as {session: ClaudeSession}).session;
    plans.push({door: spec.kind, ...(await way.ready(found))});
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
