// doctor and explain tell the truth (issue 29): a state directory on a full or read-only disk
// fails doctor with the reason (a probe written and synced, as a job writes), a server named
// with -L that does not exist fails it, and explain says when a pane is dead, in a mode,
// synchronized or has input off — and what submit would do about each.
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

type Check = {name: string; status: string; detail: string; fix?: string};

async function doctor(env: Record<string, string>, args: string[] = []) {
  const r = await runNudge(['doctor', '--json', ...args], env);
  const checks = (JSON.parse(r.stdout) as {checks: Check[]}).checks;
  return {exitCode: r.exitCode, by: Object.fromEntries(checks.map((c) => [c.name, c]))};
}

/** A tmpfs of `size` mounted on a new folder (root only); undefined where it cannot be. */
function tmpfs(options: string): string | undefined {
  const dir = useTempDir('nudge-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], {stdio: 'ignore'});
  } catch {
    return undefined;
  }
  onTestFinished(() => {
    execFileSync('umount', [dir], {stdio: 'ignore'});
  });
  return dir;
}

const canMount = process.getuid?.() === 0;

/** A submit with NUDGE_HOME at `home` is refused before anything runs, saying `why`. */
async function expectSubmitRefused(home: string, why: string): Promise<void> {
  const server = await startTmuxServer();
  const submit = await runNudge(['submit', '-S', server.socket, '--pane', '%0', '--', 'x'], {
    NUDGE_HOME: home,
  });
  expect(submit.exitCode).toBe(1);
  expect(submit.stderr.trim()).toBe(
    `nudge: Cannot use the state directory ${home}: ${why}; make it writable or set NUDGE_HOME to a writable directory.`,
  );
}

describe('nudge doctor, the state directory', () => {
  test('not made yet: ok where it can be made, fail where a file is in the way', async () => {
    const dir = useTempDir('nudge-state-');
    const fresh = join(dir, 'a', 'b');
    expect((await doctor({NUDGE_HOME: fresh})).by['state-dir']).toMatchObject({
      status: 'ok',
      detail: `${fresh} does not exist yet; nudge creates it (700) on first use.`,
    });
    writeFileSync(join(dir, 'file'), 'x');
    const blocked = join(dir, 'file', 'state');
    expect((await doctor({NUDGE_HOME: blocked})).by['state-dir']).toMatchObject({
      status: 'fail',
      detail: `${blocked} cannot be made: ${join(dir, 'file')} is not a directory.`,
    });
    await expectSubmitRefused(blocked, 'a file is in the way on its path');
  });

  test.skipIf(!canMount)(
    'on a read-only file system: fail, naming it read-only (needs root to mount one)',
    async () => {
      const dir = tmpfs('size=64k,ro,mode=700');
      if (!dir) return expect.fail('mount -t tmpfs failed although running as root');
      const r = await doctor({NUDGE_HOME: dir});
      expect(r.exitCode).toBe(1);
      const readOnly = (detail: string) => ({
        name: 'state-dir',
        status: 'fail',
        detail,
        fix: 'Remount its file system read-write, or set NUDGE_HOME to a directory on a writable one.',
      });
      expect(r.by['state-dir']).toEqual(
        readOnly(`${dir} cannot be written: the file system is read-only.`),
      );
      // Not made yet, on the same read-only file system: not "ok, made on first use".
      const later = join(dir, 'state', 'nudge');
      expect((await doctor({NUDGE_HOME: later})).by['state-dir']).toEqual(
        readOnly(
          `${later} does not exist yet and cannot be made in ${dir}: the file system is read-only.`,
        ),
      );
      await expectSubmitRefused(dir, 'the file system is read-only');
    },
  );

  test.skipIf(!canMount)(
    'on a full disk: fail, naming it full (an empty probe would fit; a job would not)',
    async () => {
      const dir = tmpfs('size=32k,mode=700');
      if (!dir) return expect.fail('mount -t tmpfs failed although running as root');
      const home = join(dir, 'state');
      mkdirSync(home, {mode: 0o700});
      try {
        writeFileSync(join(dir, 'fill'), Buffer.alloc(64 * 1024));
      } catch {
        // full now
      }
      const r = await doctor({NUDGE_HOME: home});
      expect(r.exitCode).toBe(1);
      expect(r.by['state-dir']).toMatchObject({
        status: 'fail',
        detail: `${home} cannot be written: the disk is full.`,
        fix: 'Free some space on its disk, or set NUDGE_HOME to a directory on another one.',
      });
    },
  );

  test('a server named with -L that does not exist: fail, exit 1', async () => {
    const r = await doctor({NUDGE_HOME: useNudgeHome()}, ['-L', `nudge-none-${process.pid}`]);
    expect(r.exitCode).toBe(1);
    expect(r.by.server?.status).toBe('fail');
  });
});

describe('nudge explain, the pane as tmux has it', () => {
  const explain = async (socket: string, pane: string) => {
    const r = await runNudge(['explain', '-S', socket, pane, '--json'], {
      NUDGE_HOME: useNudgeHome(),
    });
    expect(r.exitCode, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as {
      command: string;
      verdict: {idle: boolean; why: string};
      conditions: Array<{state: string; submit: string}>;
    };
  };

  test('a dead pane: dead, not idle, and submit fails at once', async () => {
    const server = await startTmuxServer();
    await server.tmux('set-option', '-gw', 'remain-on-exit', 'on');
    const pane = await server.newPane(['sh', '-c', 'exit 0']);
    await waitFor('the pane to be dead', async () =>
      (await server.tmux('display-message', '-p', '-t', pane, '#{pane_dead}')).trim() === '1'
        ? true
        : undefined,
    );
    const r = await explain(server.socket, pane);
    expect(r.verdict).toEqual({idle: false, why: 'dead: its program exited'});
    expect(r.command).toMatch(/^\(dead; it ran /);
    expect(r.conditions).toEqual([
      {
        state: 'dead: its program exited (the pane is kept by remain-on-exit)',
        submit: 'fails at once; nothing is typed',
      },
    ]);
  });

  test('a pane in copy mode, a synchronized pane, a pane with input off', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.tmux('copy-mode', '-t', pane);
    expect((await explain(server.socket, pane)).conditions[0]?.state).toMatch(/^in copy-mode/);
    await server.tmux('send-keys', '-t', pane, '-X', 'cancel');
    await server.tmux('set-option', '-w', '-t', pane, 'synchronize-panes', 'on');
    expect((await explain(server.socket, pane)).conditions).toEqual([
      {
        state: 'synchronize-panes is on: keys reach every pane of its window',
        submit: 'refuses it (exit 1); turn synchronize-panes off',
      },
    ]);
    await server.tmux('set-option', '-w', '-t', pane, 'synchronize-panes', 'off');
    await server.tmux('select-pane', '-d', '-t', pane);
    expect((await explain(server.socket, pane)).conditions).toEqual([
      {
        state: 'input is off (select-pane -d)',
        submit: `refuses it (exit 1); run "tmux select-pane -e -t ${pane}"`,
      },
    ]);
  });
});
