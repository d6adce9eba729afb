/**
 * Help and errors as a person meets them, through the real CLI (issue 45, parts 1–3): `-h`
 * everywhere, a bare `nudge` lists the commands, every usage error one sentence with its fix
 * (exit 2), durations with a unit, a flag given no value refused, and one "no server"
 * sentence for every command, naming -L as given.
 */
import {randomBytes} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {describe, expect, it} from 'vitest';
import {jobIds, serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {runNudge, usageErrorLine} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

const nudge = (args: string[], home = useNudgeHome()) => runNudge(args, {NUDGE_HOME: home});

describe('help', () => {
  it.each([
    [['-h'], /^nudge <command> \[options\]/],
    [['--help'], /^nudge <command> \[options\]/],
    [[], /^nudge <command> \[options\]/],
    [['submit', '-h'], /^nudge submit \[text\.\.\]/],
    [['queue', 'edit', '-h'], /^nudge queue edit/],
    [
      ['completion', '--help'],
      /^nudge completion\n\nPrint a completion script for nudge: nudge completion bash\|zsh\|fish/,
    ],
  ])('nudge %j prints help on stdout, exit 0', async (args, start) => {
    const r = await nudge(args);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(start);
    // The command list is there for a bare nudge; the script is not printed as help.
    if (args.length === 0) expect(r.stdout).toMatch(/^ {2}nudge submit /m);
    expect(r.stdout).not.toContain('###-begin-nudge-completions-###');
  });

  it("nudge --version prints package.json's version, as doctor names it; with another word, yargs decides", async () => {
    const {version} = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {version: string};
    const r = await nudge(['--version']);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, version, '']);
    const doctor = await nudge(['doctor', '--json']);
    expect(doctor.stdout).toContain(`nudge ${version} (`);
    // Not the entry's one plain form: the whole parser reads it (an unknown word is named).
    const more = await nudge(['--version', 'extra']);
    expect(more.exitCode).toBe(2);
  });

  it("every command's help into a pipe: within 80 columns, each example a whole line", async () => {
    const top = await nudge(['--help']);
    const commands = [...top.stdout.matchAll(/^ {2}nudge ([a-z-]+)/gm)].map((m) => m[1] ?? '');
    expect(commands.length).toBeGreaterThan(15);
    for (const command of ['', ...commands]) {
      const r = await nudge(command ? [command, '--help'] : ['--help']);
      const [help = '', examples = ''] = r.stdout.split('\nExamples:\n');
      // An example's own line is a command to paste: whole, however long; the rest wraps.
      const wraps = [...help.split('\n'), ...examples.split('\n').filter((l) => /^ {6}/.test(l))];
      for (const line of wraps)
        expect([...line].length, `nudge ${command} --help: ${line}`).toBeLessThanOrEqual(80);
    }
    // The line to paste into ~/.tmux.conf, whole, on a line of its own.
    const next = await nudge(['next', '--help']);
    expect(next.stdout).toMatch(
      /^Examples:\n {0,2}bind-key N run-shell 'nudge next -S "#\{socket_path\}" --client "#\{client_name\}"'\n {6}in ~\/\.tmux\.conf: prefix N$/m,
    );
  });
});

describe('usage errors: one sentence with the fix, exit 2, nothing recorded', () => {
  it.each([
    [['frobnicate'], 'nudge frobnicate is not a command; see nudge --help for the list.'],
    [['logz'], 'nudge logz is not a command; did you mean nudge logs? See nudge --help.'],
    [['--bogus'], 'Unknown option --bogus; give a command first (see nudge --help for the list).'],
    [
      ['submit', '--pane', '%0', '--bogus', '--', 'hi'],
      'nudge submit has no option --bogus; see nudge submit --help.',
    ],
    [
      ['submit', '--pane', '%0', '--timeout', '10', '--', 'hi'],
      '--timeout 10 has no unit; say --timeout 10s (or 10m, 10ms).',
    ],
    [
      ['submit', '--pane', '%0', '--timeout', '--', 'hi'],
      '--timeout needs a value (--timeout VALUE); see nudge submit --help.',
    ],
    [
      ['submit', '--pane', '--until', 'exit', '--', 'hi'],
      '--pane needs a value (--pane VALUE); see nudge submit --help.',
    ],
    [
      ['wait', '%0', '--timeout', '30'],
      '--timeout 30 has no unit; say --timeout 30s (or 30m, 30ms).',
    ],
  ])('nudge %j', async (args, sentence) => {
    const home = useNudgeHome();
    const r = await nudge(args, home);
    expect(usageErrorLine(r, args.join(' '))).toBe(`nudge: ${sentence}`);
    expect(jobIds(home)).toEqual([]);
  });

  it('a pane that is not there: the hint lists the panes of the server named as given (-L)', async () => {
    const {server, home} = await serverWorld();
    const name = server.socket.split('/').pop() ?? '';
    // The test server is reached by its path; named by -S, the hint says -S.
    const r = await nudge(['submit', '-S', server.socket, '--pane', '%9', '--', 'hi'], home);
    expect(usageErrorLine(r, 'submit to %9')).toContain(
      `list panes with "tmux -S ${server.socket} list-panes -a".`,
    );
    expect(name).not.toBe('');
  });
});

describe('no server: one sentence for every command, naming the server as given', () => {
  const socketName = `nudge-none-${randomBytes(4).toString('hex')}`;
  it.each([
    [['top', '--once']],
    [['status-line']],
    [['next']],
    [['wait', '%0', '--timeout', '1s']],
    [['explain', '%0']],
    [['submit', '--pane', '%0', '--', 'hi']],
  ])('nudge %j -L (no such server)', async (args) => {
    // -L right after the command words (for submit, before the text's `--`).
    const r = await nudge([...args.slice(0, 1), '-L', socketName, ...args.slice(1)]);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(
      `nudge: No tmux server is running with socket name "${socketName}"; start tmux, or point -L/-S/NUDGE_TMUX_SOCKET at the right server.`,
    );
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).not.toContain('internal error');
  });
});

describe('errors with --json: a JSON line on stdout beside the sentence on stderr', () => {
  it('--if-busy refuse on a busy pane (exit 75, apart from the failures of exit 1), and a bad duration (exit 2)', async () => {
    const {server, home} = await shellAtPrompt();
    await server.tmux('send-keys', '-t', '%0', 'sleep 60', 'Enter');
    await waitFor('sleep in the foreground of %0', async () =>
      (await server.tmux('display', '-p', '-t', '%0', '#{pane_current_command}')).trim() === 'sleep'
        ? true
        : undefined,
    );
    const busy = await nudge(
      ['submit', '-S', server.socket, '--pane', '%0', '--if-busy', 'refuse', '--json', '--', 'hi'],
      home,
    );
    expect(busy.exitCode, busy.stderr).toBe(75);
    expect(JSON.parse(busy.stdout)).toEqual({
      error: {
        code: 'pane-busy',
        message: expect.stringMatching(/^Pane %0 is busy — .*nothing was queued/),
        exitCode: 75,
      },
    });
    expect(busy.stderr.trim()).toMatch(/^nudge: Pane %0 is busy/);
    const bad = await nudge(['wait', '-S', server.socket, '%0', '--timeout', '5', '--json'], home);
    expect(bad.exitCode).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({error: {code: 'bad-duration', exitCode: 2}});
    expect(jobIds(home)).toEqual([]);
  });
});
