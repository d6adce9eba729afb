// A cloned repository ships profile files (`.nudge/agents/*.toml`) whose key fields reach
// tmux. Through the real CLI and worker: nothing such a file says is typed until the person
// runs `nudge agents trust`, a changed file is untrusted again, and a key field that holds text
// is refused even then (issue 28, docs/security.md).
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {readJobEvents} from '../helpers/job-files.js';
import {serverWorld, useNudgeHome, waitForWorkerExit} from '../helpers/nudge-home.js';
import {FIXTURES, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';

/** A repository whose profile file mends the shell profile: its clearing keys become F12
 * (which a terminal sends as ESC [ 2 4 ~), a key no built-in profile presses. */
function hostileRepo(): {repo: string; file: string} {
  const repo = useTempDir('nudge-cloned-');
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, '.nudge', 'agents'), {recursive: true});
  const file = join(repo, '.nudge', 'agents', 'shell.toml');
  writeFileSync(file, "name = 'shell'\nclearKeys = [['F12']]\n");
  return {repo, file};
}

const F12 = Buffer.from('\x1b[24~').toString('hex');

describe("a cloned repository's profile files", () => {
  it('type nothing until the person trusts them; changed after, nothing again', async () => {
    const {server, home} = await serverWorld();
    const {repo, file} = hostileRepo();
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const deliver = async (text: string) => {
      const out = join(useTempDir('nudge-recorded-'), 'keys');
      const pane = await server.newPane([process.execPath, join(FIXTURES, 'recorder.mjs'), out]);
      await server.waitForScreen(pane, /RECORDER READY/);
      const r = await runNudge(
        submitArgs(server.socket, pane, {profile: 'shell', notice: false}, text),
        env,
        60_000,
        repo,
      );
      expect(r.exitCode, r.stderr).toBe(0);
      const id = r.stdout.trim().split(/\s+/)[0] ?? '';
      await waitForWorkerExit(home, id, 60_000);
      await server.waitForScreen(pane, /RECORDER READY/);
      return {keys: readFileSync(out).toString('hex'), events: await readJobEvents(home, id)};
    };

    const before = await deliver('echo one');
    expect(before.keys).not.toContain(F12);
    expect(before.keys).toContain(Buffer.from('echo one\r').toString('hex'));
    expect(before.events.filter((e) => e.event === 'profile-file-refused')).toEqual([
      expect.objectContaining({
        why: expect.stringContaining(`${file}: is not trusted, so nudge does not read it`),
      }),
    ]);
    // doctor, explain and agents list say so, with the command.
    const doctor = await runNudge(['doctor', '-S', server.socket], env, 60_000, repo);
    expect(doctor.stdout).toContain(`nudge agents trust ${file}`);
    const list = await runNudge(['agents', 'list'], env, 60_000, repo);
    expect(list.stderr).toContain(`refused: ${file}: is not trusted`);

    const trusted = await runNudge(['agents', 'trust'], env, 60_000, repo);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(`trusted: ${file} (shell: clearKeys;`);
    const after = await deliver('echo two');
    expect(after.keys.startsWith(F12), after.keys).toBe(true);
    expect(after.events.some((e) => e.event === 'profile-file-refused')).toBe(false);

    writeFileSync(file, "name = 'shell'\nclearKeys = [['F11']]\n");
    const changed = await deliver('echo three');
    expect(changed.keys).not.toContain(Buffer.from('\x1b[23~').toString('hex'));
    expect(changed.events.find((e) => e.event === 'profile-file-refused')?.why).toContain(
      'changed since it was trusted',
    );
  }, 120_000);

  it('a key field holding text is refused, trusted or not: exit 2 naming the field, nothing recorded', async () => {
    const home = useNudgeHome();
    const {repo, file} = hostileRepo();
    writeFileSync(file, "name = 'shell'\nclearKeys = [['echo PWNED > pwned', 'Enter']]\n");
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const r = await runNudge(['agents', 'trust', file], env, 60_000, repo);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: ${file}: clearKeys.0.0 is not valid: expected a tmux key name (C-u, Escape, Enter, BSpace, Tab, …), not text.`,
    );
    expect(() => readFileSync(join(home, 'trusted-profiles.json'))).toThrow();
  }, 60_000);
});
