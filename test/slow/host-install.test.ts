/**
 * docs/remote.md's set-up, as a new user follows it, against a real OpenSSH server on
 * loopback whose host has no nudge yet: `nudge host install alpha` packs this nudge, sends it
 * over ssh and installs it there with the host's own npm (into the host's ~/.local); then
 * `nudge doctor --host alpha` passes the way there, `nudge submit --host alpha` types into a
 * pane there, and `nudge jobs` lists alpha (added to config.toml) with its job.
 */
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {startRecorder} from '../helpers/recorder-pane.js';
import {flagWords, runNudge, unwrapped} from '../helpers/run-nudge.js';
import {type SshHost, startSshHosts} from '../helpers/ssh-hosts.js';

describe('nudge host install', () => {
  test('installs this version on a host without nudge; the host then answers as this version', async () => {
    // config: only the ssh config; install adds the host to [remote] hosts.
    const world = await startSshHosts(['alpha'], {nudge: false, config: ''});
    const [alpha] = world.hosts as [SshHost];
    const file = join(world.localConfig, 'nudge', 'config.toml');
    const {writeFileSync} = await import('node:fs');
    writeFileSync(
      file,
      `# my settings\n[remote]\nssh_config = ${JSON.stringify(world.sshConfig)}\n`,
    );
    const env = {...world.env, npm_config_update_notifier: 'false'};

    const before = await runNudge(['doctor', '--host', 'alpha'], env);
    expect(before.exitCode).toBe(1);
    expect(unwrapped(before.stdout)).toMatch(
      /^fail\s+nudge\s+alpha has no nudge .*nudge host install alpha/m,
    );

    const installed = await runNudge(['host', 'install', 'alpha'], env, 600_000);
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(installed.stdout).toMatch(/^nudge \S+ is on alpha: ~\/\.local\/bin\/nudge\./m);
    expect(existsSync(join(alpha.home, '.local', 'bin', 'nudge'))).toBe(true);
    // The user's file keeps its comment; alpha joined its hosts.
    const config = readFileSync(file, 'utf8');
    expect(config).toContain('# my settings');
    expect(config).toMatch(/hosts = \[\s*"alpha"\s*\]/);

    const doctor = await runNudge(['doctor', '--host', 'alpha', '--json'], env);
    const checks = (JSON.parse(doctor.stdout) as {checks: {name: string; status: string}[]}).checks;
    expect(checks.slice(0, 2)).toMatchObject([
      {name: 'ssh', status: 'ok'},
      {name: 'nudge', status: 'ok'},
    ]);

    const rec = await startRecorder(alpha);
    const submitted = await runNudge(
      [
        'submit',
        ...flagWords({host: 'alpha', pane: rec.pane, delay: 0, notice: false}),
        '--',
        'installed',
      ],
      env,
    );
    expect(submitted.exitCode, submitted.stderr).toBe(0);
    expect(await rec.lines(1)).toEqual(['installed']);
    const jobs = await runNudge(['jobs'], env);
    expect(jobs.stdout).toMatch(/^alpha\s+\S+\s+\S+\s+%\d+/m);
  }, 900_000);
});
