// nudge through a ps that prints what macOS's does (test/fixtures/macos-ps: no wait channels,
// `comm` as a path), on the real CLI and the real worker: doctor says what cannot be told, a
// wait says unknown rather than timing out, and no ps nudge starts is given the typed text.
import {describe, expect, it} from 'vitest';
import {expectJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

describe('a process view without wait channels (as on macOS)', () => {
  it('doctor says ps shows none, and what nudge cannot tell there', async () => {
    const server = await startTmuxServer();
    const mac = processViewEnv('mac', server.dir);
    const r = await runNudge(['doctor', '-S', server.socket], {
      NUDGE_HOME: useNudgeHome(),
      COLUMNS: '200',
      ...mac.env,
    });
    expect(r.stdout).toMatch(
      /^warn {2}wait channels +ps shows no wait channel for any process here/m,
    );
    expect(r.stdout).toMatch(/Any other quiet program is unknown: nudge wait exits 1 saying so/);
    // Through a ps that shows them (procps, not a Mac's own): no such line.
    if (process.platform === 'darwin') return;
    const linux = processViewEnv('ps', server.dir);
    const r2 = await runNudge(['doctor', '-S', server.socket], {
      NUDGE_HOME: useNudgeHome(),
      ...linux.env,
    });
    expect(r2.stdout).not.toMatch(/wait channels/);
  });

  it('a job through it: no ps it starts is given the typed text or anything else of the caller', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const mac = processViewEnv('mac', server.dir);
    const home = useNudgeHome();
    const secret = 'echo TYPED-SECRET-4711';
    const r = await runNudge(
      submitArgs(
        server.socket,
        '%0',
        {until: 'stable', interval: '250ms', notice: '# seen'},
        secret,
      ),
      {NUDGE_HOME: home, NUDGE_CALLER_TOKEN: 'caller-token-0815', ...mac.env},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    await expectJobEnd(home, r.stdout.trim(), 'done');
    const environments = mac.psEnvironments();
    // The job's looks asked ps (its foreground, its liveness)…
    expect(environments.length).toBeGreaterThan(0);
    for (const env of environments) {
      // …each time with what ps needs and nothing of the caller's.
      expect(env).not.toContain('TYPED-SECRET');
      expect(env).not.toContain('caller-token-0815');
      expect(env).toMatch(/^LC_ALL=C$/m);
      const names = env
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('=')[0]);
      // PATH and LC_ALL, and what sh itself sets (PWD, SHLVL, _).
      expect(
        names.filter((n) => !['PATH', 'LC_ALL', 'PWD', 'SHLVL', '_', 'OLDPWD'].includes(n ?? '')),
        env,
      ).toEqual([]);
    }
  });
});
