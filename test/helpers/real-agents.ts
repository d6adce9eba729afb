/**
 * The real agent CLIs (Claude Code, Gemini CLI, Codex CLI) in a pane of a private tmux
 * server, offline, with a throwaway HOME — for tests that must prove nudge against the real
 * programs. `bash scripts/install-agents.sh` installs them into a cache folder; tests for an
 * agent that is not installed are skipped:
 *
 *     describe.skipIf(!agentAvailable('claude'))('claude', () => {
 *       it('…', async () => {
 *         const server = await startTmuxServer();
 *         const agent = await startAgent(server, 'claude');
 *         await server.tmux('send-keys', '-t', agent.pane, '-l', 'hello');
 *       });
 *     });
 *
 * What each CLI's screen looks like, and why each seed file and variable below is there:
 * docs/agent-screens.md.
 *
 * Offline means: every API endpoint points at a closed port on 127.0.0.1, so an agent given
 * a prompt fails to connect at once and keeps retrying — the same long, real "busy" phase
 * on a laptop without network, in CI with network, and here. Proxies, real credentials and
 * config-directory overrides from the caller's environment are removed.
 */
import {rmSync} from 'node:fs';
import {dirname} from 'node:path';
import {onTestFinished} from 'vitest';
import {
  AGENT_SCREENS,
  type AgentHome,
  type AgentName,
  type AgentOptions,
  agentAvailable,
  agentBin,
  agentEnv,
  agentUnsetVariables,
  agentVersion,
  agentWindowArgs,
  createAgentHome,
  killProcessesOfHome,
  shellQuote,
} from '../harness/agents.js';
import type {TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

export * from '../harness/agents.js';

export interface RealAgent extends AgentHome {
  name: AgentName;
  version: string;
  server: TmuxTestServer;
  /** The pane the CLI runs in (`%N`). */
  pane: string;
  /** The visible screen of the pane. */
  capture(): Promise<string>;
  /** The cursor position in the pane, 0-based. */
  cursor(): Promise<{x: number; y: number}>;
  /** Wait until the idle composer is on screen (empty, no busy marker, screen settled). */
  waitForIdle(timeoutMs?: number): Promise<string>;
}

/**
 * Start the real `name` CLI in a new window of `server` and wait for its idle composer.
 * After the test: every process started with this home is killed (Gemini CLI outlives a
 * killed tmux server, Codex may leave a daemon) and the home is removed.
 */
export async function startAgent(
  server: TmuxTestServer,
  name: AgentName,
  opts: AgentOptions = {},
  /** Runs in the new home before the CLI starts (a `nudge install`). */
  prepare?: (where: AgentHome) => Promise<void>,
): Promise<RealAgent> {
  const version = agentVersion(name);
  if (!version || !agentAvailable(name)) {
    throw new Error(`${name} is not installed: run "bash scripts/install-agents.sh ${name}"`);
  }
  const where = createAgentHome(name, opts);
  const keep = opts.keepHome || process.env.NUDGE_KEEP_AGENT_HOMES === '1';
  onTestFinished(async () => {
    await killProcessesOfHome(where.home);
    if (!keep) rmSync(where.root, {recursive: true, force: true, maxRetries: 3});
  });
  await prepare?.(where);
  const pane = (await server.tmux(...agentWindowArgs(name, where, opts))).trim();
  const capture = () => server.capture(pane);
  const agent: RealAgent = {
    ...where,
    name,
    version,
    server,
    pane,
    capture,
    async cursor() {
      const out = await server.tmux('display-message', '-p', '-t', pane, '#{cursor_x} #{cursor_y}');
      const [x, y] = out.trim().split(' ').map(Number);
      return {x: x ?? 0, y: y ?? 0};
    },
    waitForIdle: (timeoutMs = opts.readyTimeoutMs ?? 60_000) =>
      waitForIdleComposer(server, pane, name, timeoutMs),
  };
  if (opts.wait !== false) await agent.waitForIdle();
  return agent;
}

/**
 * Wait until `pane` shows `name`'s empty composer and no busy marker on two captures 700 ms
 * apart with the same text (the CLIs keep drawing for a few seconds after the composer first
 * appears: Gemini adds its banner, Codex finishes its logo).
 */
export async function waitForIdleComposer(
  server: TmuxTestServer,
  pane: string,
  name: AgentName,
  timeoutMs = 60_000,
): Promise<string> {
  const {emptyComposer, busy} = AGENT_SCREENS[name];
  let last = '';
  let previous: string | undefined;
  return waitFor(
    `${name} in ${pane} to show its idle composer`,
    async () => {
      last = await server.capture(pane).catch((e: Error) => `(capture failed: ${e.message})`);
      const idle = emptyComposer.test(last) && !busy.test(last);
      const settled = idle && last === previous;
      previous = idle ? last : undefined;
      return settled ? last : undefined;
    },
    {timeoutMs, intervalMs: 700, describe: () => last},
  );
}

/**
 * Make `server` start `name` as a user's shell would: its environment (the throwaway home,
 * the model endpoint, PATH with the CLI first) set in the server's global environment, the
 * caller's real credentials and CI variables removed, and new windows running a plain bash —
 * so a pane nudge opens and types `claude` into runs the real CLI, offline. After the test
 * every process started with that home is killed and the home removed.
 */
export async function prepareAgentServer(
  server: TmuxTestServer,
  name: AgentName,
  opts: AgentOptions = {},
): Promise<AgentHome> {
  const where = createAgentHome(name, opts);
  onTestFinished(async () => {
    await killProcessesOfHome(where.home);
    const keep = opts.keepHome || process.env.NUDGE_KEEP_AGENT_HOMES === '1';
    if (!keep) rmSync(where.root, {recursive: true, force: true, maxRetries: 3});
  });
  const env = agentEnv(name, where, opts);
  env.PATH = [dirname(agentBin(name)), ...(opts.path ?? []), process.env.PATH ?? ''].join(':');
  for (const key of agentUnsetVariables()) {
    if (!(key in env)) await server.tmux('set-environment', '-gu', key).catch(() => '');
  }
  for (const [key, value] of Object.entries(env)) {
    await server.tmux('set-environment', '-g', key, value);
  }
  // tmux runs default-command through a login shell, whose profile resets PATH (and PS1):
  // set them again, as a user's own profile puts their tools back on PATH.
  await server.tmux(
    'set-option',
    '-g',
    'default-command',
    `export PATH=${shellQuote(env.PATH)} PS1='$ '; exec bash --norc --noprofile`,
  );
  return where;
}
