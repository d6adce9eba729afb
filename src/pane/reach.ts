import {type ConfigEnv, configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import type {ProcessLink} from '../process/tree.js';
import type {PaneStateRow} from '../tmux/pane-options.js';
import type {ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';
import {proofOf} from './proof.js';

/**
 * Who asks, for the one reach check (docs/security.md, "Reach"), as src/pane/asker.ts proves
 * it: the person outside tmux (their own terminal, a schedule their crontab runs), a process
 * that runs in a pane (an agent's tool, a hook, `nudge mcp`) — bounded to that pane's session
 * unless config.toml's `[submit] panes = "server"` widens it to the server, and never beyond its
 * server — or a pane of another host asking through `--host`.
 */
export type Asker = {kind: 'person'} | LocalAsker | RemoteAsker;

/** A caller on this host that may run in a pane: which one is proven per server, from its
 * ancestry and terminal (src/pane/asker.ts, proofOf), and bounded by what its environment
 * claims as well. */
export interface LocalAsker {
  kind: 'local';
  /** The caller and its ancestors, nearest first. */
  chain: readonly ProcessLink[];
  /** Its controlling terminal, read when no tmux server is among its ancestors. */
  terminal: string | undefined;
  /** The pane `$TMUX` and `$TMUX_PANE` claim: a further bound, never a wider one. */
  claim: {socketPath: string; serverPid: number | undefined; pane: string} | undefined;
  reach: PaneReach;
  /** Each server's panes, listed once per command (by socket path). */
  panes: Map<string, Promise<PaneStateRow[]>>;
}

/** A pane of another host, asking through `--host` (`nudge remote` here): it reaches this
 * host's panes only when its own config.toml's `[submit] hosts` names this host. */
export interface RemoteAsker {
  kind: 'remote';
  /** `HOSTNAME:%N`, the pane that asked. */
  from: string;
  /** This host, as the caller named it. */
  host: string;
  granted: boolean;
}

/** Why a pane of another host may reach nothing here, or undefined when its config grants
 * this host. */
export function whyRemoteRefused(asker: RemoteAsker): string | undefined {
  return asker.granted
    ? undefined
    : `the pane that asked (${asker.from}) is on another host, whose config.toml [submit] hosts does not name ${asker.host}`;
}

/** Who asks, as a `--host` request says it: the person, or a pane of the caller's host. */
export type WireAsker = {kind: 'person'} | RemoteAsker;

/** Where `nudge remote` hands the request's asker to the command it runs (set only there,
 * and read only when nothing proves or claims a pane: it can only narrow). */
export const REMOTE_ASKER_VAR = 'NUDGE_REMOTE_ASKER';

/** A notice relayed to a pane of `host` from a job a pane's nudge submitted: refused now (exit
 * 2) unless `[submit] hosts` grants the host, as that host's `nudge remote` would refuse it
 * when the job ends. `asker` as wireAskerOf (src/pane/asker.ts) gives it for `host`. */
export function checkHostGrant(asker: WireAsker, what: string) {
  const why = asker.kind === 'remote' ? whyRemoteRefused(asker) : undefined;
  if (why !== undefined) throw new NudgeError('out-of-reach', `${what} is out of reach: ${why}.`);
}

/** The request's asker as `nudge remote` received it: anything but a well-formed one is a
 * pane that may reach nothing here (fail closed). */
export function remoteAskerOf(value: unknown): WireAsker {
  const v = value as
    | {kind?: unknown; from?: unknown; host?: unknown; granted?: unknown}
    | undefined;
  if (v?.kind === 'person') return {kind: 'person'};
  const text = (x: unknown) => (typeof x === 'string' ? x.slice(0, 200) : '?');
  return {
    kind: 'remote',
    from: text(v?.from),
    host: text(v?.host),
    granted: v?.kind === 'remote' && v.granted === true,
  };
}

/** A pane something would reach: its server, its id, and (when known) its session. */
export interface Reached {
  socketPath: string;
  serverPid: number;
  pane: string;
  sessionId?: string | undefined;
}

/**
 * Whether `asker` may reach `target`: undefined when it may, else the clause why not (for a
 * sentence that names the pane). `tmuxFor` gives the target's server (to learn sessions).
 */
export async function whyUnreachable(
  asker: Asker,
  target: Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<string | undefined> {
  if (asker.kind === 'person') return undefined;
  if (asker.kind === 'remote') return whyRemoteRefused(asker);
  const rows = panesOf(asker, target.socketPath, tmuxFor);
  const proof = proofOf(asker.chain, asker.terminal, await rows, target.serverPid);
  const session = async (pane: string) =>
    pane === target.pane && target.sessionId !== undefined
      ? target.sessionId
      : (await rows).find((r) => r.paneId === pane)?.sessionId;
  const bounded = async (pane: string, sessionId: string | undefined) => {
    if (asker.reach === 'server' || target.pane === pane) return undefined;
    const theirs = await session(target.pane);
    if (sessionId !== undefined && theirs === sessionId) return undefined;
    return `it is in another session than the pane nudge runs in (${pane}), and config.toml's [submit] panes is not "server"`;
  };
  const proven = proof.kind === 'pane' ? await bounded(proof.pane, proof.sessionId) : undefined;
  if (proven !== undefined) return proven;
  // What the environment claims bounds the call as well, unless it names the proven pane.
  const {claim} = asker;
  if (claim === undefined || (proof.kind === 'pane' && claim.pane === proof.pane)) return undefined;
  const sameServer =
    claim.socketPath === target.socketPath ||
    (claim.serverPid !== undefined && claim.serverPid === target.serverPid);
  if (!sameServer)
    return `it is on another tmux server than the pane nudge runs in (${claim.pane})`;
  return bounded(claim.pane, await session(claim.pane));
}

/** The pane a local asker runs in, as a job records who submitted it: the one proven on the
 * server of `target` (its session from there), else the one its environment claims. */
export async function askerPane(
  asker: LocalAsker,
  target: {socketPath: string; serverPid: number},
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<{socketPath: string; pane: string; sessionId?: string} | undefined> {
  const rows = await panesOf(asker, target.socketPath, tmuxFor);
  const proof = proofOf(asker.chain, asker.terminal, rows, target.serverPid);
  if (proof.kind === 'pane')
    return {socketPath: target.socketPath, pane: proof.pane, sessionId: proof.sessionId};
  const {claim} = asker;
  if (claim === undefined) return undefined;
  const sessionId =
    claim.socketPath === target.socketPath
      ? rows.find((r) => r.paneId === claim.pane)?.sessionId
      : undefined;
  return {socketPath: claim.socketPath, pane: claim.pane, ...(sessionId ? {sessionId} : {})};
}

/** The panes of the server at `socketPath`, listed once per command (none where it does not
 * answer: then no pane of it is proven, and a claim to one is not believed). */
function panesOf(
  asker: LocalAsker,
  socketPath: string,
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<PaneStateRow[]> {
  let rows = asker.panes.get(socketPath);
  if (rows === undefined) {
    rows = tmuxFor({kind: 'socket-path', path: socketPath})
      .paneStates()
      .catch(() => []);
    asker.panes.set(socketPath, rows);
  }
  return rows;
}

/** whyUnreachable as a refusal: exit 2, one sentence that says what was asked for. */
export async function checkReachOf(
  asker: Asker,
  target: Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
  what: string,
): Promise<void> {
  const why = await whyUnreachable(asker, target, tmuxFor);
  if (why !== undefined) throw new NudgeError('out-of-reach', `${what}: ${why}.`);
}

/** Of `items`, those `asker` may reach (each judged by `target`), in their order. */
export async function reachable<T>(
  asker: Asker,
  items: readonly T[],
  target: (item: T) => Reached,
  tmuxFor: (spec: ServerSpec) => Tmux,
): Promise<T[]> {
  if (asker.kind === 'person') return [...items];
  // Each server's panes are listed once (the asker keeps them), however many items it holds.
  const kept: T[] = [];
  for (const item of items)
    if ((await whyUnreachable(asker, target(item), tmuxFor)) === undefined) kept.push(item);
  return kept;
}

/** How far a nudge started inside a pane may type (config.toml `[submit] panes`): the panes
 * of its own session (the default), or of its whole server. */
export type PaneReach = 'session' | 'server';

/** `[submit] hosts` from the person's config file: the hosts whose panes a nudge started
 * inside a pane may reach through `--host` (default none). */
export function hostsReachOf(env: ConfigEnv): string[] {
  const found = configTable(env, 'submit');
  const value = found?.table.hosts;
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((h) => typeof h === 'string')) return value as string[];
  throw new NudgeError(
    'bad-config',
    `${found?.file}: submit.hosts must be a list of hosts as --host names them, e.g. hosts = ["gpu"].`,
  );
}

/** `[submit] panes` from the person's config file (default `session`). */
export function paneReachOf(env: ConfigEnv): PaneReach {
  const found = configTable(env, 'submit');
  const value = found?.table.panes;
  if (value === undefined) return 'session';
  if (value === 'session' || value === 'server') return value;
  throw new NudgeError(
    'bad-config',
    `${found?.file}: submit.panes must be "session" or "server", not ${JSON.stringify(value)}.`,
  );
}
