// `nudge watch` through the built CLI, with real panes on a private tmux server and the
// detached cycle worker: an assessor command (test/fixtures/assessor.mjs) and the scripted
// model server's /v1/chat/completions as assessors; what reached the pane is read from a
// byte recorder or from the shell that ran it.
import {once} from 'node:events';
import {chmodSync, existsSync, readFileSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {join} from 'node:path';
import {describe, expect, it, onTestFinished} from 'vitest';
import {startModelServer} from '../helpers/model-server.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {isAlive} from '../helpers/process-view.js';
import {hex, startRecorder} from '../helpers/recorder-pane.js';
import {FIXTURES, runNudge, shown} from '../helpers/run-nudge.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';
import {ONE_CYCLE_ROLES} from '../helpers/watch-cycle.js';

interface Watcher {
  state: string;
  pausedReason?: string;
  pending: number;
  cycle?: number;
  pane: string;
  transcript: Array<{role: string; text: string}>;
}

/** A test's world: a tmux server, a NUDGE_HOME and the CLI run against both. */
function world(server: TmuxTestServer) {
  const home = useNudgeHome();
  const nudge = (args: string[], env: Record<string, string> = {}) =>
    runNudge(args, {NUDGE_HOME: home, ...env});
  const show = async (name: string): Promise<Watcher> => {
    const r = await nudge(['watch', 'show', name, '--json']);
    if (r.exitCode !== 0) throw new Error(shown(r));
    return JSON.parse(r.stdout) as Watcher;
  };
  /** Wait until the watcher is in `state` with no cycle running (its cycle ended). */
  const settled = (name: string, state: string, timeoutMs = 30_000) => {
    let last: Watcher | undefined;
    return waitFor(
      `watcher ${name} to settle in ${state}`,
      async () => {
        last = await show(name);
        return last.state === state && last.cycle === undefined && last.pending === 0
          ? last
          : undefined;
      },
      {timeoutMs, describe: () => JSON.stringify(last, null, 1)},
    );
  };
  const assessor = (...answers: string[]) => {
    const log = join(server.dir, `assessor-${Math.random().toString(36).slice(2)}.log`);
    return {
      log,
      argv: JSON.stringify([process.execPath, join(FIXTURES, 'assessor.mjs'), log, ...answers]),
      asked: (): Array<Record<string, unknown>> =>
        existsSync(log)
          ? readFileSync(log, 'utf8')
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l))
          : [],
    };
  };
  const start = (name: string, pane: string, extra: string[]) =>
    nudge([
      'watch',
      'start',
      name,
      '-S',
      server.socket,
      '--pane',
      pane,
      '--idle-threshold',
      '500ms',
      '--default-wait',
      '200ms',
      ...extra,
    ]);
  return {home, nudge, show, settled, assessor, start};
}

const answer = (line: string) => JSON.stringify({action: 'continue', injection_prompt: line});

/** A server, a byte recorder in a pane of it, and watcher `name` on that pane whose assessor
 * command gives `answers` in turn. */
async function recorderWatched(name: string, ...answers: string[]) {
  const server = await startTmuxServer();
  const rec = await startRecorder(server);
  const w = world(server);
  const a = w.assessor(...answers);
  const started = await w.start(name, rec.pane, ['--plan', 'p', '--assess-cmd', a.argv]);
  if (started.exitCode !== 0) throw new Error(shown(started));
  return {server, rec, w, a};
}

/** `watch report NAME STATUS --bash-wait CMD`. */
function reportWaiting(w: ReturnType<typeof world>, name: string, status: string, command: string) {
  return w.nudge(['watch', 'report', name, status, '--bash-wait', command]);
}

describe('nudge watch', () => {
  it('start → "watching", report → "recorded+waiting"; the cycle runs the bash wait, asks the assessor command, and the line reaches the pane once, byte for byte', async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const w = world(server);
    const line = `run: it's "$HOME" ; ok ✓`;
    const a = w.assessor(answer(line));
    const started = await w.start('demo', rec.pane, [
      '--plan',
      'finish the parser',
      '--assess-cmd',
      a.argv,
    ]);
    expect(started.stdout, shown(started)).toBe('watching');
    const again = await w.start('demo', rec.pane, ['--plan', 'finish the parser, then docs']);
    expect(again.stdout, shown(again)).toBe('updated');

    const reported = await reportWaiting(
      w,
      'demo',
      'parser done',
      'echo from-the-wait; echo to-stderr >&2; exit 3',
    );
    expect(reported.stdout, shown(reported)).toBe('recorded+waiting');
    const end = await w.settled('demo', 'standby');
    expect(end.transcript.map((e) => e.role)).toEqual(ONE_CYCLE_ROLES);
    expect(end.transcript[1]?.text).toMatch(
      /^\[bash\] exit 3 after \d+\.\d\ds: echo from-the-wait/,
    );
    expect(end.transcript[2]?.text).toBe('from-the-wait\nto-stderr');
    // Exactly the line, once, then Enter (after whatever cleared the line before typing).
    const bytes = (await rec.waitForLength(Buffer.byteLength(line) + 1)).toString('utf8');
    expect(bytes.endsWith(`${line}\r`), hex(bytes)).toBe(true);
    expect(bytes.split(line).length - 1, hex(bytes)).toBe(1);

    // What the assessor was asked: the (updated) plan, the transcript newest first, the wait.
    const [asked] = a.asked();
    expect(asked).toMatchObject({
      watcher: 'demo',
      pane: rec.pane,
      mode: 'cycle',
      plan: 'finish the parser, then docs',
      wait_output: 'from-the-wait\nto-stderr',
      max_injection_chars: 160,
    });
    const tail = asked?.transcript as string[];
    expect(tail[0]).toMatch(/^\[-00:00:0\d idle_spin\] idle after/);
    expect(tail.at(-1)).toMatch(/^\[-00:00:0\d status\] parser done$/);
    // The files are private.
    const {statSync} = await import('node:fs');
    expect(statSync(join(w.home, 'watchers', 'demo')).mode & 0o777).toBe(0o700);
    expect(statSync(join(w.home, 'watchers', 'demo', 'watcher.json')).mode & 0o777).toBe(0o600);
  });

  it("the wait and the assessor command run under the reporter's $SHELL -lc (its login PATH), the assessor's argv as it is", async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const w = world(server);
    // A login shell that says how it was called, then runs bash as asked.
    const called = join(server.dir, 'shell-calls.log');
    const shell = join(server.dir, 'login-shell');
    writeFileSync(shell, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${called}'\nexec bash "$@"\n`);
    chmodSync(shell, 0o755);
    const a = w.assessor(answer('next step'));
    const started = await w.start('login', rec.pane, ['--plan', 'p', '--assess-cmd', a.argv]);
    expect(started.exitCode, shown(started)).toBe(0);
    const reported = await w.nudge(
      ['watch', 'report', 'login', 'done', '--bash-wait', 'echo waited'],
      {SHELL: shell},
    );
    expect(reported.stdout, shown(reported)).toBe('recorded+waiting');
    const end = await w.settled('login', 'standby');
    expect(end.transcript.find((e) => e.role === 'wait_output')?.text).toBe('waited');
    await rec.waitForLength(Buffer.byteLength('next step') + 1);
    const argv = JSON.parse(a.argv) as string[];
    expect(readFileSync(called, 'utf8').split('\n').filter(Boolean)).toEqual([
      '-lc echo waited',
      `-lc exec "$0" "$@" ${argv.join(' ')}`,
    ]);
  });

  it('the line in a shell pane: a comment the shell never runs; with --allow-commands a command (the shell saw it, not a composer)', async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const w = world(server);
    const made = join(server.dir, 'made-by-the-assessor');
    // Issue 61: an assessor's `touch …` typed into a bash pane ran. Now it is nudge's own line.
    const a = w.assessor(answer(`touch ${made}; echo injected-$((6*7))`));
    await w.start('sh', '%0', ['--plan', 'p', '--assess-cmd', a.argv]);
    await w.nudge(['watch', 'report', 'sh', 'go']);
    await w.settled('sh', 'standby');
    await server.waitForScreen('%0', /^\$ # touch .*injected-\$\(\(6\*7\)\)$/m);
    expect(existsSync(made)).toBe(false);
    expect(await server.capture('%0')).not.toMatch(/^injected-42$/m);
    // The person allowed commands for this watcher: typed as it is, and the shell runs it.
    const b = w.assessor(answer('echo injected-$((6*7))'));
    await w.start('sh', '%0', ['--assess-cmd', b.argv, '--allow-commands']);
    await w.nudge(['watch', 'report', 'sh', 'again']);
    await server.waitForScreen('%0', /^injected-42$/m);
  });

  it("an assessor's line that starts with ! / or $ is not typed: the watcher pauses and says why; --allow-commands types it", async () => {
    const server = await startTmuxServer();
    await server.waitForScreen('%0', /^\$/m);
    const w = world(server);
    const made = join(server.dir, 'made-by-the-assessor');
    // In a shell pane, `$(touch FILE)` runs touch.
    const a = w.assessor(answer(`$(touch ${made})`));
    await w.start('cmd', '%0', ['--plan', 'p', '--assess-cmd', a.argv]);
    await w.nudge(['watch', 'report', 'cmd', 'go']);
    const paused = await w.settled('cmd', 'paused');
    expect(paused.pausedReason).toBe(
      'The assessor answered a line that starts with "$" (a command in the agent), so it was not typed; restart the watcher with --allow-commands to allow such lines.',
    );
    expect(existsSync(made)).toBe(false);
    expect(await server.capture('%0')).not.toContain('touch');

    // A recorder: `!touch FILE` (an agent's shell mode) reaches it only with --allow-commands.
    const {rec, w: w2} = await recorderWatched('bang', answer('!touch x'));
    await w2.nudge(['watch', 'report', 'bang', 'go']);
    expect((await w2.settled('bang', 'paused')).pausedReason).toMatch(/starts with "!"/);
    expect((await rec.bytes()).length).toBe(0);
    // `watch start` again makes it active, now with --allow-commands.
    const b = w2.assessor(answer('!touch x'));
    const allowed = await w2.start('bang', rec.pane, ['--assess-cmd', b.argv, '--allow-commands']);
    expect(allowed.exitCode, shown(allowed)).toBe(0);
    await w2.nudge(['watch', 'report', 'bang', 'go']);
    const bytes = (await rec.waitForLength(9)).toString('utf8');
    expect(bytes.endsWith('!touch x\r'), hex(bytes)).toBe(true);
  });

  it('the scripted model server as an --assess-url endpoint: JSON-schema request with the key; its line is injected', async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const model = await startModelServer();
    model.scriptChat({json: {action: 'continue', injection_prompt: 'next: write the docs'}});
    const w = world(server);
    const started = await w.start('api', rec.pane, [
      '--plan',
      'ship it',
      '--assess-url',
      `${model.url}/v1`,
      '--assess-model',
      'judge-1',
      '--assess-key-env',
      'JUDGE_KEY',
    ]);
    expect(started.exitCode, shown(started)).toBe(0);
    await w.nudge(['watch', 'report', 'api', 'tests pass'], {JUDGE_KEY: 'sk-test-1'});
    await w.settled('api', 'standby');
    const bytes = (await rec.waitForLength(21)).toString('utf8');
    expect(bytes.endsWith('next: write the docs\r'), hex(bytes)).toBe(true);
    const request = model.journal().find((e) => e.format === 'chat');
    const body = request?.body as {
      model: string;
      messages: Array<{role: string; content: string}>;
      response_format: {type: string; json_schema: {schema: {required: string[]}}};
    };
    expect(body.model).toBe('judge-1');
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.schema.required).toEqual([
      'action',
      'injection_prompt',
    ]);
    expect(body.messages.find((m) => m.role === 'user')?.content).toContain('Plan:\nship it');
  });

  it('a bad assessor (exit 3) and an HTTP error: an error with one sentence, paused, nothing typed', async () => {
    const {rec, w} = await recorderWatched('bad', 'exit:3');
    await w.nudge(['watch', 'report', 'bad', 'x']);
    const paused = await w.settled('bad', 'paused');
    expect(paused.transcript.at(-1)).toEqual(
      expect.objectContaining({
        role: 'error',
        text: `The assessor command ${JSON.stringify(process.execPath)} exited with status 3: assessor failed.`,
      }),
    );
    // An endpoint that answers HTTP 503.
    const busy = createServer((_req, res) => {
      res.writeHead(503, {'content-type': 'application/json'});
      res.end('{"error":{"message":"the model is overloaded"}}');
    });
    busy.listen(0, '127.0.0.1');
    await once(busy, 'listening');
    onTestFinished(() => void busy.close());
    const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/v1`;
    await w.start('http', rec.pane, ['--plan', 'p', '--assess-url', url, '--assess-model', 'm']);
    await w.nudge(['watch', 'report', 'http', 'x']);
    const http = await w.settled('http', 'paused');
    expect(http.pausedReason).toBe(
      `The assessor at ${url}/chat/completions answered HTTP 503: the model is overloaded.`,
    );
    // A report to a paused watcher is recorded, and no cycle runs.
    const more = await w.nudge(['watch', 'report', 'bad', 'still here']);
    expect(more.stdout).toBe('recorded+paused');
    expect((await rec.bytes()).length).toBe(0);
  });

  it('a report while a cycle runs is queued, not lost: two reports, two lines, in order', async () => {
    const {server, rec, w, a} = await recorderWatched('q', answer('line one'), answer('line two'));
    const marker = join(server.dir, 'go');
    const first = await reportWaiting(
      w,
      'q',
      'first',
      `while [ ! -e ${marker} ]; do sleep 0.1; done`,
    );
    expect(first.stdout).toBe('recorded+waiting');
    const second = await w.nudge(['watch', 'report', 'q', 'second', '--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({result: 'recorded+waiting', ahead: 1});
    writeFileSync(marker, '');
    await w.settled('q', 'standby');
    expect(await rec.lines(2)).toEqual(['line one', 'line two']);
    expect(a.asked().map((x) => (x.transcript as string[]).at(-1))).toEqual([
      expect.stringMatching(/status\] first$/),
      expect.stringMatching(/status\] first$/),
    ]);
  });

  it('pause stops the cycle and prints the next step (never typed); clear stops a running wait and removes the watcher', async () => {
    const {server, rec, w} = await recorderWatched('p', answer('try the other branch'));
    const pidFile = join(server.dir, 'wait.pid');
    await reportWaiting(w, 'p', 'x', `echo $$ > ${pidFile}; exec sleep 300`);
    const waitPid = Number(
      await waitFor('the wait command to start', async () =>
        existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() || undefined : undefined,
      ),
    );
    const paused = await w.nudge(['watch', 'pause', 'p']);
    expect(paused.stdout, shown(paused)).toBe('paused\nnext step: try the other branch');
    const after = await w.show('p');
    expect(after.state).toBe('paused');
    expect(after.cycle).toBeUndefined();
    expect(isAlive(waitPid)).toBe(false);
    expect(after.transcript.at(-1)).toMatchObject({
      role: 'decision',
      text: 'manual next step: try the other branch',
    });
    expect((await rec.bytes()).length).toBe(0);

    // clear: a new cycle with a long wait (start, even with nothing to change, makes it
    // active again), stopped with its group.
    const resumed = await w.nudge(['watch', 'start', 'p']);
    expect(resumed.stdout, shown(resumed)).toBe('updated');
    expect((await w.show('p')).state).toBe('active');
    writeFileSync(pidFile, '');
    await reportWaiting(w, 'p', 'y', `echo $$ > ${pidFile}; exec sleep 300`);
    const second = Number(
      await waitFor(
        'the second wait command',
        async () => readFileSync(pidFile, 'utf8').trim() || undefined,
      ),
    );
    const cleared = await w.nudge(['watch', 'clear', 'p']);
    expect(cleared.stdout, shown(cleared)).toBe('cleared (a running cycle was stopped)');
    await waitFor('the wait command to end', async () => !isAlive(second) || undefined);
    const gone = await w.nudge(['watch', 'show', 'p']);
    expect(gone.exitCode).toBe(2);
    expect(gone.stderr).toBe(
      'nudge: There is no watcher named "p"; run "nudge watch list" to see them.',
    );
    expect((await rec.bytes()).length).toBe(0);
  });

  it('a cycle worker killed with -9 mid-wait: show says so, and the next report runs a new cycle', async () => {
    const {server, rec, w} = await recorderWatched('k', answer('after the crash'));
    const pidFile = join(server.dir, 'k.pid');
    await reportWaiting(w, 'k', 'first', `echo $$ > ${pidFile}; exec sleep 300`);
    await waitFor('the wait command', async () =>
      existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() || undefined : undefined,
    );
    const worker = (await w.show('k')).cycle;
    expect(worker).toBeGreaterThan(0);
    // The worker and its wait (its process group), as a crash or the OOM killer would.
    process.kill(-Number(worker), 'SIGKILL');
    const lost = await waitFor('show to say the cycle is lost', async () => {
      const v = (await w.show('k')) as Watcher & {lostCycle?: string};
      return v.lostCycle ? v : undefined;
    });
    expect(lost.lostCycle).toBe(
      `its cycle worker (pid ${worker}) is gone without finishing; the next report starts a new one`,
    );
    const again = await w.nudge(['watch', 'report', 'k', 'second']);
    expect(again.stdout, shown(again)).toBe('recorded+waiting');
    const end = await w.settled('k', 'standby');
    expect(end.transcript.at(-1)).toMatchObject({
      role: 'injection',
      text: 'after the crash (unconfirmed)',
    });
    const bytes = (await rec.waitForLength(16)).toString('utf8');
    expect(bytes.split('after the crash').length - 1, hex(bytes)).toBe(1);
  });

  it('a pane that disappears pauses the watcher with the reason', async () => {
    const {server, rec, w, a} = await recorderWatched('gone', answer('never'));
    const marker = join(server.dir, 'go');
    await reportWaiting(w, 'gone', 'x', `while [ ! -e ${marker} ]; do sleep 0.1; done`);
    await server.tmux('kill-pane', '-t', rec.pane);
    writeFileSync(marker, '');
    const paused = await w.settled('gone', 'paused');
    expect(paused.pausedReason).toBe(`Pane ${rec.pane} is gone; the watcher paused.`);
    expect(a.asked()).toEqual([]);
  });

  it('list, and bad input: one sentence, exit 2', async () => {
    const server = await startTmuxServer();
    const w = world(server);
    const a = w.assessor(answer('x'));
    await w.start('one', '%0', ['--plan', 'p', '--assess-cmd', a.argv]);
    const list = await w.nudge(['watch', 'list']);
    expect(list.stdout.split('\n')).toEqual([
      'WATCHER  STATE   PANE  PLAN',
      'one      active  %0    p',
    ]);
    const startNew = ['watch', 'start', 'new', '-S', server.socket, '--pane', '%0'];
    const cases: Array<[string[], string]> = [
      [
        ['watch'],
        'nudge: Give a watch command: start, report, pause, clear, show or list. See nudge --help.',
      ],
      [
        [...startNew, '--assess-cmd', a.argv],
        'nudge: Watcher new is new: give it a plan with --plan TEXT or --plan @FILE.',
      ],
      [
        [...startNew, '--plan', 'p'],
        'nudge: Watcher new is new: give it an assessor with --assess-cmd CMD or --assess-url URL --assess-model M.',
      ],
      [
        ['watch', 'start', '../x', '--plan', 'p'],
        'nudge: "../x" is not a watcher name; use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
      ],
      [
        [...startNew, '--plan', '@/nonexistent/plan.md', '--assess-cmd', 'x'],
        'nudge: Cannot read the plan file /nonexistent/plan.md (ENOENT); check the path after "@".',
      ],
      [
        [...startNew, '--plan', 'p', '--assess-url', 'http://127.0.0.1:1/v1'],
        'nudge: --assess-url needs --assess-model (the model name the endpoint serves).',
      ],
      [
        ['watch', 'report', 'nope', 'x'],
        'nudge: There is no watcher named "nope"; run "nudge watch list" to see them.',
      ],
      [['watch', 'report', 'one', ' '], 'nudge: The status report is empty; say what was done.'],
    ];
    for (const [args, sentence] of cases) {
      const r = await w.nudge(args);
      expect(r.exitCode, `${args.join(' ')}\n${shown(r)}`).toBe(2);
      expect(r.stderr, args.join(' ')).toBe(sentence);
    }
  });
});
