import {hostname} from 'node:os';
import type {ProcessLink, ProcessTree} from '../process/tree.js';
import {insideTmux} from '../tmux/server.js';
import {isTmuxServer} from './proof.js';
import {
  type Asker,
  hostsReachOf,
  type LocalAsker,
  paneReachOf,
  REMOTE_ASKER_VAR,
  type RemoteAsker,
  remoteAskerOf,
  type WireAsker,
} from './reach.js';

/** What proving who asks reads: the caller's environment (its claims), its pid and the
 * process tree. Every member is required. */
export interface AskerCaller {
  env: Record<string, string | undefined>;
  pid: number;
  tree: ProcessTree;
}

/**
 * Who asks, for the one reach check (docs/security.md, "Reach"), from what the process tree
 * proves: a caller below a tmux server (its ancestry passes one) is in a pane of it, whatever
 * its environment says; so is a caller whose controlling terminal is a pane's (one that left
 * the pane's process tree, `(nudge … &)`). `$TMUX` and `$TMUX_PANE` are claims: they bound a
 * call further, never less. Only a caller with neither proof nor claim is the person outside
 * tmux (or, for `nudge remote`, the asker its request carried, which can only narrow too).
 */
export async function askerOf(caller: AskerCaller): Promise<Asker> {
  const {env} = caller;
  const inside = insideTmux(env);
  const claim = inside?.pane
    ? {socketPath: inside.socketPath, serverPid: inside.serverPid, pane: inside.pane}
    : undefined;
  const {chain, terminal} = await proofOf(caller);
  const underTmux = chain.some(isTmuxServer);
  if (!underTmux && claim === undefined) {
    const wire = wireAskerFromEnv(env);
    if (wire?.kind === 'remote') return wire;
  }
  if (!underTmux && claim === undefined && terminal === undefined) return {kind: 'person'};
  return {
    kind: 'local',
    chain,
    terminal,
    claim,
    reach: paneReachOf(env),
    panes: new Map(),
  };
}

/** What the process tree proves of a caller: its ancestry, and its controlling terminal where
 * no tmux server is among its ancestors. */
interface Proof {
  chain: ProcessLink[];
  terminal: string | undefined;
}

/** Each caller's proof, read once: a command asks at each door it passes with one context (a
 * submit: its pane's reach, then the pane it records as the sender), and on macOS each read is
 * a `ps -A`. Contexts are made per command (per tool call in `nudge mcp`). */
const proofs = new WeakMap<AskerCaller, Promise<Proof>>();

function proofOf(caller: AskerCaller): Promise<Proof> {
  let proof = proofs.get(caller);
  if (proof === undefined) {
    proof = readProof(caller);
    proofs.set(caller, proof);
  }
  return proof;
}

async function readProof(caller: AskerCaller): Promise<Proof> {
  const chain = await caller.tree.ancestry(caller.pid).catch(() => []);
  if (chain.some(isTmuxServer)) return {chain, terminal: undefined};
  // The caller's own terminal, where the tree read it with the ancestry (both real readers do).
  const [own] = chain;
  const terminal =
    own?.pid === caller.pid && 'terminal' in own
      ? own.terminal
      : await caller.tree.terminalOf(caller.pid).catch(() => undefined);
  return {chain, terminal};
}

function wireAskerFromEnv(env: Record<string, string | undefined>): WireAsker | undefined {
  const wire = env[REMOTE_ASKER_VAR];
  if (wire === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(wire);
  } catch {
    parsed = undefined;
  }
  return remoteAskerOf(parsed);
}

/** Whether the caller runs inside tmux at all, as far as this host is concerned: under a tmux
 * server, on a terminal it holds (not told without a server to ask), or claiming a pane. */
export function insideAnyPane(asker: LocalAsker): boolean {
  return asker.claim !== undefined || asker.chain.some(isTmuxServer);
}

/** The asker a `--host` request carries: the person, or a pane of this host with whether
 * config.toml's `[submit] hosts` grants `host` (the calling side refuses an ungranted one
 * before anything leaves: src/front/hosts.ts). */
export function wireAskerOf(
  asker: Asker,
  env: Record<string, string | undefined>,
  host: string,
): WireAsker {
  if (asker.kind === 'person') return asker;
  if (asker.kind === 'remote') return {...asker, granted: false};
  if (!insideAnyPane(asker)) return {kind: 'person'};
  const from: RemoteAsker['from'] = `${hostname()}:${asker.claim?.pane ?? 'a pane'}`;
  return {kind: 'remote', from, host, granted: hostsReachOf(env).includes(host)};
}
