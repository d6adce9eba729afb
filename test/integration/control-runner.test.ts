// The control-mode transport against a real private tmux server, next to the spawn runner:
// the same Tmux operations must behave the same over both, byte for byte; control mode must
// also report pane output, notice the server going away, and leave the user's session as it
// was (active pane, window sizes, environment).
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {createControlRunner} from '../../src/tmux/control-start.js';
import {createSpawnRunner, TmuxCommandError, type TmuxRunner} from '../../src/tmux/runner.js';
import type {ServerSpec} from '../../src/tmux/server.js';
import {createTmux} from '../../src/tmux/tmux.js';
import {openTransport} from '../../src/tmux/transport.js';
import {isAlive} from '../helpers/process-view.js';
import {hex, type RecorderPane, startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES} from '../helpers/run-nudge.js';
import {cleanEnv, startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const specOf = (server: TmuxTestServer): ServerSpec => ({kind: 'socket-path', path: server.socket});

/** The session id (`$N`) of `pane`. */
async function sessionOf(server: TmuxTestServer, pane: string): Promise<string> {
  return (await server.tmux('display-message', '-p', '-t', pane, '#{session_id}')).trim();
}

/** A control runner attached to `pane`'s session, closed when the test finishes. */
async function openControl(server: TmuxTestServer, pane: string) {
  const runner = await createControlRunner(specOf(server), {
    sessionId: await sessionOf(server, pane),
    env: cleanEnv(),
  });
  onTestFinished(() => runner.close());
  return runner;
}

type MakeRunner = (server: TmuxTestServer, pane: string) => Promise<TmuxRunner>;
const RUNNERS: Array<[name: string, make: MakeRunner]> = [
  ['spawn', async (server) => createSpawnRunner(specOf(server))],
  ['control', openControl],
];

/** Compare what the recorder got with `expected`, as hex (a readable diff). */
async function expectRecorded(rec: RecorderPane, expected: Buffer): Promise<void> {
  const got = await rec.waitForLength(expected.length, 10_000).catch(() => rec.bytes());
  expect(hex(got), `recorded ${JSON.stringify(got.toString('utf8'))}`).toBe(hex(expected));
}

/** What a rejected promise rejected with (fails the test if it resolved). */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

const PRINTABLE_ASCII = Array.from({length: 95}, (_, i) => String.fromCharCode(0x20 + i)).join('');
/** Every control character a pane can be sent: 0x01-0x1f and DEL. */
const CONTROLS = `${Array.from({length: 31}, (_, i) => String.fromCharCode(i + 1)).join('')}\x7f`;

/** Texts typeLiteral must deliver verbatim, each into its own recorder. */
const TEXTS: Array<[name: string, text: string]> = [
  ['all 95 printable ASCII characters', PRINTABLE_ASCII],
  ['exactly ";"', ';'],
  ['a text ending in ";"', 'echo one; echo two;'],
  ['exactly "\\;"', '\\;'],
  ['"a\\\\;" (two backslashes before a final ;)', 'a\\\\;'],
  ['a text ending in "\\"', 'x\\'],
  ['a leading "-"', '-x --flag -- value'],
  ['exactly "-l"', '-l'],
  ['key-name words', 'Enter C-u Escape F1 Space BSpace ^A M-x'],
  ['exactly "Enter"', 'Enter'],
  ['a tab', 'a\tb\tc'],
  ['LF and CR inside the text', 'one\ntwo\rthree\r\n'],
  ['every control character', `<${CONTROLS}>`],
  [
    'quotes, $, ~, #{}, {}, % and shell syntax',
    `it's "q" $HOME ~ #{pane_id} # {x} %if $(id) \`w\``,
  ],
  ['two-, three- and four-byte UTF-8', 'é€😀'],
  ['CJK', '漢字テスト'],
  ['an emoji ZWJ sequence and a flag', '👩‍👩‍👧‍👦 🇫🇷 e\u0301'],
  [
    '20,000 characters (over the argv limit, in chunks)',
    'abcdefghij;'.repeat(1_819).slice(0, 20_000),
  ],
];

describe.each(RUNNERS)('the %s runner', (_name, makeRunner) => {
  it.each(TEXTS)('typeLiteral types %s verbatim', async (_label, text) => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const tmux = createTmux(await makeRunner(server, rec.pane));
    await tmux.typeLiteral(rec.pane, text);
    await expectRecorded(rec, Buffer.from(text, 'utf8'));
  });

  it('pressKeys sends key names as keys', async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const tmux = createTmux(await makeRunner(server, rec.pane));
    await tmux.pressKeys(rec.pane, ['C-u', 'Escape', 'F1', 'Enter']);
    await expectRecorded(rec, Buffer.from([0x15, 0x1b, 0x1b, 0x4f, 0x50, 0x0d]));
  });

  it('describePane finds a pane, and says undefined for a missing one', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const tmux = createTmux(await makeRunner(server, '%0'));
    expect(await tmux.describePane('%0')).toMatchObject({
      paneId: '%0',
      sessionId: '$0',
      currentCommand: 'bash',
      socketPath: server.socket,
    });
    expect(await tmux.describePane('%99')).toBeUndefined();
  });

  it('a view of a missing pane rejects with kind no-target', async () => {
    const server = await startTmuxServer();
    const tmux = createTmux(await makeRunner(server, '%0'));
    const error = await rejectionOf(tmux.view('%99', 0));
    expect(error).toBeInstanceOf(TmuxCommandError);
    expect(error).toMatchObject({kind: 'no-target', stderr: "can't find pane: %99"});
  });

  it('leaveMode leaves copy mode and killPane closes the pane', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    const tmux = createTmux(await makeRunner(server, pane));
    await server.tmux('copy-mode', '-t', pane);
    expect(await tmux.describePane(pane)).toMatchObject({inMode: true});
    await tmux.leaveMode(pane);
    expect(await tmux.describePane(pane)).toMatchObject({inMode: false});
    await tmux.leaveMode(pane); // no mode: still fine
    await tmux.killPane(pane);
    expect(await tmux.describePane(pane)).toBeUndefined();
  });
});

/** A pane whose screen holds awkward content: UTF-8, wide characters, trailing spaces, a
 * tab, empty lines, and lines that read like control-mode protocol. */
async function startAwkwardPane(server: TmuxTestServer): Promise<string> {
  const script = [
    'for i in $(seq 1 60); do printf "line %03d é€😀 漢字\\n" "$i"; done',
    'printf "%%end 1 2 1\\n%%begin 1 2 1\\n%%output %%0 x\\n%%exit\\n"',
    'printf "trailing   \\n\\n\\ttab\\n"',
    'printf "AWKWARD DONE"',
    'exec sleep 100000',
  ].join('; ');
  const pane = await server.newPane(['bash', '--norc', '--noprofile', '-c', script]);
  await server.waitForScreen(pane, /AWKWARD DONE/);
  return pane;
}

describe('the control runner', () => {
  it('views exactly what the spawn runner does', async () => {
    const server = await startTmuxServer();
    const pane = await startAwkwardPane(server);
    const viaSpawn = createTmux(createSpawnRunner(specOf(server)));
    const viaControl = createTmux(await openControl(server, pane));

    const spawnView = await viaSpawn.view(pane, 100);
    expect(spawnView.rows.length).toBeGreaterThan(60);
    expect(spawnView.rows.join('\n')).toContain('%end 1 2 1');
    expect(await viaControl.view(pane, 100)).toEqual(spawnView);
    expect(await viaControl.describePane(pane)).toEqual(await viaSpawn.describePane(pane));
  });

  it('returns chained output and raw stdout byte-equal to the spawn runner', async () => {
    const server = await startTmuxServer();
    const pane = await startAwkwardPane(server);
    const spawnRunner = createSpawnRunner(specOf(server));
    const control = await openControl(server, pane);
    const calls: string[][] = [
      ['display-message', '-p', '-t', pane, '#{pane_id}', ';', 'capture-pane', '-p', '-t', pane],
      ['display-message', '-p', '-t', '%99', '#{pane_id}'], // one empty line
      ['send-keys', '-t', pane, ''], // no output at all
      ['capture-pane', '-p', '-t', pane, '-S', '-', '-E', '-'],
      ['list-panes', '-a', '-F', '#{pane_id} #{pane_width}x#{pane_height}'],
    ];
    for (const args of calls) {
      expect(await control.run(args), args.join(' ')).toBe(await spawnRunner.run(args));
    }
  });

  it('types 100,000 characters byte-exact, in chunks and as one command', async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const control = await openControl(server, rec.pane);
    const text = Array.from({length: 100_000}, (_, i) =>
      i % 1000 === 999 ? ';' : String.fromCharCode(0x21 + (i % 94)),
    ).join('');
    await createTmux(control).typeLiteral(rec.pane, text);
    // One send-keys line of 100,000 characters: far past argv's ~16 KB command limit.
    await control.run(['send-keys', '-t', rec.pane, '-l', '--', `${text}é`]);
    await expectRecorded(rec, Buffer.from(`${text}${text}é`, 'utf8'));

    // The spawn runner cannot send that line at all (why typeLiteral chunks).
    const error = await rejectionOf(
      createSpawnRunner(specOf(server)).run(['send-keys', '-t', rec.pane, '-l', '--', text]),
    );
    expect(error).toMatchObject({kind: 'too-long'});
  });

  it('answers many pipelined calls in order', async () => {
    const server = await startTmuxServer();
    const control = await openControl(server, '%0');
    const replies = await Promise.all(
      Array.from({length: 200}, (_, i) =>
        i % 10 === 9
          ? control.run(['capture-pane', '-p', '-t', '%99']).catch((e: TmuxCommandError) => e.kind)
          : control.run(['display-message', '-p', `reply ${i}`, ';', 'display-message', '-p', 'x']),
      ),
    );
    expect(replies).toEqual(
      Array.from({length: 200}, (_, i) => (i % 10 === 9 ? 'no-target' : `reply ${i}\nx\n`)),
    );
  });

  it('rejects a command tmux cannot parse, and keeps working', async () => {
    const server = await startTmuxServer();
    const control = await openControl(server, '%0');
    const error = await rejectionOf(control.run(['no-such-command', 'x']));
    expect(error).toBeInstanceOf(TmuxCommandError);
    expect(error).toMatchObject({kind: 'other', stderr: expect.stringMatching(/unknown command/)});
    const refused = await rejectionOf(control.run(['refresh-client', '-C', '10x10']));
    expect(refused).toMatchObject({kind: 'other', message: expect.stringMatching(/spawn runner/)});
    expect(await control.run(['display-message', '-p', 'still here'])).toBe('still here\n');
  });

  it('reports %output for a pane that prints, with its time', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(pane, /^\$/m);
    const seen: Array<[string, number]> = [];
    const control = await createControlRunner(specOf(server), {
      sessionId: await sessionOf(server, pane),
      env: cleanEnv(),
      onOutput: (id, at) => seen.push([id, at]),
    });
    onTestFinished(() => control.close());
    const forPane: number[] = [];
    const unsubscribe = control.onOutput((_id, at) => forPane.push(at), pane);
    expect(control.lastOutputAt(pane)).toBeUndefined();

    const before = Date.now();
    await server.tmux('send-keys', '-t', pane, `node ${join(FIXTURES, 'chatty.mjs')} 600`, 'Enter');
    await server.waitForScreen(pane, /CHATTY DONE/);
    await waitFor('%output events for the pane', async () =>
      forPane.length >= 5 ? true : undefined,
    );
    expect(seen.every(([id]) => id === pane)).toBe(true);
    expect(control.lastOutputAt(pane)).toBeGreaterThanOrEqual(before);
    expect(control.lastOutputAt(pane)).toBe(forPane.at(-1));
    unsubscribe();
    const count = forPane.length;
    await server.tmux('send-keys', '-t', pane, 'echo more', 'Enter');
    await waitFor('more output', async () =>
      (control.lastOutputAt(pane) ?? 0) > (forPane.at(-1) ?? 0) ? true : undefined,
    );
    expect(forPane.length).toBe(count);
  });

  it('with pause-after, a paused pane counts as output and is resumed at once', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    await server.waitForScreen(pane, /^\$/m);
    const notifications: string[] = [];
    const control = await createControlRunner(specOf(server), {
      sessionId: await sessionOf(server, pane),
      env: cleanEnv(),
      pauseAfterSeconds: 1,
      onNotification: (line) => notifications.push(line),
    });
    onTestFinished(() => control.close());
    // Another client that keeps reading (into /dev/null, so it never waits for this
    // process): with only lagging control clients attached, tmux would stop reading the
    // pane instead (server_client_check_pane_buffer), and nothing would be paused.
    const reader = execa('tmux', ['-S', server.socket, '-C', 'attach-session', '-t', '$0'], {
      env: cleanEnv(),
      reject: false,
      stdout: 'ignore',
      stderr: 'ignore',
    });
    onTestFinished(() => {
      reader.kill('SIGKILL');
    });
    await server.tmux('send-keys', '-t', pane, 'yes flooding-the-pane', 'Enter');
    await waitFor('output from the flood', async () => control.lastOutputAt(pane));
    // Stop reading for 2.5 s (the event loop is blocked): tmux falls more than 1 s behind
    // on the pane and pauses it.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_500);
    const unblocked = Date.now();
    await waitFor(
      'the pane to be paused',
      async () => (notifications.includes(`%pause ${pane}`) ? true : undefined),
      {describe: () => notifications.join('\n')},
    );
    // Resumed: output arrives again after the pause.
    const pausedAt = control.lastOutputAt(pane) ?? 0;
    expect(pausedAt).toBeGreaterThanOrEqual(unblocked);
    await waitFor('output after the resume', async () =>
      (control.lastOutputAt(pane) ?? 0) > pausedAt ? true : undefined,
    );
    // The resume call's reply was matched in order: calls still get their own replies.
    expect(await control.run(['display-message', '-p', 'in order'])).toBe('in order\n');
    await server.tmux('send-keys', '-t', pane, 'C-c', '');
  });

  it('reports closed and rejects further calls when the server is killed', async () => {
    const server = await startTmuxServer();
    const control = await openControl(server, '%0');
    await server.tmux('kill-server');
    const closed = await control.closed;
    expect(closed.reason).toBe('exit');
    expect(control.isClosed).toBe(true);
    const error = await rejectionOf(control.run(['display-message', '-p', 'x']));
    expect(error).toBeInstanceOf(TmuxCommandError);
    expect(error).toMatchObject({kind: 'no-server'});
  });

  it('rejects calls pending when the server dies', async () => {
    const server = await startTmuxServer();
    const control = await openControl(server, '%0');
    const serverPid = Number((await server.tmux('display-message', '-p', '#{pid}')).trim());
    // A stopped server answers nothing, so these calls are certainly pending when it dies.
    process.kill(serverPid, 'SIGSTOP');
    const pending = [
      control.run(['display-message', '-p', 'one']),
      control.run(['capture-pane', '-p', '-t', '%0']),
    ];
    process.kill(serverPid, 'SIGKILL');
    for (const call of pending) {
      const error = await rejectionOf(call);
      expect(error).toBeInstanceOf(TmuxCommandError);
      expect(error).toMatchObject({kind: 'no-server'});
    }
    expect(await control.closed).toEqual({
      reason: 'exit',
      detail: 'tmux ended the control client: server exited unexpectedly',
    });
  });

  it('fails to attach to a missing session with kind no-target, and without a server with no-server', async () => {
    const server = await startTmuxServer();
    const missing = await rejectionOf(
      createControlRunner(specOf(server), {sessionId: '$42', env: cleanEnv()}),
    );
    expect(missing).toMatchObject({kind: 'no-target'});
    const noServer = await rejectionOf(
      createControlRunner(
        {kind: 'socket-path', path: join(server.dir, 'no-such-socket')},
        {sessionId: '$0', env: cleanEnv()},
      ),
    );
    expect(noServer).toMatchObject({kind: 'no-server'});
    // -N: trying did not start a server on that socket.
    const list = await execa('tmux', ['-S', join(server.dir, 'no-such-socket'), 'list-sessions'], {
      reject: false,
    });
    expect(list.exitCode).toBe(1);
  });

  it("leaves the session's active window and pane, window sizes and environment alone", async () => {
    const server = await startTmuxServer();
    // Window 0 (active) split in two, pane %0 active; a second, inactive window.
    const split = (
      await server.tmux('split-window', '-d', '-t', '%0', '-P', '-F', '#{pane_id}')
    ).trim();
    const other = await server.newPane(['bash', '--norc', '--noprofile'], {width: 90, height: 30});
    await server.tmux('set-environment', '-t', 'main', 'DISPLAY', ':42');
    await server.tmux('set-environment', '-t', 'main', 'SSH_AUTH_SOCK', '/tmp/agent.sock');
    const state = async () => ({
      panes: await server.tmux(
        'list-panes',
        '-s',
        '-t',
        'main',
        '-F',
        '#{pane_id} active=#{pane_active} window_active=#{window_active} #{window_width}x#{window_height} #{pane_width}x#{pane_height}',
      ),
      current: await server.tmux('display-message', '-p', '-t', 'main', '#{window_id} #{pane_id}'),
      environment: await server.tmux('show-environment', '-t', 'main'),
    });
    const before = await state();
    expect(before.panes).toContain('%0 active=1 window_active=1');

    // The control client's environment lacks DISPLAY and SSH_AUTH_SOCK: update-environment
    // would clear them in the session; -E keeps them.
    const env = cleanEnv();
    delete env.DISPLAY;
    delete env.SSH_AUTH_SOCK;
    const control = await createControlRunner(specOf(server), {sessionId: '$0', env});
    const tmux = createTmux(control);
    await tmux.typeLiteral(other, 'echo typed');
    await tmux.view(split, 0);
    await tmux.view(other, 10);
    await tmux.describePane(other);
    expect(await state()).toEqual(before);
    expect(await server.tmux('list-clients', '-F', '#{client_control_mode}')).toBe('1');

    await control.close();
    expect(await state()).toEqual(before);
    expect(await server.tmux('list-clients')).toBe('');
    expect(before.environment).toContain('DISPLAY=:42');
  });

  it('a reply timer held up by this process itself (stopped past it) is not "tmux did not answer": the answer waiting in the pipe is read (issue 62)', async () => {
    const server = await startTmuxServer();
    const control = await createControlRunner(specOf(server), {
      sessionId: await sessionOf(server, '%0'),
      env: cleanEnv(),
      replyTimeoutMs: 300,
    });
    onTestFinished(() => control.close());
    const answer = control.run(['display-message', '-p', 'ANSWERED']);
    // The thread stopped for 2 s, as SIGSTOP or a busy machine stops it: tmux answers
    // meanwhile, and the reply timer is due long before the pipe is read again.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2_000);
    expect((await answer).trim()).toBe('ANSWERED');
    expect(control.isClosed).toBe(false);
  });

  it('close() ends the client: the tmux process exits and the session stays', async () => {
    const server = await startTmuxServer();
    const control = await openControl(server, '%0');
    const pid = control.pid;
    expect(pid).toBeGreaterThan(0);
    await control.close();
    await control.close(); // idempotent
    expect((await control.closed).reason).toBe('closed');
    expect(isAlive(pid!)).toBe(false);
    expect(await server.tmux('list-sessions', '-F', '#{session_name}')).toBe('main');
    const error = await rejectionOf(control.run(['display-message', '-p', 'x']));
    expect(error).toBeInstanceOf(TmuxCommandError);
  });

  it('the tmux client does not outlive a killed holder, even with output queued for it', async () => {
    const server = await startTmuxServer();
    // A pane printing as fast as it can: tmux always has output queued for the client, so
    // stdin EOF alone would not end it (see startGuard in control-runner.ts).
    const busy = await server.newPane(['seq', '1', '1000000000']);
    const holder = execa(
      process.execPath,
      [join(FIXTURES, 'control-holder.mjs'), server.socket, '$0'],
      {env: cleanEnv(), reject: false},
    );
    onTestFinished(() => {
      holder.kill('SIGKILL');
    });
    let printed = '';
    holder.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const clientPid = await waitFor(
      'the holder to attach',
      async () => Number(/ATTACHED (\d+)/.exec(printed)?.[1]) || undefined,
      {describe: () => printed},
    );
    expect(await server.tmux('list-clients', '-F', '#{client_pid}')).toBe(String(clientPid));
    holder.kill('SIGKILL');
    await holder;
    await waitFor('the tmux client to exit', async () => (isAlive(clientPid) ? undefined : true), {
      describe: () => `client ${clientPid} still alive`,
    });
    await waitFor('the server to drop the client', async () =>
      (await server.tmux('list-clients')) === '' ? true : undefined,
    );
    // The busy pane is not held back by a dead client: its output keeps moving.
    const lastLine = async () => (await server.capture(busy)).trim().split('\n').at(-1);
    const seen = await lastLine();
    let now = seen;
    await waitFor(
      'the busy pane to keep printing',
      async () => {
        now = await lastLine();
        return now !== seen ? true : undefined;
      },
      {describe: () => `last line stuck at ${now}`},
    );
  });
});

describe('openTransport', () => {
  it('opens control mode for a pane, and carries on over spawn once the client dies', async () => {
    const server = await startTmuxServer();
    const pane = await startAwkwardPane(server);
    const transport = await openTransport(specOf(server), pane);
    onTestFinished(() => transport.close());
    expect(transport.kind).toBe('control');
    expect(transport.fallbackReason).toBeUndefined();
    expect(transport.control?.sessionId).toBe('$0');
    const capture = await transport.tmux.view(pane, 0);
    expect(capture.rows.join('\n')).toContain('AWKWARD DONE');

    process.kill(transport.control!.pid!, 'SIGKILL');
    expect((await transport.control!.closed).reason).toBe('client-died');
    expect(await transport.tmux.view(pane, 0)).toEqual(capture);
  });

  it('falls back to spawn, saying why, for a missing pane, a missing server, or on request', async () => {
    const server = await startTmuxServer();
    const missingPane = await openTransport(specOf(server), '%99');
    expect(missingPane).toMatchObject({kind: 'spawn', control: undefined});
    expect(missingPane.fallbackReason).toMatch(/%99 was not found/);

    const noServer = await openTransport({kind: 'socket-path', path: join(server.dir, 'x')}, '%0');
    expect(noServer.kind).toBe('spawn');
    expect(noServer.fallbackReason).toMatch(/error connecting|no server/);

    const asked = await openTransport(specOf(server), '%0', {prefer: 'spawn'});
    expect(asked.kind).toBe('spawn');
    expect(await asked.tmux.describePane('%0')).toMatchObject({paneId: '%0'});
  });
});
