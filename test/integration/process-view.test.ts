// The process view through the real CLI, once per reader (/proc, and ps with lsof as on macOS:
// test/helpers/process-view.ts proves ps was asked): an agent that tmux shows only as `node`
// is recognised by its command line, and a job whose recorded worker cannot be tied to the
// live pid (its start time differs: a reused pid) reads `lost`, and cancel signals nothing and
// says so in one sentence.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {readJobEvents} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {flagWords, PROCESS_VIEWS, runNudge, shown, submitJob} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

/** A stand-in for an agent CLI installed by npm: a script at the package's path that draws
 * nothing an agent's screen would show and waits. */
function standIn(dir: string, packagePath: string): string {
  const script = join(dir, 'node_modules', packagePath);
  mkdirSync(join(script, '..'), {recursive: true});
  writeFileSync(script, "process.stdout.write('ready\\n'); setInterval(() => {}, 1e6);\n");
  return script;
}

describe.each(PROCESS_VIEWS)('through the %s reader', (view) => {
  it.each([
    ['gemini', '@google/gemini-cli/dist/index.js'],
    ['codex', '@openai/codex/bin/codex.js'],
  ])('%s, shown by tmux as `node`, is recognised by its command line', async (agent, path) => {
    const server = await startTmuxServer();
    const reader = processViewEnv(view, server.dir);
    const pane = await server.newPane([process.execPath, standIn(server.dir, path)]);
    await server.waitForScreen(pane, /ready/);
    const r = await runNudge(['explain', '-S', server.socket, pane, '--json'], {
      NUDGE_HOME: useNudgeHome(),
      ...reader.env,
    });
    expect(r.exitCode, shown(r)).toBe(0);
    const got = JSON.parse(r.stdout) as {command: string; profile: string; why: string};
    expect(got.command).toBe('node');
    expect(got.profile, got.why).toBe(agent);
    expect(got.why).toMatch(/foreground program is/);
    if (view === 'ps')
      expect(reader.calls().some((c) => c.startsWith('ps -ww -o command='))).toBe(true);
  });

  it('a job whose worker pid no longer has its recorded start time is lost; cancel signals nothing and says so', async () => {
    const server = await startTmuxServer();
    const reader = processViewEnv(view, server.dir);
    const home = useNudgeHome();
    const env = {NUDGE_HOME: home, ...reader.env};
    const job = await submitJob(
      [
        'submit',
        ...flagWords({socketPath: server.socket, pane: '%0', delay: '10m'}),
        '--',
        'echo never',
      ],
      env,
    );
    const statePath = join(home, 'jobs', job, 'state.json');
    const record = await waitFor('the worker to record its pid and start time', async () => {
      const r = JSON.parse(readFileSync(statePath, 'utf8')) as {pid?: number; pidStart?: string};
      return r.pid !== undefined && r.pidStart !== undefined ? r : undefined;
    });
    if (view === 'ps') expect(record.pidStart).toMatch(/^@\d+$/);
    // Its last write before the 10-minute delay: after it the worker leaves state.json alone,
    // so the change below is not written over.
    await waitFor('the worker to take the lock and wait out its delay', async () =>
      (await readJobEvents(home, job)).some((e) => e.event === 'locked') ? true : undefined,
    );
    // The pid now names another process (as after a reboot): its start time differs.
    const state = JSON.parse(readFileSync(statePath, 'utf8'));
    writeFileSync(statePath, JSON.stringify({...state, pidStart: view === 'ps' ? '@1' : '1'}));
    const status = await runNudge(['status', job, '--json'], env);
    expect(JSON.parse(status.stdout).state, shown(status)).toBe('lost');
    const cancelled = await runNudge(['cancel', job], env);
    expect(cancelled.exitCode, shown(cancelled)).toBe(0);
    expect(cancelled.stdout).toBe(
      `Cancelled job ${job}; process ${record.pid} was not signalled: it runs, but nudge cannot tie it to the job's worker (its start time differs from the one recorded, or cannot be read).`,
    );
    // The live process was left alone (then ended here: it is this test's own worker).
    expect(() => process.kill(record.pid as number, 0)).not.toThrow();
    process.kill(record.pid as number, 'SIGKILL');
    if (view === 'ps')
      expect(reader.calls().some((c) => c.startsWith('ps -o stat=,lstart= -p'))).toBe(true);
  });
});
