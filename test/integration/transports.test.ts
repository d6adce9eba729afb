// The worker over both tmux transports, by the same tests: NUDGE_TRANSPORT=spawn (a tmux
// process per call, polling) and NUDGE_TRANSPORT=control (one control-mode client, waits
// driven by %output). Typing byte-exact, stability and timeout, --until exit and regex,
// --notify-pane into another session, and long inputs; then what only the control transport
// has to survive: its client going away mid-wait.
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  jobEvent,
  jobEventLines,
  jobEventNames,
  readJobState,
  waitForJobEnd,
  waitForJobState,
} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {hex, type RecorderPane, startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES, runNudge, submitArgs, submitJob} from '../helpers/run-nudge.js';
import {expectNoticeAfter, jobAtPrompt, shellAtPrompt} from '../helpers/shell-pane.js';
import {waitFor} from '../helpers/wait-for.js';

const TRANSPORTS = ['spawn', 'control'] as const;
type TransportName = (typeof TRANSPORTS)[number];

/** What the job record says for each transport. */
const RECORDED: Record<TransportName, RegExp> = {
  spawn: /^spawn \(the spawn transport was asked for\)$/,
  control: /^control \(\$\d+\)$/,
};

const PRINTABLE_ASCII = Array.from({length: 95}, (_, i) => String.fromCharCode(0x20 + i)).join('');

/** Texts typed into recorders, each alone: the hard cases of typing-fidelity.test.ts. */
const TEXTS: Array<[name: string, text: string]> = [
  ['all printable ASCII, ending in ";"', `${PRINTABLE_ASCII};`],
  ['exactly "-l"', '-l'],
  ['key names as words', 'Enter C-u Escape F1 Space ^A M-x'],
  ['UTF-8, emoji, a tab, quotes and formats', 'é€😀 漢字 👩‍👩‍👧‍👦\t\'" $HOME #{pane_id} a\\;'],
];

/** Compare what the recorder got with `expected`, as hex (a readable diff). */
async function expectRecorded(rec: RecorderPane, expected: Buffer): Promise<void> {
  const got = await rec.waitForLength(expected.length, 10_000).catch(() => rec.bytes());
  if (got.equals(expected)) return;
  expect(hex(got), `recorded ${JSON.stringify(got.toString('utf8').slice(0, 500))}`).toBe(
    hex(expected),
  );
}

describe.each(TRANSPORTS)('the worker over the %s transport', (transport) => {
  const envFor = (home: string) => ({NUDGE_HOME: home, NUDGE_TRANSPORT: transport});

  /** Submit detached; the job id. */
  const submit = (home: string, args: string[]) => submitJob(args, envFor(home));

  /** The job ended `state`, on the transport asked for (event and record). */
  async function expectEnded(home: string, id: string, state: string) {
    const final = await waitForJobEnd(home, id, 40_000);
    const log = await jobEventLines(home, id);
    expect(final.state, log).toBe(state);
    expect(final.transport, log).toMatch(RECORDED[transport]);
    const used = await jobEvent(home, id, 'transport');
    expect(used, log).toMatchObject({kind: transport});
    return final;
  }

  it.each(['0', '1ms'])('types the hard texts byte-exact at --type-delay %s', async (typeDelay) => {
    const {server, home} = await serverWorld();
    const recorders = await Promise.all(TEXTS.map(() => startRecorder(server)));
    // One pane each, so the jobs run side by side.
    const ids = await Promise.all(
      TEXTS.map(([, text], i) =>
        submit(
          home,
          submitArgs(
            server.socket,
            recorders[i]?.pane ?? '',
            {
              typeDelay: typeDelay,
              interval: '100ms',
              stableChecks: '2',
              clear: false,
              notice: false,
              enter: false,
            },
            text,
          ),
        ),
      ),
    );
    for (const [i, [, text]] of TEXTS.entries()) {
      await expectEnded(home, ids[i] ?? '', 'done');
      await expectRecorded(recorders[i] as RecorderPane, Buffer.from(text, 'utf8'));
    }
  });

  it("types 50,000 characters (over tmux's 16 KB argument limit) byte-exact", async () => {
    const {server, home} = await serverWorld();
    const rec = await startRecorder(server);
    const text = longText(50_000);
    const id = await submit(
      home,
      submitArgs(
        server.socket,
        rec.pane,
        {interval: '100ms', stableChecks: '2', clear: false, notice: false, enter: false},
        text,
      ),
    );
    await expectEnded(home, id, 'done');
    await expectRecorded(rec, Buffer.from(text, 'utf8'));
  });

  it('a program that prints for a while: done once it is quiet, the notice after its output', async () => {
    const {server, home, id} = await jobAtPrompt(
      {notice: '# chatty notice {status}'},
      `node ${join(FIXTURES, 'chatty.mjs')} 1500`,
      {NUDGE_TRANSPORT: transport},
    );
    const final = await expectEnded(home, id, 'done');
    expect(final.notified).toBe(true);
    await expectNoticeAfter(server, '%0', /^CHATTY DONE$/m, '# chatty notice done');
  });

  it('a spinner that never stops: timeout at --timeout, and the timeout notice goes out', async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane([process.execPath, join(FIXTURES, 'spinner.mjs')]);
    await server.waitForScreen(pane, /SPINNER START/);
    const id = await submit(
      home,
      submitArgs(server.socket, pane, {timeout: '2s', notice: 'spin {status}'}, 'go'),
    );
    const final = await expectEnded(home, id, 'timeout');
    expect(final.notified).toBe(true);
    expect(final.waitedMs as number).toBeGreaterThanOrEqual(2_000);
    const events = await jobEventNames(home, id);
    expect(events).toContain('wait-timeout');
    expect(events).not.toContain('condition-met');
    // (Not read back from the screen: the spinner's redraws overwrite the notice's echo.)
    expect(events).toContain('notified');
  });

  it.each([
    {
      // A non-zero status ends the job failed (issue 41), its notice sent all the same.
      what: '--until exit reports the exit status through the sentinel',
      flags: {until: 'exit', notice: '# exit notice {exit}'},
      command: "sleep 0.5; sh -c 'exit 7'",
      ends: {state: 'failed', exitCode: 7, notified: true},
      output: /^__NUDGE_\w+_EXIT_7__$/m,
      notice: '# exit notice 7',
    },
    {
      what: '--until regex: matches output written after Enter',
      flags: {until: 'regex:READY=\\d+', notice: '# regex notice {match}'},
      command: 'sleep 0.5; true || echo READY=0; echo READY=$((40+2))',
      ends: {state: 'done', match: 'READY=42'},
      output: /^READY=42$/m,
      notice: '# regex notice READY=42',
    },
  ])('$what', async ({flags, command, ends, output, notice}) => {
    const {server, home, id} = await jobAtPrompt(flags, command, {NUDGE_TRANSPORT: transport});
    expect(await expectEnded(home, id, ends.state)).toMatchObject(ends);
    await expectNoticeAfter(server, '%0', output, notice);
  });

  it('--notify-pane in another session: the notice reaches it, once', async () => {
    const {server, home} = await shellAtPrompt();
    // A second session: the control client, attached to %0's session, hears none of its
    // output, and must still type into it.
    const file = join(server.dir, 'other-session.bin');
    const other = (
      await server.tmux(
        'new-session',
        '-d',
        '-s',
        'other',
        '-P',
        '-F',
        '#{pane_id}',
        process.execPath,
        join(FIXTURES, 'recorder.mjs'),
        file,
      )
    ).trim();
    await server.waitForScreen(other, /RECORDER READY/);
    const id = await submit(
      home,
      submitArgs(
        server.socket,
        '%0',
        {notifyPane: other, clear: false, notice: 'other session notified'},
        'sleep 0.5; echo slept',
      ),
    );
    const final = await expectEnded(home, id, 'done');
    expect(final.notified).toBe(true);
    let got = '';
    await waitFor(
      'the notice in the other session',
      async () => {
        got = await readFileText(file);
        return got.endsWith('\r') || undefined;
      },
      {timeoutMs: 10_000, describe: () => JSON.stringify(got)},
    );
    expect(got).toBe('other session notified\r');
  });
});

describe('the control transport', () => {
  it('submit --wait types 50,000 characters byte-exact through control mode', async () => {
    const {server, home} = await serverWorld();
    const rec = await startRecorder(server);
    const text = longText(50_000);
    const r = await runNudge(
      submitArgs(
        server.socket,
        rec.pane,
        {
          interval: '100ms',
          stableChecks: '2',
          clear: false,
          notice: false,
          enter: false,
          wait: true,
        },
        text,
      ),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const id = r.stdout.split(' ')[0] ?? '';
    expect((await readJobState(home, id)).transport).toMatch(RECORDED.control);
    await expectRecorded(rec, Buffer.from(text, 'utf8'));
  });

  it('its client killed mid-wait: the job carries on by polling, finishes, and says so', async () => {
    const {server, home} = await shellAtPrompt();
    const r = await runNudge(
      submitArgs(
        server.socket,
        '%0',
        {notice: '# survived {status}'},
        'sleep 2; echo finished sleeping',
      ),
      {NUDGE_HOME: home, NUDGE_TRANSPORT: 'control'},
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim();
    await waitForJobState(home, id, ['waiting'], 20_000);
    // The worker's control client is the only control-mode client on this server.
    const clients = await server.tmux('list-clients', '-F', '#{client_control_mode} #{client_pid}');
    const pid = Number(/^1 (\d+)$/m.exec(clients)?.[1]);
    expect(pid, clients).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');

    const final = await waitForJobEnd(home, id, 40_000);
    const log = await jobEventLines(home, id);
    expect(final.state, log).toBe('done');
    expect(final.transport, log).toMatch(/^control \(\$\d+\), lost: /);
    expect(log).toContain('"event":"transport-lost"');
    await expectNoticeAfter(server, '%0', /^finished sleeping$/m, '# survived done');
  });
});

/** A deterministic text of `length` characters: printable ASCII with some UTF-8, ending in
 * ";" (the one character tmux's argv parsing eats at the end of an argument). */
function longText(length: number): string {
  const chars: string[] = [];
  for (let i = 0; i < length - 1; i++) {
    chars.push(i % 97 === 0 ? 'é' : String.fromCharCode(0x20 + ((i * 7) % 95)));
  }
  chars.push(';');
  return chars.join('');
}

async function readFileText(path: string): Promise<string> {
  return readFile(path, 'utf8').catch(() => '');
}
