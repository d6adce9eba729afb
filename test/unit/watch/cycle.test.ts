// The watcher's cycle over a fake pane, a virtual clock and an in-memory record: each path
// (sleep wait, bash wait, continue → injection, stop → paused, a bad assessor → paused with
// an error, a report during a cycle, the transcript cap, a pane that disappears).
import {describe, expect, it} from 'vitest';
import type {Blocked} from '../../../src/agents/dialogs.js';
import {err, ok, type Result} from '../../../src/base/result.js';
import type {StallPolicy} from '../../../src/detect/stall.js';
import type {Change} from '../../../src/notify/tell.js';
import type {PaneIdleResult} from '../../../src/pane/wait-idle.js';
import type {CommandRun} from '../../../src/process/run-command.js';
import {
  type Assessor,
  type AssessorDeps,
  type AssessRequest,
  createAssessor,
  type Decision,
} from '../../../src/watch/assessor.js';
import {runCycles} from '../../../src/watch/cycle.js';
import type {CycleDeps, CyclePane} from '../../../src/watch/cycle-deps.js';
import type {PendingReport, WatcherRecord} from '../../../src/watch/record.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {MemoryRecords} from '../../helpers/memory-records.js';

const PID = 4242;

/** A pane that is there, goes idle after `idleAfterMs`, and records what is typed. */
class FakePane implements CyclePane {
  typed: string[] = [];
  gone = false;
  onIdleWait: () => void = () => {};
  constructor(
    private readonly clock: FakeClock,
    private readonly idleAfterMs = 500,
  ) {}
  async exists() {
    return !this.gone;
  }
  /** The agent waits for a person: the idle step reports it. */
  blocked: Blocked | undefined;
  /** The agent stalls in the idle step (its watchdog's cancel ends the wait). */
  stalled = false;
  stallPolicies: Array<StallPolicy | null> = [];
  onInject: () => void = () => {};
  async waitIdle(
    thresholdMs: number,
    _timeoutMs: number,
    stall: StallPolicy | null,
  ): Promise<PaneIdleResult> {
    this.onIdleWait();
    this.stallPolicies.push(stall);
    await this.clock.sleep(this.idleAfterMs + thresholdMs);
    if (this.stalled)
      return {
        status: 'timeout',
        pane: '%1',
        until: 'stable',
        durationMs: 0,
        reason: 'stalled',
        stalled: {kind: 'spinning', sinceMs: 0, quietMs: 600_000, count: 1},
      };
    if (this.blocked)
      return {
        status: 'blocked',
        pane: '%1',
        until: 'stable',
        durationMs: 0,
        reason: 'waiting for a person',
        blocked: this.blocked,
      };
    return {
      status: 'idle',
      pane: '%1',
      until: 'stable',
      durationMs: this.idleAfterMs + thresholdMs,
      reason: 'idle',
    };
  }
  async tail() {
    return '$ make\nall tests passed\n$';
  }
  async inject(line: string, enter: boolean) {
    this.onInject();
    this.typed.push(enter ? `${line}⏎` : line);
    return 'submitted';
  }
}

/** An assessor that answers from a script and keeps what it was asked. */
class ScriptedAssessor implements Assessor {
  readonly describe = 'scripted';
  asked: AssessRequest[] = [];
  constructor(private readonly answers: Array<Result<Decision, string>>) {}
  async assess(request: AssessRequest): Promise<Result<Decision, string>> {
    this.asked.push(request);
    return this.answers.shift() ?? err('no answer scripted');
  }
}

function watcher(o: Partial<WatcherRecord> = {}, pending: PendingReport[] = []): WatcherRecord {
  return {
    version: 1,
    name: 'w',
    state: 'active',
    pane: '%1',
    paneTarget: '%1',
    socketPath: '/tmp/sock',
    serverPid: 1,
    plan: 'make the tests pass',
    assessor: {kind: 'cmd', argv: ['assess']},
    options: {
      idleThresholdMs: 3_000,
      idleTimeoutMs: 600_000,
      defaultWaitMs: 10_000,
      waitTimeoutMs: 600_000,
      assessTimeoutMs: 60_000,
      enter: true,
      transcriptCap: 200,
      notifySinks: [],
      onLimit: 'stop',
      limitMarginMs: 60_000,
      resumeText: 'continue',
    },
    createdAt: '2026-11-23T00:00:00.000Z',
    updatedAt: '2026-11-23T00:00:00.000Z',
    pending,
    cycle: {pid: PID, startedAt: '2026-11-23T00:00:00.000Z'},
    transcript: [],
    ...o,
  };
}

function report(status: string, bashWait?: string): PendingReport {
  return {at: '2026-11-23T00:00:00.000Z', status, bashWait, cwd: '/work'};
}

function setup(
  answers: Array<Result<Decision, string>>,
  record: WatcherRecord,
  run: Partial<CommandRun> = {},
) {
  const clock = new FakeClock();
  const records = new MemoryRecords(record);
  const pane = new FakePane(clock);
  const assessor = new ScriptedAssessor(answers);
  const waits: Array<{command: string; cwd: string | undefined}> = [];
  const told: Change[] = [];
  const deps: CycleDeps = {
    records,
    clock,
    pane,
    pid: PID,
    tell: async (change) => void told.push(change),
    assessorFor: () => assessor,
    runWait: async (command, cwd) => {
      waits.push({command, cwd});
      await clock.sleep(2_310);
      return {
        exitCode: 0,
        signal: undefined,
        timedOut: false,
        cancelled: false,
        startError: undefined,
        output: 'PASS 12 tests\n',
        stderr: '',
        truncated: false,
        durationMs: 2_310,
        ...run,
      };
    },
  };
  const roles = () => records.record?.transcript.map((e) => e.role);
  return {clock, records, pane, assessor, waits, deps, roles, told};
}

const signal = () => new AbortController().signal;
const go = (line: string) => ok<Decision>({action: 'continue', injection_prompt: line});
const stop = ok<Decision>({action: 'stop', injection_prompt: null});

describe('a cycle', () => {
  it('sleep wait: sleeps --default-wait and records "[sleep] 10.00s"; continue injects the line once and goes to standby', async () => {
    const w = setup([go('run npm test')], watcher({}, [report('fixed it')]));
    const start = w.clock.now();
    expect(await runCycles(w.deps, 'w', signal())).toBe('idle');
    const r = w.records.record!;
    expect(r.state).toBe('standby');
    expect(r.cycle).toBeUndefined();
    expect(r.transcript.map((e) => [e.role, e.text])).toEqual([
      ['wait', '[sleep] 10.00s'],
      ['idle_spin', 'idle after 3.50s (idle)'],
      ['decision', 'continue: run npm test'],
      ['injection', 'run npm test (submitted)'],
    ]);
    expect(w.pane.typed).toEqual(['run npm test⏎']);
    // 10 s of sleep, then 0.5 s until idle plus the 3 s threshold.
    expect(w.clock.now() - start).toBe(13_500);
    expect(w.waits).toEqual([]);
  });

  it("bash wait: the command runs in the reporter's directory; its output goes to the transcript and to the assessor", async () => {
    const w = setup([go('next')], watcher({}, [report('built', 'npm test')]));
    await runCycles(w.deps, 'w', signal());
    expect(w.waits).toEqual([{command: 'npm test', cwd: '/work'}]);
    const t = w.records.record!.transcript;
    expect(t[0]).toMatchObject({role: 'wait', text: '[bash] exit 0 after 2.31s: npm test'});
    expect(t[1]).toMatchObject({role: 'wait_output', text: 'PASS 12 tests'});
    const asked = w.assessor.asked[0]!;
    expect(asked.wait_output).toBe('PASS 12 tests');
    expect(asked.plan).toBe('make the tests pass');
    expect(asked.pane_tail).toContain('all tests passed');
    expect(asked.mode).toBe('cycle');
    // Newest first, as [-HH:MM:SS role] text.
    expect(asked.transcript[0]).toMatch(/^\[-00:00:0\d idle_spin\] idle after/);
    expect(asked.transcript.at(-1)).toMatch(/^\[-00:00:0\d wait\] \[bash\] exit 0/);
  });

  it('stop: the watcher pauses and nothing is typed; the person is told it is done, once', async () => {
    const w = setup([stop], watcher({}, [report('all done')]));
    await runCycles(w.deps, 'w', signal());
    expect(w.records.record!.state).toBe('paused');
    expect(w.records.record!.pausedReason).toBe('The assessor said stop.');
    expect(w.roles()).toEqual(['wait', 'idle_spin', 'decision']);
    expect(w.pane.typed).toEqual([]);
    expect(w.told).toEqual([{event: 'done', state: 'paused', reason: 'The assessor said stop.'}]);
  });

  it('an agent at a dialog: the watcher pauses (blocked), nothing typed, the person told with the question', async () => {
    const w = setup([go('go on')], watcher({}, [report('x')]));
    w.pane.blocked = {
      kind: 'permission',
      question: 'Do you want to proceed?',
      pane: '%1',
      detail: [],
    };
    await runCycles(w.deps, 'w', signal());
    expect(w.records.record!.state).toBe('paused');
    expect(w.pane.typed).toEqual([]);
    expect(w.told).toMatchObject([
      {event: 'blocked', kind: 'permission', question: 'Do you want to proceed?', pane: '%1'},
    ]);
  });

  it('--on-limit wait: a usage limit at the idle step is waited out on the (virtual) clock; then one resume line, then the cycle goes on', async () => {
    const rec = watcher({}, [report('x')]);
    rec.options = {...rec.options, onLimit: 'wait', limitMarginMs: 60_000, resumeText: 'continue'};
    const w = setup([stop], rec);
    const resetsAt = new Date(w.clock.now() + 2 * 3_600_000).toISOString();
    w.pane.blocked = {
      kind: 'limit',
      question: "You've hit your limit",
      pane: '%1',
      detail: [],
      resetsAt,
    };
    let typedAt = 0;
    w.pane.onInject = () => {
      typedAt = w.clock.now();
      w.pane.blocked = undefined;
    };
    await runCycles(w.deps, 'w', signal());
    expect(w.pane.typed).toEqual(['continue⏎']);
    expect(typedAt).toBeGreaterThanOrEqual(Date.parse(resetsAt) + 60_000);
    expect(typedAt).toBeLessThan(Date.parse(resetsAt) + 60_000 + 30_000);
    expect(w.told.map((t) => t.event)).toEqual(['limit', 'done']);
    expect(w.told[0]).toMatchObject({resetsAt});
  });

  it('--max-injections 2: two lines typed, the third is not; the watcher pauses and tells (stalled), once', async () => {
    const base = watcher();
    const record = watcher({options: {...base.options, maxInjections: 2}}, [
      report('one'),
      report('two'),
      report('three'),
    ]);
    const w = setup([go('next 1'), go('next 2'), go('next 3')], record);
    expect(await runCycles(w.deps, 'w', signal())).toBe('idle');
    expect(w.pane.typed).toEqual(['next 1⏎', 'next 2⏎']);
    const r = w.records.record!;
    expect(r.state).toBe('paused');
    expect(r.injections).toBe(2);
    expect(r.pausedReason).toContain('--max-injections 2');
    expect(w.told).toEqual([
      expect.objectContaining({event: 'stalled', state: 'paused', kind: 'injections'}),
    ]);
  });

  it('the stall policy goes to the idle step; a stall that ends it (--on-stall cancel) pauses the watcher, nothing typed, told once (by the watchdog)', async () => {
    const base = watcher();
    const policy: StallPolicy = {stallMs: 600_000, onStall: {kind: 'cancel'}, continueText: 'x'};
    const w = setup(
      [go('never')],
      watcher({options: {...base.options, stall: policy}}, [report('a')]),
    );
    w.pane.stalled = true;
    expect(await runCycles(w.deps, 'w', signal())).toBe('idle');
    expect(w.pane.stallPolicies).toEqual([policy]);
    expect(w.pane.typed).toEqual([]);
    expect(w.assessor.asked).toEqual([]);
    expect(w.records.record?.pausedReason).toContain('--on-stall cancel paused the watcher');
    // The watchdog told of the stall as it began; the pause adds no second message.
    expect(w.told).toEqual([]);
  });

  it('a bad assessor: recorded as an error with its sentence, the watcher pauses, nothing is typed', async () => {
    const w = setup(
      [err('The assessor command "assess" exited with status 3.')],
      watcher({}, [report('x')]),
    );
    await runCycles(w.deps, 'w', signal());
    const r = w.records.record!;
    expect(r.state).toBe('paused');
    expect(r.transcript.at(-1)).toMatchObject({
      role: 'error',
      text: 'The assessor command "assess" exited with status 3.',
    });
    expect(w.pane.typed).toEqual([]);
  });

  it('a report during a cycle is queued and gets its own cycle, in order', async () => {
    const w = setup([go('first'), go('second')], watcher({}, [report('one')]));
    let added = false;
    w.pane.onIdleWait = () => {
      if (added || !w.records.record) return;
      added = true;
      w.records.record.pending.push(report('two', 'make'));
    };
    await runCycles(w.deps, 'w', signal());
    expect(w.pane.typed).toEqual(['first⏎', 'second⏎']);
    expect(w.waits.map((x) => x.command)).toEqual(['make']);
    expect(w.records.record!.pending).toEqual([]);
    expect(w.records.record!.cycle).toBeUndefined();
  });

  it('queued reports are not assessed once the watcher pauses (it says so)', async () => {
    const w = setup([stop, go('never')], watcher({}, [report('one'), report('two')]));
    await runCycles(w.deps, 'w', signal());
    expect(w.assessor.asked).toHaveLength(1);
    expect(w.records.record!.transcript.at(-1)?.text).toMatch(/^1 queued report\(s\) not assessed/);
  });

  it('the transcript keeps the newest --transcript-cap entries', async () => {
    const base = watcher({}, [report('a'), report('b'), report('c'), report('d')]);
    base.options.transcriptCap = 10;
    const w = setup([go('1'), go('2'), go('3'), go('4')], base);
    await runCycles(w.deps, 'w', signal());
    const t = w.records.record!.transcript;
    expect(t).toHaveLength(10);
    expect(t.at(-1)).toMatchObject({role: 'injection', text: '4 (submitted)'});
  });

  it('--no-enter: the line is typed and left in the input line', async () => {
    const base = watcher({}, [report('a')]);
    base.options.enter = false;
    const w = setup([go('draft this')], base);
    await runCycles(w.deps, 'w', signal());
    expect(w.pane.typed).toEqual(['draft this']);
  });

  it('a pane that disappears pauses the watcher with the reason', async () => {
    const w = setup([go('x')], watcher({}, [report('a')]));
    w.pane.gone = true;
    await runCycles(w.deps, 'w', signal());
    expect(w.records.record!.state).toBe('paused');
    expect(w.records.record!.pausedReason).toBe('Pane %1 is gone; the watcher paused.');
    expect(w.assessor.asked).toHaveLength(0);
  });

  it('a watcher removed mid-cycle (watch clear) is not written again', async () => {
    const w = setup([go('x')], watcher({}, [report('a')]));
    w.pane.onIdleWait = () => {
      w.records.record = undefined;
    };
    expect(await runCycles(w.deps, 'w', signal())).toBe('removed');
    expect(w.records.record).toBeUndefined();
    expect(w.pane.typed).toEqual([]);
  });

  it('a record that names another cycle process is left alone', async () => {
    const w = setup([go('x')], watcher({cycle: {pid: 1, startedAt: ''}}, [report('a')]));
    expect(await runCycles(w.deps, 'w', signal())).toBe('not-ours');
    expect(w.pane.typed).toEqual([]);
  });
});

describe('assessors', () => {
  const request: AssessRequest = {
    watcher: 'w',
    pane: '%1',
    mode: 'cycle',
    plan: 'p',
    transcript: [],
    wait_output: '',
    pane_tail: '',
    max_injection_chars: 160,
  };
  const run =
    (r: Partial<CommandRun>): AssessorDeps['runCommand'] =>
    async () => ({
      exitCode: 0,
      signal: undefined,
      timedOut: false,
      cancelled: false,
      startError: undefined,
      output: '',
      stderr: '',
      truncated: false,
      durationMs: 1,
      ...r,
    });
  const cmd = (r: Partial<CommandRun>) =>
    createAssessor(
      {kind: 'cmd', argv: ['assess', '--x']},
      {runCommand: run(r), fetch: globalThis.fetch, env: {}, timeoutMs: 60_000},
    ).assess(request, signal());

  it.each([
    [{exitCode: 3, stderr: 'boom\n'}, 'The assessor command "assess" exited with status 3: boom.'],
    [
      {output: 'not json'},
      'The assessor command "assess" answered something that is not JSON: not json.',
    ],
    [
      {output: '{"action":"go"}'},
      'The assessor command "assess" answered action "go"; it must be "stop" or "continue".',
    ],
    [
      {output: `{"action":"continue","injection_prompt":"${'x'.repeat(161)}"}`},
      'The assessor command "assess" answered an injection_prompt of 161 characters; the limit is 160, so nothing was typed.',
    ],
    [
      {output: '{"action":"continue","injection_prompt":"a\\nb"}'},
      'The assessor command "assess" answered an injection_prompt of more than one line; it must be one line.',
    ],
    [
      {timedOut: true, exitCode: undefined, signal: 'SIGTERM'},
      'The assessor command "assess" did not answer within 1m00s.',
    ],
    [
      {startError: 'spawn assess ENOENT', exitCode: undefined},
      'The assessor command "assess" could not be started: spawn assess ENOENT.',
    ],
  ])('a command that answers %j fails with one sentence', async (r, sentence) => {
    expect(await cmd(r)).toEqual({ok: false, error: sentence});
  });

  it('a command answer of 160 characters, in a code fence, is taken', async () => {
    const line = 'y'.repeat(160);
    expect(
      await cmd({output: `\`\`\`json\n{"action":"continue","injection_prompt":"${line}"}\n\`\`\``}),
    ).toEqual({ok: true, value: {action: 'continue', injection_prompt: line}});
  });

  it('an endpoint that answers HTTP 500 fails with its message; the key comes from --assess-key-env', async () => {
    const seen: Array<{url: string; auth: string | null}> = [];
    const fetch500 = (async (url: string, init: RequestInit) => {
      seen.push({url, auth: new Headers(init.headers).get('authorization')});
      return new Response('{"error":{"message":"model overloaded"}}', {status: 500});
    }) as unknown as typeof fetch;
    const a = createAssessor(
      {kind: 'url', url: 'http://127.0.0.1:1/v1', model: 'm', keyEnv: 'KEY'},
      {runCommand: run({}), fetch: fetch500, env: {KEY: 'sk-1'}, timeoutMs: 1_000},
    );
    expect(await a.assess(request, signal())).toEqual({
      ok: false,
      error:
        'The assessor at http://127.0.0.1:1/v1/chat/completions answered HTTP 500: model overloaded.',
    });
    expect(seen).toEqual([{url: 'http://127.0.0.1:1/v1/chat/completions', auth: 'Bearer sk-1'}]);
  });

  it('a missing key variable fails before any request', async () => {
    const a = createAssessor(
      {kind: 'url', url: 'http://127.0.0.1:1/v1', model: 'm', keyEnv: 'NOPE'},
      {runCommand: run({}), fetch: globalThis.fetch, env: {}, timeoutMs: 1_000},
    );
    expect(await a.assess(request, signal())).toEqual({
      ok: false,
      error: "$NOPE (--assess-key-env) is not set in the watcher's environment.",
    });
  });
});

describe('a record that cannot be written', () => {
  it('ends the cycle (no loop of pauses)', async () => {
    const w = setup([go('x')], watcher({}, [report('a')]));
    let writes = 0;
    const broken = w.records.update.bind(w.records);
    w.deps.records = {
      update: async (name, change) => {
        if (++writes > 2) throw new Error('ENOSPC');
        return broken(name, change);
      },
    };
    // It ends (as a cycle whose record is gone), having tried a bounded number of writes.
    expect(await runCycles(w.deps, 'w', signal())).toBe('removed');
    expect(writes).toBeLessThan(10);
    expect(w.pane.typed).toEqual([]);
  });
});
