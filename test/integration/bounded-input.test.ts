// Input that could eat the machine (issue 42), through the real CLI: `--text-file` takes a
// regular file only and never reads past the text limit (standard input too: `yes | nudge
// submit --text-file -` ends at once), a FIFO in a repository's `.nudge/agents/` hangs no
// command, and a profile's "key names" are keys: `S-e` (which tmux types as the letter) is
// refused, and `agents trust` prints every key a file would send.
import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {jobIds, serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {CLI, flagWords, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';

/** A repository whose `.nudge/agents/` holds `name` (written by `make`). */
function repoWith(name: string, make: (path: string) => void): {repo: string; file: string} {
  const repo = useTempDir('nudge-cloned-');
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, '.nudge', 'agents'), {recursive: true});
  const file = join(repo, '.nudge', 'agents', name);
  make(file);
  return {repo, file};
}

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

/** A private server with a pane of cat, a state folder, and `nudge submit --text-file -` into
 * the pane with `stdin` as its standard input. */
async function catPane() {
  const {server, home} = await serverWorld();
  const pane = await server.newPane(['cat']);
  const submitStdin = (stdin: 'pipe' | NodeJS.ReadableStream, timeout?: number) =>
    execa(
      process.execPath,
      [CLI, ...submitArgs(server.socket, pane, flagWords({notice: false, textFile: '-'}))],
      {
        env: cleanEnv({NUDGE_HOME: home}),
        extendEnv: false,
        reject: false,
        stdin,
        ...(timeout ? {timeout} : {}),
      },
    );
  return {home, submitStdin};
}

describe('--text-file takes a regular file, never more than the text limit', () => {
  test('/dev/zero, a FIFO, a folder and a file over 64 KiB: exit 2, one sentence, nothing queued', async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane(['cat']);
    const dir = useTempDir('nudge-text-');
    const fifo = join(dir, 'fifo');
    mkfifo(fifo);
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(64 * 1024 + 1));
    const cases: Array<[string, string]> = [
      ['/dev/zero', 'nudge: --text-file /dev/zero is a character device, not a regular file.'],
      [fifo, `nudge: --text-file ${fifo} is a FIFO, not a regular file.`],
      [dir, `nudge: --text-file ${dir} is a folder, not a regular file.`],
      [
        big,
        `nudge: --text-file ${big} holds more than the 65536-byte text limit; put it in a file and type a command that reads it.`,
      ],
    ];
    for (const [file, sentence] of cases) {
      const r = await runNudge(
        submitArgs(server.socket, pane, flagWords({notice: false, textFile: file})),
        {NUDGE_HOME: home},
        20_000,
      );
      expect(r.exitCode, `${file}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim()).toBe(sentence);
    }
    expect(jobIds(home)).toEqual([]);
  }, 120_000);

  test('standard input that never ends (yes |): reading stops one byte past the limit, exit 2', async () => {
    const {home, submitStdin} = await catPane();
    const yes = execa('yes', {reject: false, buffer: false});
    const r = await submitStdin(yes.stdout ?? 'ignore', 30_000);
    yes.kill();
    expect(r.timedOut, 'submit --text-file - read yes for 30 s').toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      'nudge: --text-file - (standard input) holds more than the 65536-byte text limit; put it in a file and type a command that reads it.',
    );
    expect(jobIds(home)).toEqual([]);
  }, 60_000);

  test('standard input held open with nothing on it: SIGTERM ends the read, nothing queued', async () => {
    const {home, submitStdin} = await catPane();
    const child = submitStdin('pipe');
    child.stdin?.write('half a text');
    // The process reads: give it time to start (if SIGTERM came first it ends anyway).
    await new Promise((r) => setTimeout(r, 2_000));
    child.kill('SIGTERM');
    const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const r = await child;
    clearTimeout(deadline);
    expect(r.signal === 'SIGKILL' ? 'ignored SIGTERM' : 'ended').toBe('ended');
    expect(r.exitCode === 0).toBe(false);
    expect(jobIds(home)).toEqual([]);
  }, 60_000);
});

describe("a FIFO in a repository's .nudge/agents/ hangs nothing", () => {
  test('agents list, explain and doctor end, naming the file as refused', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(['cat']);
    const {repo, file} = repoWith('evil.toml', mkfifo);
    const env = {NUDGE_HOME: useNudgeHome(), XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const list = await runNudge(['agents', 'list'], env, 20_000, repo);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stderr).toContain(`refused: ${file}: is a FIFO, not a regular file.`);
    for (const args of [
      ['doctor', '-S', server.socket],
      ['explain', '-S', server.socket, '--pane', pane],
    ]) {
      const r = await runNudge(args, env, 20_000, repo);
      expect(r.exitCode === undefined ? `${args[0]} hung` : 'ended').toBe('ended');
    }
  }, 120_000);
});

describe('keys are keys', () => {
  test('a file of "key names" S-e S-c S-h S-o (typed by tmux as echo) fails agents check, exit 2', async () => {
    const {repo, file} = repoWith('shell.toml', (path) =>
      writeFileSync(path, "name = 'shell'\nclearKeys = [['S-e', 'S-c', 'S-h', 'S-o']]\n"),
    );
    const env = {NUDGE_HOME: useNudgeHome(), XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const r = await runNudge(['agents', 'check', file], env, 20_000, repo);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: ${file}: clearKeys.0.0 is not valid: expected a tmux key name (C-u, Escape, Enter, BSpace, Tab, …), not text.`,
    );
  }, 60_000);

  test('agents trust prints every key the file would send, and records the digest of what it checked', async () => {
    const {repo, file} = repoWith('shell.toml', (path) =>
      writeFileSync(path, "name = 'shell'\nclearKeys = [['Escape'], ['C-a', 'C-k']]\n"),
    );
    const env = {NUDGE_HOME: useNudgeHome(), XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const r = await runNudge(['agents', 'trust', file], env, 20_000, repo);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('\n  keys it sends: Escape C-a C-k\n');
    const json = await runNudge(['agents', 'check', file, '--json'], env, 20_000, repo);
    expect(JSON.parse(json.stdout)).toMatchObject({keys: ['Escape', 'C-a', 'C-k']});
  }, 60_000);
});

describe('every wait honours SIGTERM', () => {
  test('wait, expect, logs --follow and a submit --wait queued behind a running job each end on SIGTERM', async () => {
    const {server, home} = await serverWorld();
    const env = cleanEnv({NUDGE_HOME: home});
    // A pane that never settles (a clock), and a shell whose command runs for an hour.
    const busy = await server.newPane(['sh', '-c', 'while :; do date +%s%N; sleep 0.2; done']);
    const shell = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(shell, /\$\s*$/m);
    const started = await runNudge(
      [
        ...submitArgs(server.socket, shell, [
          ...flagWords({notice: false, until: 'exit'}),
          '--',
          'sleep 3600',
        ]),
      ],
      {NUDGE_HOME: home},
    );
    expect(started.exitCode, started.stderr).toBe(0);
    const job = started.stdout.trim().split(/\s+/)[0] ?? '';
    const S = ['-S', server.socket];
    const waits: string[][] = [
      ['wait', ...S, '--pane', busy, '--timeout', '1h'],
      ['expect', ...S, '--timeout', '60m', busy, 'never shown'],
      ['logs', '--follow', job],
      // Queued behind the hour-long job: it waits for the pane's lock.
      submitArgs(server.socket, shell, {wait: true, notice: false}, 'echo queued'),
    ];
    for (const args of waits) {
      const child = execa(process.execPath, [CLI, ...args], {env, extendEnv: false, reject: false});
      // SIGTERM at any moment ends it: before its wait began or in it.
      await new Promise((r) => setTimeout(r, 1_500));
      // Still waiting (not ended on a usage error), then told to stop.
      expect(child.exitCode, `${args.join(' ')} ended by itself`).toBeNull();
      child.kill('SIGTERM');
      const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const r = await child;
      clearTimeout(deadline);
      expect(r.signal === 'SIGKILL' ? `${args[0]} ignored SIGTERM` : 'ended', r.stderr).toBe(
        'ended',
      );
    }
  }, 180_000);
});
