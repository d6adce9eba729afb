// Every error a user can cause: the right exit code, one plain line on stderr, no stack
// trace, and nothing spawned (no job recorded).
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {jobIds, useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge} from '../helpers/run-nudge.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

interface Case {
  name: string;
  /** The arguments after `submit`, given the test's server. */
  args: (server: TmuxTestServer) => string[];
  /** Extra environment (besides NUDGE_HOME). */
  env?: (server: TmuxTestServer) => Record<string, string>;
  /** NUDGE_HOME, when the case is about the state dir. */
  home?: (server: TmuxTestServer) => string;
  code: 1 | 2;
  /** What the message must mention. */
  says: RegExp;
}

/** Valid quick options, so that only the case's own mistake is wrong. */
const QUICK = ['--delay', '0', '--no-notice'];
const ok = (s: TmuxTestServer, ...extra: string[]) => [
  '-S',
  s.socket,
  '--pane',
  '%0',
  ...QUICK,
  ...extra,
];

const CASES: Case[] = [
  {
    name: 'no tmux on PATH',
    args: (s) => [...ok(s), '--', 'echo hi'],
    env: (s) => {
      const emptyBin = join(s.dir, 'empty-bin');
      mkdirSync(emptyBin, {recursive: true});
      return {PATH: emptyBin};
    },
    code: 1,
    says: /tmux/,
  },
  {
    name: 'no server at the socket',
    args: (s) => ['-S', join(s.dir, 'no-such-socket'), '--pane', '%0', ...QUICK, '--', 'echo hi'],
    code: 1,
    says: /server/,
  },
  {
    name: '--notify-pane self outside tmux',
    args: (s) => [...ok(s), '--notify-pane', 'self', '--', 'echo hi'],
    code: 2,
    says: /self means the pane nudge runs in.*\$TMUX_PANE is not set/,
  },
  {
    name: 'no such pane (%99)',
    args: (s) => ['-S', s.socket, '--pane', '%99', ...QUICK, '--', 'echo hi'],
    code: 2,
    says: /%99/,
  },
  {
    name: 'no such window (main:7.0)',
    args: (s) => ['-S', s.socket, '--pane', 'main:7.0', ...QUICK, '--', 'echo hi'],
    code: 2,
    says: /main:7\.0/,
  },
  {
    name: 'no such pane in an existing window (main:0.7)',
    args: (s) => ['-S', s.socket, '--pane', 'main:0.7', ...QUICK, '--', 'echo hi'],
    code: 2,
    says: /main:0\.7/,
  },
  {
    name: 'no such session (nosuch:0.0)',
    args: (s) => ['-S', s.socket, '--pane', 'nosuch:0.0', ...QUICK, '--', 'echo hi'],
    code: 2,
    says: /nosuch:0\.0/,
  },
  {
    name: 'no --pane and no $TMUX_PANE',
    args: (s) => ['-S', s.socket, ...QUICK, '--', 'echo hi'],
    code: 2,
    says: /pane/,
  },
  {
    name: '--delay abc',
    args: (s) => [...ok(s, '--delay', 'abc'), '--', 'x'],
    code: 2,
    says: /--delay/,
  },
  {
    name: '--timeout -1',
    args: (s) => [...ok(s), '--timeout', '-1', '--', 'x'],
    code: 2,
    says: /--timeout/,
  },
  {
    name: '--interval 0',
    args: (s) => [...ok(s), '--interval', '0', '--', 'x'],
    code: 2,
    says: /--interval/,
  },
  {
    name: '--type-delay 5 seconds',
    args: (s) => [...ok(s), '--type-delay', '5 seconds', '--', 'x'],
    code: 2,
    says: /--type-delay/,
  },
  {
    name: '--stable-checks 0',
    args: (s) => [...ok(s), '--stable-checks', '0', '--', 'x'],
    code: 2,
    says: /--stable-checks/,
  },
  {
    name: '--stable-checks abc',
    args: (s) => [...ok(s), '--stable-checks', 'abc', '--', 'x'],
    code: 2,
    says: /--stable-checks/,
  },
  {name: 'no text at all', args: (s) => [...ok(s), '--'], code: 2, says: /text|type/i},
  {name: 'an empty text', args: (s) => [...ok(s), '--', ''], code: 2, says: /text|type/i},
  {name: 'a blank text', args: (s) => [...ok(s), '--', '  '], code: 2, says: /text|type/i},
  {
    name: 'a state dir that cannot be created (NUDGE_HOME under a regular file)',
    args: (s) => [...ok(s), '--', 'echo hi'],
    home: (s) => {
      const file = join(s.dir, 'a-file');
      writeFileSync(file, 'not a directory\n');
      return join(file, 'state');
    },
    code: 1,
    says: /state dir/,
  },
  {
    name: 'an unknown placeholder in --notice',
    args: (s) => [...ok(s), '--notice', 'done {nope}', '--', 'x'],
    code: 2,
    says: /\{nope\}/,
  },
  {
    name: 'both -L and -S',
    args: (s) => ['-L', 'nudge-test-unused', ...ok(s), '--', 'x'],
    code: 2,
    says: /-L.*-S|-S.*-L/,
  },
  {
    // Given twice, the last counts: the sentence names "bogus" alone, never "5s,bogus".
    name: 'an option given twice',
    args: (s) => [...ok(s), '--timeout', '5s', '--timeout', 'bogus', '--', 'x'],
    code: 2,
    says: /^nudge: --timeout expects a duration [^\n]*, got "bogus"\.$/,
  },
  {
    name: 'a negative duration',
    args: (s) => [...ok(s), '--timeout', '-1s', '--', 'x'],
    code: 2,
    says: /^nudge: --timeout expects a duration [^\n]*, got "-1s"\.$/,
  },
];

describe('submit rejects bad input', () => {
  it.each(CASES)('$name → exit $code', async (c) => {
    const server = await startTmuxServer();
    const home = c.home ? c.home(server) : useNudgeHome();
    const r = await runNudge(['submit', ...c.args(server)], {
      ...(c.env?.(server) ?? {}),
      NUDGE_HOME: home,
    });
    const shown = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
    expect(r.exitCode, shown).toBe(c.code);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, shown).toHaveLength(1);
    expect(lines[0]?.trim(), shown).not.toBe('');
    expect(r.stderr, shown).toMatch(c.says);
    expect(r.stderr, shown).not.toMatch(/^\s+at /m);
    expect(r.stderr, shown).not.toMatch(/internal error/i);
    expect(r.stdout, shown).toBe('');
    // Nothing was spawned: no job was ever recorded.
    expect(jobIds(home)).toEqual([]);
  });
});

describe('the other commands: one sentence for each usage error', () => {
  it('wait with a negative --timeout reaches the duration parser', async () => {
    const server = await startTmuxServer();
    const r = await runNudge(['wait', '-S', server.socket, '%0', '--timeout', '-1s'], {
      NUDGE_HOME: useNudgeHome(),
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--timeout/);
    expect(r.stderr).toMatch(/"-1s"/);
    expect(r.stderr).not.toMatch(/Unknown arguments/);
  });

  it('run --no-notify, the old spelling of --no-notice: works as it did, and says the new one', async () => {
    const server = await startTmuxServer();
    await server.tmux('set-option', '-g', 'default-command', 'bash --norc --noprofile');
    const r = await runNudge(
      ['run', '-S', server.socket, '--no-notify', '--wait', '--cwd', server.dir, '--', 'true'],
      {NUDGE_HOME: useNudgeHome()},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(
      'nudge: --no-notify is now --no-notice; the old spelling still works, for now.',
    );
  }, 60_000);
});
