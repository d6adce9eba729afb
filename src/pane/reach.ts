import {hostname} from 'node:os';
import {type ConfigEnv, configTable} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {insideTmux, type ServerSpec} from '../tmux/server.js';
import type {Tmux} from '../tmux/tmux.js';

/**
 * Who asks, for the one reach check (docs/security.md, "Reach"): the person outside tmux (their
 * own terminal, a schedule their crontab runs), or a process in a pane (an agent's tool, a
 * hook, `nudge mcp`), bounded to that pane's session unless config.toml's `[submit] panes =
 * "server"` widens it to the server, and never beyond its server. Known from the environment
 * tmux gives every process of a pane (`$TMUX`, `$TMUX_PANE`): a process that strips it is
 * not bounded here (docs/security.md says so; an agent's sandbox is the bound for that).
 */
export type Asker =
  | {kind: 'person'}
  | {
      kind: 'pane';
      socketPath: string;
      serverPid: number | undefined;
      pane: string;
      reach: PaneReach;
    }
  | RemoteAsker;

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
 * and read only outside a pane: inside one, the pane's own bound holds). */
export const REMOTE_ASKER_VAR = 'NUDGE_REMOTE_ASKER';

/** The asker a `--host` request carries, from the caller's environment and config: a pane
 * caller with whether `[submit] hosts` grants it `host`. */
export function wireAskerOf(env: Record<string, string | undefined>, host: string): WireAsker {
  const asker = askerOf(env);
  if (asker.kind === 'person') return asker;
  if (asker.kind === 'remote') return {...asker, granted: false};
  return {
    kind: 'remote',
    from: `${hostname()}:${asker.pane}`,
    host,
    granted: hostsReachOf(env).includes(host),
  };
}

/** A notice relayed to a pane of `host` from a job a pane's nudge submitted: refused now (exit
 * 2) unless `[submit] hosts` grants the host, as that host's `nudge remote` would refuse it
 * when the job ends. */
export function checkHostGrant(
  env: Record<string, string | undefined>,
  host: string,
  what: string,
) {
  const asker = wireAskerOf(env, host);
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

/** Who asks, from the environment tmux gives a pane (or, outside one, a `--host` request's
 * asker that `nudge remote` set). */
export function askerOf(env: Record<string, string | undefined>): Asker {
  const inside = insideTmux(env);
  if (!inside?.pane) {
    const wire = env[REMOTE_ASKER_VAR];
    if (wire === undefined) return {kind: 'person'};
    let parsed: unknown;
    try {
      parsed = JSON.parse(wire);
    } catch {
      parsed = undefined;
    }
    return remoteAskerOf(parsed);
  }
  return {
    kind: 'pane',
    socketPath: inside.socketPath,
    serverPid: inside.serverPid,
    pane: inside.pane,
    reach: paneReachOf(env),
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
  const sameServer =
    asker.socketPath === target.socketPath ||
    (asker.serverPid !== undefined && asker.serverPid === target.serverPid);
  if (!sameServer)
    return `it is on another tmux server than the pane nudge runs in (${asker.pane})`;
  if (asker.reach === 'server' || target.pane === asker.pane) return undefined;
  const tmux = tmuxFor({kind: 'socket-path', path: target.socketPath});
  const [mine, theirs] = await Promise.all([
    tmux.describePane(asker.pane).catch(() => undefined),
    target.sessionId === undefined
      ? tmux.describePane(target.pane).catch(() => undefined)
      : {sessionId: target.sessionId},
  ]);
  if (mine && theirs && mine.sessionId === theirs.sessionId) return undefined;
  return `it is in another session than the pane nudge runs in (${asker.pane}), and config.toml's [submit] panes is not "server"`;
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
  // Each pane is described once, however many items name it.
  const described = new Map<string, ReturnType<Tmux['describePane']>>();
  const memo = (spec: ServerSpec): Tmux => {
    const tmux = tmuxFor(spec);
    const key = (pane: string) => `${JSON.stringify(spec)}\0${pane}`;
    return {
      ...tmux,
      describePane: (pane: string) => {
        const found = described.get(key(pane)) ?? tmux.describePane(pane);
        described.set(key(pane), found);
        return found;
      },
    };
  };
  const kept: T[] = [];
  for (const item of items)
    if ((await whyUnreachable(asker, target(item), memo)) === undefined) kept.push(item);
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
