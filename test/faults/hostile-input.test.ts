// Text designed to escape — shell and tmux syntax, escape sequences, control characters,
// very long lines — is typed literally (checked byte for byte in a raw recorder, never a
// shell) or refused with one sentence; nothing of it is ever executed by nudge. Bad options
// (templates, numbers, durations) exit 2 with a sentence naming the option.
import {existsSync, readdirSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {recordFigure, roundTrip, TRANSPORTS, waitForLocksFree} from '../helpers/faults.js';
import {jobIds, serverWorld} from '../helpers/nudge-home.js';
import {recorderWorld} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';

/** Texts that try to get something run; `dir` is where a successful escape would leave a file. */
function escapes(dir: string): Array<[string, string]> {
  return [
    ['command substitution', `$(touch ${dir}/dollar)`],
    ['backticks', `\`touch ${dir}/backtick\``],
    ['; rm', `; rm -rf ${dir}/keep ; touch ${dir}/semi`],
    ['\\; at the end', `touch ${dir}/escaped \\;`],
    ['a lone ;', ';'],
    ['tmux command syntax', `run-shell "touch ${dir}/run-shell" ; kill-server`],
    ['a tmux command block', `{ run-shell "touch ${dir}/block" }`],
    ['a tmux format that runs a command', `#(touch ${dir}/format) #{pane_id} #{s/a/b/:x}`],
    ['tmux %if syntax on its own lines', `%if 1\nrun-shell "touch ${dir}/if"\n%endif`],
    ['quotes and backslashes', `'"\\'\\"\\\\ "'unbalanced`],
    ['an SGR escape sequence', '\x1b[31mred\x1b[0m'],
    ['an OSC title sequence', '\x1b]0;owned\x07 and \x1b]2;owned\x1b\\'],
    ['a DCS sequence', '\x1bP+q544e\x1b\\'],
    ['a C1 CSI', '\u009b31mC1'],
    ['control characters', 'a\x03b\x04c\x1ad\x7fe\x08f\x1bg'],
    ['tmux key names', 'Enter C-c C-d Escape ; F1 KPEnter'],
  ];
}

describe.each(TRANSPORTS)('text designed to escape (%s transport)', (transport) => {
  it('is typed literally into a raw recorder and nothing is ever run', async () => {
    const {server, rec, home} = await recorderWorld();
    const dir = server.dir;
    const cases = escapes(dir);
    let from = 0;
    for (const [name, text] of cases)
      ({end: from} = await roundTrip({
        home,
        socket: server.socket,
        rec,
        transport,
        text,
        typeDelay: transport === 'spawn' ? '1ms' : '0',
        from,
        name,
      }));
    // Nothing ran: no file appeared, and the server is alive (no kill-server got through).
    const planted = readdirSync(dir).filter((f) =>
      ['dollar', 'backtick', 'semi', 'escaped', 'run-shell', 'block', 'format', 'if'].includes(f),
    );
    expect(planted).toEqual([]);
    await server.tmux('has-session', '-t', 'main');
    await waitForLocksFree(home);
    recordFigure({
      scenario: 'escape attempts typed literally',
      transport,
      jobs: cases.length,
      accounted: cases.length,
      bytesVerified: from,
    });
  });

  it('a 64 KiB line arrives whole; one byte more is refused (exit 2)', async () => {
    const {server, rec, home} = await recorderWorld();
    // Mixed widths: ASCII, 2-, 3- and 4-byte characters, and a ; at every chunk edge.
    const unit = 'abc;é€😀 ';
    const unitBytes = Buffer.byteLength(unit);
    let text = unit.repeat(Math.floor((64 * 1024) / unitBytes));
    text += 'z'.repeat(64 * 1024 - Buffer.byteLength(text));
    expect(Buffer.byteLength(text)).toBe(64 * 1024);
    const {id, end: bytes} = await roundTrip({
      home,
      socket: server.socket,
      rec,
      transport,
      text,
      flags: ['--timeout', '60s'],
      jobMs: 120_000,
      bytesMs: 20_000,
      name: '64 KiB',
    });

    const over = await runNudge(submitArgv(server.socket, rec.pane, {delay: 0}, `${text}z`), {
      NUDGE_HOME: home,
    });
    expect(over.exitCode, over.stderr).toBe(2);
    expect(over.stderr).toMatch(/65537 bytes.*65536-byte limit/);
    expect(jobIds(home)).toEqual([id]);
    recordFigure({
      scenario: '64 KiB line (and one byte more)',
      transport,
      jobs: 1,
      accounted: 1,
      bytesVerified: bytes,
    });
  });
});

describe('bad options exit 2 with a sentence naming the option, and start nothing', () => {
  const cases: Array<[string, string[], RegExp]> = [
    // (A NUL cannot reach nudge through argv at all — execve refuses it; the request codec
    // refuses one in a request, see request-codec.test.ts.)
    ['an unknown placeholder', ['--notice', 'done {nope}', '--', 'x'], /\{nope\}/],
    ['a placeholder in capitals', ['--notice', 'done {STATUS}', '--', 'x'], /--notice|\{STATUS\}/],
    ['a huge template', ['--notice', `{status} ${'n'.repeat(5000)}`, '--', 'x'], /--notice/],
    ['a template with a newline', ['--notice', 'one\ntwo', '--', 'x'], /--notice/],
    ['--stable-checks 0', ['--stable-checks', '0', '--', 'x'], /--stable-checks/],
    ['--stable-checks -1', ['--stable-checks', '-1', '--', 'x'], /--stable-checks/],
    ['--stable-checks abc', ['--stable-checks', 'abc', '--', 'x'], /--stable-checks/],
    ['--stable-checks 1e309', ['--stable-checks', '1e309', '--', 'x'], /--stable-checks/],
    ['--stable-checks 2.5', ['--stable-checks', '2.5', '--', 'x'], /--stable-checks/],
    ['--lines 0', ['--lines', '0', '--', 'x'], /--lines/],
    ['--lines 1e309', ['--lines', '1e309', '--', 'x'], /--lines/],
    ['--delay 1e309', ['--delay', '1e309', '--', 'x'], /--delay/],
    ['--delay -1', ['--delay', '-1', '--', 'x'], /--delay/],
    ['--delay abc', ['--delay', 'abc', '--', 'x'], /--delay/],
    ['--delay Infinity', ['--delay', 'Infinity', '--', 'x'], /--delay/],
    ['--delay NaN', ['--delay', 'NaN', '--', 'x'], /--delay/],
    ['--delay 0x10', ['--delay', '0x10', '--', 'x'], /--delay/],
    ['--delay 8d', ['--delay', '8d', '--', 'x'], /--delay/],
    ['--delay 99999999999999999999', ['--delay', '99999999999999999999', '--', 'x'], /--delay/],
    ['--type-delay ""', ['--type-delay', '', '--', 'x'], /--type-delay/],
    ['--timeout 0', ['--timeout', '0', '--', 'x'], /--timeout/],
    ['--timeout 1e309', ['--timeout', '1e309', '--', 'x'], /--timeout/],
    ['--interval 5ms', ['--interval', '5ms', '--', 'x'], /--interval/],
    ['--lock-timeout -5s', ['--lock-timeout', '-5s', '--', 'x'], /--lock-timeout/],
  ];
  it('each case', async () => {
    const {server, home} = await serverWorld();
    const failures: string[] = [];
    for (const [name, args, says] of cases) {
      const r = await runNudge(['submit', '-S', server.socket, '--pane', '%0', ...args], {
        NUDGE_HOME: home,
      });
      const lines = r.stderr.trimEnd().split('\n');
      const ok =
        r.exitCode === 2 &&
        lines.length === 1 &&
        says.test(r.stderr) &&
        !/internal error|^\s+at /im.test(r.stderr) &&
        r.stdout === '';
      if (!ok) failures.push(`${name}: exit ${r.exitCode}, stdout ${r.stdout}, stderr ${r.stderr}`);
    }
    expect(failures).toEqual([]);
    expect(jobIds(home)).toEqual([]);
    expect(existsSync(join(home, 'locks')) ? readdirSync(join(home, 'locks')) : []).toEqual([]);
    recordFigure({
      scenario: 'bad options and templates refused',
      jobs: 0,
      accounted: 0,
      cases: cases.length,
    });
  });
});
