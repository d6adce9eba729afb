// `nudge recover` with the real agent CLIs at the scripted model server: a run in a worktree,
// a job at work in its pane and one queued behind it; the tmux server is killed and every
// process of the agent's home with it (a reboot). `recover --dry-run` changes nothing;
// `recover` brings the agent back in a new session and pane, resumed into the same
// conversation — the model sees the run's first prompt in the request that carries the
// queued job's text — and the queued job is typed into the new pane once. The agent's HOME is
// the person's: `nudge run` and `nudge recover` run with it, as they would for a user.
import {spawnSync} from 'node:child_process';
import {existsSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {commitAll} from '../helpers/git-repo.js';
import {jobEventLines, readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {startModelServer} from '../helpers/model-server.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {
  type AgentName,
  agentAvailable,
  agentBin,
  agentEnv,
  killProcessesOfHome,
  prepareAgentServer,
  shellQuote,
} from '../helpers/real-agents.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {runNudge, scheduleArgv, shown} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

interface Recovered {
  servers: Array<{socketPath: string}>;
  runs: Array<{job: string; action: string; why?: string; newJob?: string; newPane?: string}>;
  jobs: Array<{job: string; action: string; why?: string; newJob?: string; newPane?: string}>;
  schedules: Array<{name: string; action: string; why?: string}>;
}

async function recoverScenario(agent: AgentName) {
  const server = await startTmuxServer();
  const model = await startModelServer();
  const opts = {modelUrl: model.url, approvals: 'all' as const};
  const where = await prepareAgentServer(server, agent, opts);
  const path = [dirname(agentBin(agent)), process.env.PATH ?? ''].join(':');
  // The person's own environment: the agent's HOME, its model, the CLI on PATH. A tmux server
  // that nudge recover starts takes it, and reads the person's ~/.tmux.conf.
  const env = {...agentEnv(agent, where, opts), PATH: path};
  writeFileSync(
    join(where.home, '.tmux.conf'),
    `set -g default-command "export PATH=${shellQuote(path).replaceAll('"', '\\"')} PS1='$ '; exec bash --norc --noprofile"\n`,
  );
  commitAll(where.workdir);
  // A worktree is a sibling of the work folder: trusted as the person would trust it.
  const rec = await startRecorder(server);
  const home = useNudgeHome();
  // A person's terminal outside the server (what recover is run from once it is gone); the
  // run itself is started from inside the recorder's pane.
  const nudge = (args: string[], timeoutMs?: number) =>
    runNudge(args, {...env, NUDGE_HOME: home}, timeoutMs);
  const state = (job: string) =>
    JSON.parse(readFileSync(join(home, 'jobs', job, 'state.json'), 'utf8')) as Record<
      string,
      unknown
    >;

  // 1. The run, in a worktree: the agent answers its prompt; its session is recorded.
  const first = `remember the word pineapple (${agent})`;
  model.script({text: 'Noted: pineapple.'});
  const started = await rec.nudge(
    [
      'run',
      '-S',
      server.socket,
      '--agent',
      agent,
      '--cwd',
      where.workdir,
      '--worktree',
      '--',
      first,
    ],
    {...env, NUDGE_HOME: home},
  );
  expect(started.exitCode, shown(started)).toBe(0);
  const run = started.stdout.trim();
  await waitForJobEnd(home, run, 180_000);
  const ran = state(run);
  expect(ran.state, String(ran.reason)).toBe('done');
  const session = (ran.session as {id: string; from: string} | undefined)?.id;
  expect(session, JSON.stringify(ran)).toMatch(/^[0-9a-f-]{36}$/);
  const pane = String(ran.pane);

  // 2. A job at work in the run's pane (the model holds its answer), one queued behind it.
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  model.script({holdMs: 300_000, until: held, reply: {text: 'late'}});
  const atWork = `job at work (${agent})`;
  const queued = `which word did I ask you to remember? (${agent})`;
  const submit = async (text: string) => {
    const r = await nudge(['submit', '-S', server.socket, '-t', pane, '--delay', '0', '--', text]);
    expect(r.exitCode, shown(r)).toBe(0);
    return r.stdout.trim();
  };
  // A schedule that types into the run's pane: its mark moves to the recovered pane.
  const scheduled = await nudge(
    scheduleArgv(
      'cron',
      {write: true, socketPath: server.socket, name: 'nightly', every: '1h'},
      {pane},
      'the nightly check',
    ),
  );
  expect(scheduled.exitCode, shown(scheduled)).toBe(0);
  const token = JSON.parse(readFileSync(join(home, 'schedule', 'nightly.json'), 'utf8')).mark;
  const job1 = await submit(atWork);
  await model.waitForPrompt(/job at work/, {timeoutMs: 120_000});
  const job2 = await submit(queued);
  await waitFor(
    'the second job queued behind the first',
    async () =>
      (await readJobEvents(home, job2)).some((e) => e.event === 'waiting-for-lock') || undefined,
    {
      timeoutMs: 60_000,
      describe: async () =>
        `job 1 (${job1}):\n${await jobEventLines(home, job1)}\njob 2 (${job2}):\n${await jobEventLines(home, job2)}`,
    },
  );

  // 3. A reboot: the tmux server and every process of the person's home go.
  await server.tmux('kill-server').catch(() => '');
  await killProcessesOfHome(where.home);
  release();

  // 4. The plan changes nothing: no server is started, no job made.
  const jobsBefore = readdirSync(join(home, 'jobs')).sort();
  const dry = await nudge(['recover', '--dry-run', '--json']);
  expect(dry.exitCode, shown(dry)).toBe(0);
  const plan = JSON.parse(dry.stdout) as Recovered;
  expect(plan.runs, dry.stdout).toEqual([expect.objectContaining({job: run, action: 'resume'})]);
  const listed = (await runNudge(['jobs', '--json'], {NUDGE_HOME: home})).stdout;
  expect(plan.jobs, `${dry.stdout}\n${listed}`).toEqual(
    expect.arrayContaining([
      expect.objectContaining({job: job1, action: 'leave'}),
      expect.objectContaining({job: job2, action: 'retarget'}),
    ]),
  );
  expect(readdirSync(join(home, 'jobs')).sort()).toEqual(jobsBefore);
  expect(existsSync(join(home, 'jobs', run, 'recovered'))).toBe(false);
  const noServer = await runNudge(['jobs'], {NUDGE_HOME: home});
  expect(noServer.exitCode).toBe(0);
  // No tmux server was started on the socket.
  const listed2 = spawnSync('tmux', ['-S', server.socket, 'list-sessions'], {encoding: 'utf8'});
  expect(listed2.status, listed2.stdout).not.toBe(0);
  expect(plan.schedules, dry.stdout).toEqual([
    expect.objectContaining({name: 'nightly', action: 'remark', run}),
  ]);
  return {server, model, where, home, nudge, state, run, session, pane, first, queued, job2, token};
}

describe.each(['claude', 'codex'] as const)('nudge recover: %s', (agent) => {
  it.skipIf(!agentAvailable(agent))(
    'after kill-server, the run comes back resumed into its conversation; the queued job is typed into the new pane once',
    {timeout: 600_000},
    async () => {
      const w = await recoverScenario(agent).catch((error: unknown) => {
        throw error;
      });
      w.model.script({text: 'The word was pineapple.'});
      const r = await w.nudge(['recover', '--json'], 300_000);
      expect(r.exitCode, shown(r)).toBe(0);
      const done = JSON.parse(r.stdout) as Recovered;
      const resumed = done.runs.find((x) => x.job === w.run);
      expect(resumed, r.stdout).toMatchObject({action: 'resume'});
      expect(resumed?.newPane).toMatch(/^%\d+$/);
      const moved = done.jobs.find((x) => x.job === w.job2);
      expect(moved, r.stdout).toMatchObject({action: 'retarget', newPane: resumed?.newPane});

      // The queued job's text reaches the model once, in the resumed conversation: the
      // request that carries it holds the run's first prompt.
      const got = await w.model.waitForPrompt(/which word did I ask you/, {timeoutMs: 180_000});
      expect(got.text).toBe(w.queued);
      const carrying = w.model.journal().filter((e) => !e.side && e.prompts.includes(w.queued));
      expect(carrying.length).toBeGreaterThan(0);
      expect(carrying[0]?.prompts).toContain(w.first);
      expect(w.model.prompts().filter((p) => p.text === w.queued)).toHaveLength(1);
      await waitForJobEnd(w.home, String(moved?.newJob), 180_000);
      expect(w.state(String(moved?.newJob)).state).toBe('done');
      // The resumed run records the same session, and is there for a next recovery.
      expect((w.state(String(resumed?.newJob)).session as {id: string}).id).toBe(w.session);
      // The schedule's mark is on the new pane (and its file names it), none on another.
      const marked = await w.server.tmux(
        'show-options',
        '-pqv',
        '-t',
        String(resumed?.newPane),
        '@nudge-schedule-nightly',
      );
      expect(marked.trim()).toBe(w.token);
      const file = JSON.parse(readFileSync(join(w.home, 'schedule', 'nightly.json'), 'utf8'));
      expect(file.marked.pane).toBe(resumed?.newPane);
      // A second recover finds nothing more to bring back.
      const again = await w.nudge(['recover', '--json']);
      const second = JSON.parse(again.stdout) as Recovered;
      expect(second.runs.filter((x) => x.action === 'resume')).toEqual([]);
      expect(second.jobs.filter((x) => x.action === 'retarget')).toEqual([]);
      expect(w.model.prompts().filter((p) => p.text === w.queued)).toHaveLength(1);
    },
  );
});
