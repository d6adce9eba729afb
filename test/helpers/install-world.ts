/**
 * What the `nudge install` tests with the real CLIs share: a throwaway HOME with nothing
 * allowed, `nudge install AGENT` run in it before the CLI starts, the scripted model server,
 * and the checks each agent's test makes (the job queued, its notice at the model once, the
 * turn-end hook's mark, the files as they were after `--uninstall`).
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {expect, onTestFinished} from 'vitest';
import type {InstallAgent} from '../../src/setup/agents.js';
import {expectJobEnd} from './job-files.js';
import {type ModelServer, startModelServer} from './model-server.js';
import {stopWorkers} from './nudge-home.js';
import {
  type AgentHome,
  type AgentName,
  agentBin,
  agentEnv,
  agentUnsetVariables,
  type RealAgent,
  startAgent,
} from './real-agents.js';
import {CLI, runNudge} from './run-nudge.js';
import {useTempDir} from './temp-dir.js';
import {cleanEnv, startTmuxServer, type TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

export const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
export const NUDGE = `${process.execPath} ${CLI}`;

/** The files `nudge install AGENT` writes in a home (user scope). */
export const FILES: Record<InstallAgent, string[]> = {
  claude: ['.claude/commands/nudge.md', '.claude/settings.json', '.claude.json'],
  gemini: ['.gemini/commands/nudge.toml', '.gemini/settings.json'],
  codex: ['.codex/skills/nudge/SKILL.md', '.codex/rules/nudge.rules', '.codex/config.toml'],
  qwen: ['.qwen/commands/nudge.md', '.qwen/settings.json'],
  opencode: [
    '.config/opencode/commands/nudge.md',
    '.config/opencode/plugins/nudge.js',
    '.config/opencode/opencode.json',
  ],
  copilot: [
    '.copilot/skills/nudge/SKILL.md',
    '.copilot/hooks/nudge.json',
    '.copilot/mcp-config.json',
  ],
  pi: ['.pi/agent/prompts/nudge.md', '.pi/agent/extensions/nudge.ts'],
};

export function snapshot(home: string, files: string[]): Record<string, string | undefined> {
  return Object.fromEntries(
    files.map((f) => [
      f,
      existsSync(join(home, f)) ? readFileSync(join(home, f), 'utf8') : undefined,
    ]),
  );
}

export interface World {
  model: ModelServer;
  server: TmuxTestServer;
  agent: RealAgent;
  /** NUDGE_HOME of the test, the agent's and its hooks'. */
  state: string;
  /** A plain shell pane for the jobs to type into. */
  shell: string;
  /** The install files before install. */
  before: Record<string, string | undefined>;
  installOut: string;
}

export async function setup(
  name: InstallAgent,
  path: string[] = [],
  approvals: 'none' | 'default' = 'none',
): Promise<World> {
  const model = await startModelServer();
  const server = await startTmuxServer();
  const state = useTempDir('nudge-home-');
  // Its workers are done (or stopped) before the folder is removed.
  onTestFinished(() => stopWorkers(state));
  const shell = await server.newPane(['bash', '--norc', '--noprofile']);
  let before: Record<string, string | undefined> = {};
  let installOut = '';
  const agent = await startAgent(
    server,
    name,
    {modelUrl: model.url, approvals, env: {NUDGE_HOME: state}, path},
    async (where) => {
      before = snapshot(where.home, FILES[name]);
      // --allow: the tests let the model run nudge as a person allows it; opencode's test home
      // sets permission.bash = "ask", a setting of the person's that nudge leaves alone (its
      // /nudge needs no rule).
      const args = name === 'opencode' ? ['install', name] : ['install', name, '--allow'];
      const r = await runNudge(args, {HOME: where.home, NUDGE_HOME: state});
      expect(r.exitCode, r.stderr + r.stdout).toBe(0);
      installOut = r.stdout;
    },
  );
  return {model, server, agent, state, shell, before, installOut};
}

/** Run the agent's CLI with its pane's environment (`claude mcp list` …). */
export async function agentCli(
  name: AgentName,
  where: AgentHome,
  model: ModelServer,
  args: string[],
) {
  const env = cleanEnv(agentEnv(name, where, {modelUrl: model.url}));
  for (const v of agentUnsetVariables()) delete env[v];
  const r = await execa(agentBin(name), args, {
    env,
    extendEnv: false,
    reject: false,
    cwd: where.workdir,
    timeout: 90_000,
    stdin: 'ignore',
  });
  return `${r.stdout}\n${r.stderr}`;
}

export async function type(w: World, text: string, enter = true): Promise<void> {
  await w.server.tmux('send-keys', '-t', w.agent.pane, '-l', '--', text);
  if (!enter) return;
  await new Promise((r) => setTimeout(r, 500));
  await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
}

/** The only job in the state dir. */
export async function theJob(w: World): Promise<string> {
  return waitFor(
    'the job the command queued',
    async () => {
      const ids = existsSync(join(w.state, 'jobs')) ? readdirSync(join(w.state, 'jobs')) : [];
      return ids.length === 1 ? ids[0] : undefined;
    },
    {timeoutMs: 90_000, describe: () => w.agent.capture()},
  );
}

/** The job ends done, its text ran in the shell pane, and its notice reached the model once,
 * after `after`. */
export async function expectNoticeAtModel(w: World, id: string, after: number): Promise<void> {
  const _end = await expectJobEnd(w.state, id, 'done', 150_000);
  const notice = await w.model.waitForPrompt(new RegExp(`^${NOTICE.replace(/[[\].]/g, '\\$&')}$`), {
    timeoutMs: 60_000,
  });
  expect(notice.at).toBeGreaterThanOrEqual(after);
  expect(w.model.prompts().filter((p) => p.text === NOTICE)).toHaveLength(1);
}

/**
 * The installed `/nudge` command, used as a person does: typed, its entry seen in the menu
 * (`menu`; with `pick`, taken from the list with Enter until the screen shows `pick`), then
 * `args` and Enter. The model saw the job queued (`queued`, the command's own words); the job
 * ended done and its notice reached the model once after it. The job's id.
 */
async function queuedBySlash(
  w: World,
  o: {menu: RegExp; pick?: RegExp; args: string; queued: string},
): Promise<string> {
  await type(w, '/nudge', false);
  await w.server.waitForScreen(w.agent.pane, o.menu, 30_000);
  if (o.pick) {
    await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
    await w.server.waitForScreen(w.agent.pane, o.pick, 30_000);
  }
  const started = Date.now();
  await type(w, o.pick ? o.args : ` ${o.args}`);
  const queued = await w.model.waitForPrompt(
    new RegExp(`${o.queued}: \\{"job":"[0-9a-z-]+","state":"queued"`),
    {timeoutMs: 90_000},
  );
  const id = await theJob(w);
  expect(queued.text).toContain(`"job":"${id}"`);
  await expectNoticeAtModel(w, id, started);
  return id;
}

/** `/nudge TEXT` for the agent's own pane: TEXT, typed there by the job, reached the model
 * once, and the installed hook left a `hook` mark (queuedBySlash). The job's id. */
export async function slashNudge(
  w: World,
  o: {menu: RegExp; text: string; hook: string},
): Promise<string> {
  const id = await queuedBySlash(w, {menu: o.menu, args: o.text, queued: 'Queued'});
  await w.model.waitForPrompt(new RegExp(`^${o.text}$`), {timeoutMs: 90_000});
  expect(w.model.prompts().filter((p) => p.text === o.text)).toHaveLength(1);
  await expectHookMark(w, o.hook);
  return id;
}

/** `/nudge --pane SHELL --notify-pane self --until exit -- 'echo WORD'`: WORD printed in the
 * shell pane, the notice at the model, the installed hook's `hook` mark (queuedBySlash). */
export async function slashNudgeToShell(
  w: World,
  o: {menu: RegExp; pick?: RegExp; word: string; hook: string},
): Promise<void> {
  const args = `--pane ${w.shell} --notify-pane self --until exit -- 'echo ${o.word}'`;
  await queuedBySlash(w, {menu: o.menu, pick: o.pick, args, queued: 'Job queued'});
  await w.server.waitForScreen(w.shell, new RegExp(`^${o.word}$`, 'm'), 10_000);
  await expectHookMark(w, o.hook);
}

/** A turn-end mark of `source` for the agent's pane, recorded by the installed hook. */
export async function expectHookMark(w: World, source: string): Promise<void> {
  await waitFor(
    `a ${source} mark`,
    async () => {
      const dir = join(w.state, 'marks');
      if (!existsSync(dir)) return undefined;
      return readdirSync(dir)
        .map(
          (f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as {source: string; pane: string},
        )
        .find((m) => m.source === source && m.pane === w.agent.pane);
    },
    {timeoutMs: 60_000},
  );
}

export async function uninstall(w: World, name: AgentName): Promise<void> {
  const r = await runNudge(['install', name, '--uninstall'], {
    HOME: w.agent.home,
    NUDGE_HOME: w.state,
  });
  expect(r.exitCode, r.stderr + r.stdout).toBe(0);
}
