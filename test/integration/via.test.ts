// --via: how a notice goes (src/doors/). Through the real CLI and worker, on a shell pane
// (its profile has no door): `native` is refused at submit, saying why; `[submit] via` in
// config.toml is the default; a wrong value is one sentence, exit 2.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {jobIds, useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

/** A job of `echo built` in a fresh shell pane, run in the foreground: its outcome (JSON),
 * the pane's screen, and all of it for a failure's message. */
async function shellJob(extra: string[], env: Record<string, string> = {}) {
  const server = await startTmuxServer();
  await server.waitForScreen('%0', /^\$$/m);
  const args = submitArgs(server.socket, '%0', ['--until', 'exit', '--wait', '--json', ...extra]);
  const r = await runNudge([...args, '--', 'echo built'], {NUDGE_HOME: useNudgeHome(), ...env});
  const screen = await server.capture('%0');
  return {r, screen, seen: `exit ${r.exitCode}\n${r.stdout}\n${r.stderr}\n${screen}`};
}

describe('--via', () => {
  it('native on a program without a door: refused at submit, one sentence, nothing typed or recorded', async () => {
    const home = useNudgeHome();
    const {r, screen, seen} = await shellJob(['--via', 'native'], {NUDGE_HOME: home});
    expect(r.exitCode, seen).toBe(1);
    expect(r.stderr.trim(), seen).toMatch(
      /^nudge: Pane %0 runs shell, which has no door of its own to take a message mid-turn \(.* have one: docs\/agents\.md\); --via native sends the notice through a door only, so nothing was queued\.$/,
    );
    expect(screen).not.toContain('echo built');
    expect(jobIds(home)).toEqual([]);
  });

  it('auto (the default) types where there is no door, and the job says so', async () => {
    const {r, seen} = await shellJob([]);
    expect(r.exitCode, seen).toBe(0);
    expect(JSON.parse(r.stdout), seen).toMatchObject({
      state: 'done',
      notified: true,
      // Typed, as a comment: the pane is a shell at its prompt (issue 41).
      noticeVia: 'comment',
    });
  });

  it("config.toml's [submit] via is the default; a flag overrides it", async () => {
    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge'));
    writeFileSync(join(config, 'nudge', 'config.toml'), '[submit]\nvia = "native"\n');
    const fromConfig = await shellJob([], {XDG_CONFIG_HOME: config});
    expect(fromConfig.r.exitCode, fromConfig.seen).toBe(1);
    expect(fromConfig.r.stderr, fromConfig.seen).toContain('--via native sends the notice');
    const flag = await shellJob(['--via', 'keys'], {XDG_CONFIG_HOME: config});
    expect(JSON.parse(flag.r.stdout), flag.seen).toMatchObject({
      state: 'done',
      noticeVia: 'comment',
    });
    writeFileSync(join(config, 'nudge', 'config.toml'), '[submit]\nvia = "sideways"\n');
    const bad = await shellJob([], {XDG_CONFIG_HOME: config});
    expect(bad.r.exitCode).toBe(2);
    expect(bad.r.stderr.trim()).toMatch(
      /config\.toml: submit\.via must be auto, keys or native, got "sideways"\.$/,
    );
  });

  it('a value it does not know: one sentence, exit 2, nothing started', async () => {
    const {r} = await shellJob(['--via', 'sideways']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/via/);
    expect(r.stderr).not.toMatch(/\bat \S+:\d+/);
  });
});
