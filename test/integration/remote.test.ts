/**
 * nudge on other hosts (--host): real OpenSSH servers on loopback, each "host" with its own
 * home, state and tmux server (test/helpers/ssh-hosts.ts), driven through the real CLI and
 * the real `nudge mcp`. What a pane received is read byte for byte from a recorder there.
 */
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {readJobState} from '../helpers/job-files.js';
import {callTool, spawnedMcp} from '../helpers/mcp-client.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {CLI, flagWords, runNudge, submitArgv} from '../helpers/run-nudge.js';
import {type SshHost, type SshWorld, startSshHosts} from '../helpers/ssh-hosts.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

/** Quick timings for jobs on a test pane. */
const QUICK = {delay: 0, typeDelay: 0, enterDelay: '100ms', interval: '200ms'};

function nudge(
  world: SshWorld,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs?: number,
) {
  return runNudge(args, {...world.env, ...env}, timeoutMs);
}

/** A job's record on its host, read from the host's own state folder. */
function stateOn(host: SshHost, job: string) {
  return readJobState(host.state, job);
}

async function waitForStateOn(host: SshHost, job: string, states: RegExp, timeoutMs = 60_000) {
  let last = '';
  return waitFor(
    `job ${job} on ${host.name} to reach ${states}`,
    async () => {
      const s = await stateOn(host, job).catch(() => undefined);
      last = s ? s.state : '(none)';
      return s && states.test(s.state) ? s : undefined;
    },
    {timeoutMs, describe: () => last},
  );
}

/** The pid of the shared connection's master (`ssh -O check`), by its socket. */
async function masterPid(world: SshWorld, host: string): Promise<number> {
  const dir = join(world.localHome, 'ssh');
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.sock'))) {
    const r = await execa(
      'ssh',
      ['-F', world.sshConfig, '-o', `ControlPath=${join(dir, f)}`, '-O', 'check', host],
      {reject: false},
    );
    const m = /pid=(\d+)/.exec(r.stderr);
    if (r.exitCode === 0 && m) return Number(m[1]);
  }
  throw new Error(`no master for ${host} in ${dir}`);
}

/** One ssh host, alpha, with a shell pane at its prompt. */
async function alphaShell() {
  const world = await startSshHosts(['alpha']);
  const [alpha] = world.hosts as [SshHost];
  const pane = await alpha.newPane(['bash', '--norc', '--noprofile']);
  await alpha.waitForScreen(pane, /^[$#] ?$/m);
  return {world, alpha, pane};
}

describe('nudge on another host over ssh', () => {
  test('submit --host: the job is recorded and run there, every byte typed into its pane, once; jobs, status and logs reach it', async () => {
    const world = await startSshHosts(['alpha']);
    const [alpha] = world.hosts as [SshHost];
    const rec = await startRecorder(alpha);
    const text = `héllo 'quoted' "double" $HOME \`tick\` ; & | \\ 日本 🙂 tab\tend`;
    const r = await nudge(world, submitArgv({host: 'alpha'}, rec.pane, QUICK, text));
    expect(r.exitCode, r.stderr).toBe(0);
    const [host, job] = r.stdout.trim().split(':') as [string, string];
    expect(host).toBe('alpha');
    // Byte for byte, in the host's pane: the text and its Enter, then the notice and its Enter.
    const expected = `${text}\r[SYSTEM COMMAND] Command complete. Resume.\r`;
    const got = await rec.waitForLength(Buffer.byteLength(expected));
    expect(got.toString('utf8')).toBe(expected);
    await waitForStateOn(alpha, job, /^done$/);
    // The job lives on the host; nothing of it here.
    expect(() => readFileSync(join(world.localHome, 'jobs', job, 'state.json'))).toThrow();

    const jobs = await nudge(world, ['jobs']);
    expect(jobs.exitCode, jobs.stderr).toBe(0);
    expect(jobs.stdout).toMatch(/^HOST\s+JOB\s+STATE/m);
    expect(jobs.stdout).toMatch(new RegExp(`^alpha\\s+${job}\\s+done\\s+${rec.pane}`, 'm'));
    const status = await nudge(world, ['status', `alpha:${job}`, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({id: job, host: 'alpha', state: 'done'});
    const logs = await nudge(world, ['logs', job, '--host', 'alpha']);
    expect(logs.exitCode, logs.stderr).toBe(0);
    expect(logs.stdout).toContain(job);
    // One connection for all of it.
    expect(alpha.log().match(/Accepted publickey/g)).toHaveLength(1);
  }, 120_000);

  test('the job outlives its ssh connection and its caller: both killed while it waits, it finishes there and its notice arrives there', async () => {
    const {world, alpha, pane} = await alphaShell();
    // The caller waits in the foreground (--wait) over the connection.
    const caller = execa(
      process.execPath,
      [
        CLI,
        ...submitArgv(
          {host: 'alpha'},
          pane,
          {...QUICK, until: 'exit', wait: true},
          'sleep 4; echo built-it',
        ),
      ],
      {env: world.env, extendEnv: false, reject: false},
    );
    const job = await waitFor('the job on alpha', async () => {
      try {
        return readdirSync(join(alpha.state, 'jobs'))[0];
      } catch {
        return undefined;
      }
    });
    await waitForStateOn(alpha, job, /^waiting$/);
    // The connection and the caller go, as when the laptop's lid closes.
    process.kill(await masterPid(world, 'alpha'), 'SIGKILL');
    caller.kill('SIGKILL');
    await caller;
    const ended = await waitForStateOn(alpha, job, /^(done|failed|timeout|cancelled)$/, 60_000);
    expect(ended.state).toBe('done');
    expect(ended.exitCode).toBe(0);
    expect(ended.notified).toBe(true);
    const screen = await alpha.waitForScreen(pane, /Command complete\. Resume\./);
    expect(screen.match(/\[SYSTEM COMMAND\] Command complete\. Resume\./g)).toHaveLength(1);
    expect(screen).toContain('built-it');
    // And the next command sets up a new connection by itself.
    const status = await nudge(world, ['status', `alpha:${job}`, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({state: 'done', notified: true});
  }, 120_000);

  test('a notice from a build on alpha to a pane on beta (HOST:%N): relayed from here, typed there once, byte for byte, though the connections drop meanwhile', async () => {
    const world = await startSshHosts(['alpha', 'beta']);
    const [alpha, beta] = world.hosts as [SshHost, SshHost];
    const build = await alpha.newPane(['bash', '--norc', '--noprofile']);
    await alpha.waitForScreen(build, /^[$#] ?$/m);
    const agent = await startRecorder(beta);
    const r = await nudge(
      world,
      submitArgv(
        {host: 'alpha'},
        build,
        {
          ...QUICK,
          until: 'exit',
          notifyPane: `beta:${agent.pane}`,
          notice: 'build {status}: exit {exit}',
        },
        'sleep 3; echo trained',
      ),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const job = r.stdout.trim().split(':')[1] ?? '';
    await waitForStateOn(alpha, job, /^waiting$/);
    process.kill(await masterPid(world, 'alpha'), 'SIGKILL');
    const lines = await agent.lines(1, 90_000);
    expect(lines).toEqual(['build done: exit 0']);
    const ended = await stateOn(alpha, job);
    expect(ended).toMatchObject({state: 'done', noticeDue: {to: `beta:${agent.pane}`}});
    // alpha's own pane got no notice.
    expect(await alpha.capture(build)).not.toContain('build done');
    await waitFor('the relay to record its delivery', async () => {
      const s = await nudge(world, ['status', `alpha:${job}`, '--json']);
      const v = JSON.parse(s.stdout) as {relay?: {state: string}};
      return v.relay?.state === 'delivered' ? v : undefined;
    });
    // Nothing more arrives (the delivery is one job, even if it was sent twice).
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await agent.bytes()).toString()).toBe('build done: exit 0\r');
  }, 150_000);

  test('40 jobs on 20 panes across two hosts: one connection per host, never more sessions than configured, every line typed once', async () => {
    const sessions = 4;
    const world = await startSshHosts(['alpha', 'beta'], {sessions});
    const panes: {host: SshHost; rec: Awaited<ReturnType<typeof startRecorder>>}[] = [];
    for (const host of world.hosts)
      for (let i = 0; i < 10; i++) panes.push({host, rec: await startRecorder(host)});
    const submits = [];
    for (let n = 0; n < 40; n++) {
      const {host, rec} = panes[n % 20]!;
      submits.push(
        nudge(
          world,
          submitArgv(
            {host: host.name},
            rec.pane,
            {...QUICK, stableChecks: 1, notice: false},
            `job ${n}`,
          ),
          {},
          // Forty submits wait their turn for the hosts' few ssh sessions: on a loaded
          // 2-core machine the last ones take past runNudge's 60 s (CI, stop 52).
          200_000,
        ),
      );
    }
    const results = await Promise.all(submits);
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    for (let p = 0; p < 20; p++) {
      const {rec} = panes[p]!;
      const got = await rec.lines(2, 90_000);
      expect(got.sort()).toEqual([`job ${p}`, `job ${p + 20}`].sort());
    }
    for (const host of world.hosts) {
      expect(host.sessions().most).toBeLessThanOrEqual(sessions);
      expect(host.sessions().total).toBeGreaterThanOrEqual(20);
      expect(host.log().match(/Accepted publickey/g)).toHaveLength(1);
    }
  }, 240_000);

  test('bad hosts and bad remotes: one sentence each, the documented exit code', async () => {
    const world = await startSshHosts(['alpha']);
    const [alpha] = world.hosts as [SshHost];
    const pane = '%0';
    const dir = join(world.localHome, '..');
    // More aliases: a port nobody listens on, a key alpha does not know, alpha's port with no
    // known host key.
    await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'other')]);
    const base = readFileSync(world.sshConfig, 'utf8');
    const user = /User (\S+)/.exec(base)?.[1];
    writeFileSync(
      world.sshConfig,
      `${base}
Host down
  HostName 127.0.0.1
  Port 9
  User ${user}
Host wrongkey
  HostName 127.0.0.1
  Port ${alpha.port}
  User ${user}
  IdentityFile ${join(dir, 'other')}
  IdentitiesOnly yes
  UserKnownHostsFile ${join(dir, '..', 'known_hosts')}
Host stranger
  HostName 127.0.0.1
  Port ${alpha.port}
  User ${user}
  IdentityFile ${join(dir, '..', 'id')}
  UserKnownHostsFile ${join(dir, 'empty_known_hosts')}
  StrictHostKeyChecking yes
`,
    );
    writeFileSync(join(dir, 'empty_known_hosts'), '');
    const sub = (host: string, env: Record<string, string> = {}) =>
      nudge(world, ['submit', '--host', host, '--pane', pane, '--', 'x'], env);
    const said = async (
      p: Promise<{exitCode?: number; stderr: string}>,
      code: number,
      re: RegExp,
    ) => {
      const r = await p;
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(re);
      expect(r.exitCode, r.stderr).toBe(code);
    };
    await said(sub('-oProxyCommand=touch'), 2, /is not a destination ssh takes/);
    await said(
      nudge(world, ['submit', '--host', 'alpha', '--', 'x']),
      2,
      /With --host alpha, name the pane there/,
    );
    await said(sub('down'), 1, /^nudge: Cannot reach down: .*(refused|Connection)/);
    await said(sub('wrongkey'), 1, /^nudge: wrongkey refused the login .*BatchMode=yes/);
    await said(sub('stranger'), 1, /^nudge: stranger's host key is not known here, or has changed/);
    // What answers on alpha is not this nudge: none at all, another version, one without tmux.
    const config = (nudgeCommand: string) => {
      const file = join(dir, `config-${Math.random().toString(36).slice(2)}`, 'nudge');
      mkdirSync(file, {recursive: true});
      writeFileSync(
        join(file, 'config.toml'),
        `[remote]\nssh_config = ${JSON.stringify(world.sshConfig)}\n[remote.nudge]\nalpha = ${JSON.stringify(nudgeCommand)}\n`,
      );
      return {XDG_CONFIG_HOME: join(file, '..')};
    };
    await said(
      sub('alpha', config('/nonexistent/nudge')),
      1,
      /^nudge: alpha has no nudge a non-interactive ssh session can start .*nudge host install alpha/,
    );
    const old = join(dir, 'old-nudge');
    writeFileSync(
      old,
      `#!/bin/sh\nprintf '%s\\n' '{"hello":{"nudge":"0.0.1","protocol":1,"node":"20.0.0","platform":"linux"}}'\ncat >/dev/null\n`,
      {mode: 0o755},
    );
    await said(
      sub('alpha', config(old)),
      1,
      /^nudge: alpha runs nudge 0\.0\.1, this machine .*: run nudge host install alpha/,
    );
    await said(
      sub('alpha', config(`env PATH=/nonexistent ${process.execPath} ${CLI}`)),
      1,
      /^nudge: on alpha: .*tmux/i,
    );
    // An error nudge finds there keeps its exit code: no such pane is bad input.
    await said(
      nudge(world, ['submit', '--host', 'alpha', '--pane', '%99', '--', 'x']),
      2,
      /^nudge: on alpha: .*%99/,
    );
  }, 120_000);

  test('doctor --host: the way there, then the host’s own checks; jobs names a host that is down and lists the others', async () => {
    const world = await startSshHosts(['alpha', 'beta']);
    const [alpha, beta] = world.hosts as [SshHost, SshHost];
    const rec = await startRecorder(alpha);
    const doctor = await nudge(world, ['doctor', '--host', 'alpha', '--json']);
    const checks = (JSON.parse(doctor.stdout) as {checks: {name: string; status: string}[]}).checks;
    expect(checks[0]).toMatchObject({name: 'ssh', status: 'ok'});
    expect(checks[1]).toMatchObject({name: 'nudge', status: 'ok'});
    expect(checks.map((c) => c.name)).toContain('tmux');
    const r = await nudge(
      world,
      submitArgv({host: 'alpha'}, rec.pane, {...QUICK, notice: false}, 'one'),
    );
    expect(r.exitCode, r.stderr).toBe(0);
    await rec.lines(1);
    await world.closeConnections();
    await beta.stop();
    const jobs = await nudge(world, ['jobs']);
    expect(jobs.exitCode).toBe(1);
    expect(jobs.stderr).toMatch(/^nudge: no jobs from beta: Cannot reach beta/m);
    expect(jobs.stdout).toMatch(/^alpha\s+\S+\s+(done|waiting)/m);
    const down = await nudge(world, ['doctor', '--host', 'beta']);
    expect(down.exitCode).toBe(1);
    expect(down.stdout).toMatch(/^fail\s+ssh\s+Cannot reach beta/m);
    void alpha;
  }, 120_000);

  test('wait, expect, cancel, run and watch reach the host too', async () => {
    const {world, alpha, pane} = await alphaShell();
    await alpha.tmux('send-keys', '-t', pane, 'sleep 2; echo READY-THERE', 'Enter');
    const expected = await nudge(world, [
      'expect',
      '--host',
      'alpha',
      pane,
      'READY-THERE',
      '--include-existing',
      '--json',
    ]);
    expect(expected.exitCode, expected.stderr).toBe(0);
    expect(JSON.parse(expected.stdout)).toMatchObject({status: 'matched', match: 'READY-THERE'});
    const waited = await nudge(world, [
      'wait',
      '--host',
      'alpha',
      pane,
      '--timeout',
      '30s',
      '--json',
    ]);
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({status: 'idle'});
    // A job waiting on a long command, cancelled from here.
    const r = await nudge(
      world,
      submitArgv({host: 'alpha'}, pane, {...QUICK, until: 'exit'}, 'sleep 60'),
    );
    const job = r.stdout.trim();
    await waitForStateOn(alpha, job.split(':')[1] ?? '', /^waiting$/);
    // top and queue read that host's store.
    const top = await nudge(world, ['top', '--host', 'alpha', '--once']);
    expect(top.exitCode, top.stderr).toBe(0);
    // 80 columns into a pipe, as at 80×24: the PROFILE column may be left out.
    expect(top.stdout).toMatch(
      new RegExp(`${pane} +bash +(shell +)?waiting +${job.split(':')[1]} `),
    );
    const queue = await nudge(world, ['queue', '--host', 'alpha', '--json']);
    expect(queue.exitCode, queue.stderr).toBe(0);
    expect(JSON.parse(queue.stdout)[0]?.jobs[0]).toMatchObject({
      id: job.split(':')[1],
      atWork: true,
    });
    const cancelled = await nudge(world, ['cancel', job]);
    expect(cancelled.exitCode, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toBe(`Cancelled job ${job}.`);
    expect((await stateOn(alpha, job.split(':')[1] ?? '')).state).toBe('cancelled');
    // run: a task in a window of its own there, its report read from here.
    const run = await nudge(world, [
      'run',
      '--host',
      'alpha',
      '--session',
      'main',
      '--no-notice',
      '--wait',
      '--json',
      '--',
      'echo',
      'ran-there',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({host: 'alpha', state: 'done'});
    // watch: the host's watchers.
    const list = await nudge(world, ['watch', 'list', '--host', 'alpha', '--json']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  }, 150_000);

  test('the MCP tools take a host: submit and status through the real nudge mcp, once config.toml [submit] hosts names it', async () => {
    const world = await startSshHosts(['alpha']);
    const [alpha] = world.hosts as [SshHost];
    const rec = await startRecorder(alpha);
    const local = await startTmuxServer();
    const config = join(world.env.XDG_CONFIG_HOME ?? '', 'nudge', 'config.toml');
    // A pane's nudge reaches another host only where the person granted it.
    await expectRemoteRefused(world, local, rec, config);
    writeFileSync(config, `${readFileSync(config, 'utf8')}\n[submit]\nhosts = ["alpha"]\n`);
    const client = await spawnedMcp({...world.env, TMUX: `${local.socket},1,0`, TMUX_PANE: '%0'});
    const submitted = await callTool(client, 'submit', {
      host: 'alpha',
      pane: rec.pane,
      text: 'from mcp',
      delay: 0,
      no_notice: true,
    });
    expect(submitted.structuredContent, JSON.stringify(submitted.content)).toMatchObject({
      host: 'alpha',
      kind: 'queued',
    });
    expect(await rec.lines(2)).toEqual(['by the person', 'from mcp']);
    const job = String(submitted.structuredContent?.job ?? '');
    const status = await callTool(client, 'status', {job: `alpha:${job}`});
    expect(status.structuredContent).toMatchObject({host: 'alpha', id: job});
    // Nothing of it was typed into the caller's own pane.
    expect(await local.capture('%0')).not.toContain('from mcp');
  }, 120_000);
});

/**
 * From a pane (the real `nudge mcp` and CLI, `$TMUX` set) with no `[submit] hosts`: the remote
 * side applies the caller's bound: submit refused there (exit 2, nothing typed), its jobs not
 * listed, a job of the host not cancelled.
 */
async function expectRemoteRefused(
  world: Awaited<ReturnType<typeof startSshHosts>>,
  local: Awaited<ReturnType<typeof startTmuxServer>>,
  rec: Awaited<ReturnType<typeof startRecorder>>,
  config: string,
) {
  const inPane = {...world.env, TMUX: `${local.socket},1,0`, TMUX_PANE: '%0'};
  const [alpha] = world.hosts as [SshHost];
  // Refused here, before ssh starts: nothing of the request leaves (the far side's own check
  // is test/integration/remote-bound.test.ts's).
  const refusal = `--host alpha is out of reach: the pane that asked (${hostname()}:%0) is on another host, whose config.toml [submit] hosts does not name alpha.`;
  const cli = await runNudge(
    ['submit', '--host', 'alpha', '--pane', rec.pane, '--no-notice', '--', 'not typed'],
    inPane,
  );
  expect(cli.exitCode).toBe(2);
  expect(cli.stderr.trim()).toBe(`nudge: ${refusal}`);
  expect(alpha.sessions().total).toBe(0);
  // A job here whose notice would be relayed there: refused before anything runs.
  const relayed = await runNudge(
    [
      'submit',
      ...flagWords({pane: '%0', socketPath: local.socket, notifyPane: `alpha:${rec.pane}`}),
      '--',
      'x',
    ],
    inPane,
  );
  expect(relayed.exitCode).toBe(2);
  expect(relayed.stderr.trim()).toBe(
    `nudge: --notify-pane alpha:${rec.pane} is out of reach: the pane that asked (${hostname()}:%0) is on another host, whose config.toml [submit] hosts does not name alpha.`,
  );
  // The person, outside tmux, submits there; the pane's nudge sees none of it.
  const submit = 'submit --host alpha --delay 0 --no-notice --pane'.split(' ');
  const person = await runNudge([...submit, rec.pane, '--', 'by the person'], world.env);
  expect(person.exitCode, person.stderr).toBe(0);
  expect(await rec.lines(1)).toEqual(['by the person']);
  const job = person.stdout.trim().split(/\s+/)[0] ?? '';
  const listed = await runNudge(['jobs', '--host', 'alpha', '--json'], inPane);
  expect(listed.exitCode, listed.stderr).toBe(2);
  expect(listed.stderr.trim()).toBe(`nudge: ${refusal}`);
  // The id the person was given names its host (`alpha:…`).
  expect(job).toMatch(/^alpha:/);
  const cancel = await runNudge(['cancel', job], inPane);
  expect(cancel.exitCode).toBe(2);
  expect(cancel.stderr.trim()).toBe(`nudge: ${refusal}`);
  expect(readFileSync(config, 'utf8')).not.toContain('[submit]');
  expect(await rec.lines(1)).toEqual(['by the person']);
}
