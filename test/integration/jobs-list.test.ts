// `nudge jobs` as a person reads it, through the real CLI and worker on two private tmux
// servers: a SERVER column when the jobs are of more than one (their %0 look alike), and the
// filters -S, --state, --pane and --since; a state it does not know is one sentence, exit 2.
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, submitUntilExit} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

describe('nudge jobs', () => {
  it('two servers: a SERVER column; -S, --state, --pane and --since choose the rows', async () => {
    const home = useNudgeHome();
    const env = {NUDGE_HOME: home};
    const one = await startTmuxServer();
    const two = await startTmuxServer();
    await one.waitForScreen('%0', /^\$$/m);
    await two.waitForScreen('%0', /^\$$/m);
    const done = await submitUntilExit(one.socket, '%0', 'true', env);
    const failed = await submitUntilExit(two.socket, '%0', 'false', env);
    expect((await waitForJobEnd(home, done.id, 60_000)).state).toBe('done');
    // `false` exits 1: --until exit ends the job failed.
    expect((await waitForJobEnd(home, failed.id, 60_000)).state).toBe('failed');

    const listed = async (args: string[]) => {
      const r = await runNudge(['jobs', ...args], env);
      expect(r.exitCode, r.stderr).toBe(0);
      return r.stdout.split('\n');
    };
    const all = await listed([]);
    expect(all[0]).toMatch(/^SERVER +JOB +STATE +PANE +AGE +TEXT$/);
    expect(all.find((l) => l.includes(done.id))).toMatch(
      new RegExp(`^${one.socket} +${done.id} +done +%0 `),
    );
    expect(all.find((l) => l.includes(failed.id))).toMatch(
      new RegExp(`^${two.socket} +${failed.id} +failed +%0 `),
    );
    const ids = async (args: string[]) =>
      (JSON.parse((await runNudge(['jobs', '--json', ...args], env)).stdout) as {id: string}[]).map(
        (j) => j.id,
      );
    expect(await ids(['-S', one.socket])).toEqual([done.id]);
    // One server's jobs: no SERVER column.
    expect((await listed(['-S', two.socket]))[0]).toMatch(/^JOB +STATE/);
    expect(await ids(['--state', 'failed'])).toEqual([failed.id]);
    expect((await ids(['--state', 'done,failed'])).sort()).toEqual([done.id, failed.id].sort());
    expect(await ids(['--pane', '%9'])).toEqual([]);
    expect((await ids(['--pane', '%0', '--since', '1h'])).sort()).toEqual(
      [done.id, failed.id].sort(),
    );
    expect(await ids(['--since', '0s'])).toEqual([]);

    const bad = await runNudge(['jobs', '--state', 'finished'], env);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /^nudge: --state takes queued, .*, lost \(got "finished"\); see nudge jobs --help\.$/,
    );
  }, 120_000);

  it('jobs prune removes ended jobs older than the cut (--older-than, else [jobs] keep, else 30d), never a live one', async () => {
    const home = useNudgeHome();
    const config = useTempDir('nudge-config-');
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: config};
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$$/m);
    const old = await submitUntilExit(server.socket, '%0', 'true', env);
    await waitForJobEnd(home, old.id, 60_000);
    const young = await submitUntilExit(server.socket, '%0', 'true', env);
    await waitForJobEnd(home, young.id, 60_000);
    const live = await submitUntilExit(server.socket, '%0', 'sleep 300', env);
    await waitForJobState(home, live.id, ['waiting'], 60_000);
    // The first ended forty days ago, as its record says.
    const file = join(home, 'jobs', old.id, 'state.json');
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.finishedAt = new Date(Date.now() - 40 * 86_400_000).toISOString();
    writeFileSync(file, JSON.stringify(record));

    const dry = await runNudge(['jobs', 'prune', '--dry-run'], env);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      `Would remove 1 ended job older than 30d; kept 1 younger and 1 not ended.\n  ${old.id}`,
    );
    expect(existsSync(join(home, 'jobs', old.id))).toBe(true);
    const pruned = await runNudge(['jobs', 'prune', '--json'], env);
    expect(JSON.parse(pruned.stdout)).toMatchObject({removed: [old.id], kept: 1, live: 1});
    expect(existsSync(join(home, 'jobs', old.id))).toBe(false);
    // config.toml's [jobs] keep is the default cut; a live job stays whatever the cut.
    mkdirSync(join(config, 'nudge'));
    writeFileSync(join(config, 'nudge', 'config.toml'), '[jobs]\nkeep = "0s"\n');
    const all = await runNudge(['jobs', 'prune', '--json'], env);
    expect(JSON.parse(all.stdout)).toMatchObject({removed: [young.id], kept: 0, live: 1});
    expect(existsSync(join(home, 'jobs', live.id))).toBe(true);
    writeFileSync(join(config, 'nudge', 'config.toml'), '[jobs]\nkeep = 30\n');
    const bad = await runNudge(['jobs', 'prune'], env);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toMatch(
      /config\.toml: jobs\.keep must be a duration such as "30d"\.$/,
    );
  }, 120_000);
});
