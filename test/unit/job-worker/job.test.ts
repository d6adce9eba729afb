import {describe, expect, test} from 'vitest';
import type {HookMarkSource} from '../../../src/agents/hook-marks.js';
import {err, ok} from '../../../src/base/result.js';
import {runJob} from '../../../src/job-worker/job.js';
import type {JobEvents, JobOutcome, RunningState} from '../../../src/jobs/events.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import type {JobRequest} from '../../../src/jobs/request.js';
import type {PaneLock} from '../../../src/locks/pane-lock.js';
import type {Change} from '../../../src/notify/tell.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux, NO_PANE_MEMORY, UNREAD_FOREGROUND} from '../../helpers/fake-tmux.js';
import {jobRequest} from '../../helpers/job-request.js';

/** Keeps events in memory. */
class MemoryRecorder implements JobRecorder {
  readonly events: Array<{event: string; data: Record<string, unknown>}> = [];
  async transition(state: RunningState, data: object): Promise<void> {
    this.events.push({event: state, data: {...data}});
  }
  async event(name: keyof JobEvents, data: object): Promise<void> {
    this.events.push({event: name, data: {...data}});
  }
  async mark(patch: object): Promise<void> {
    this.events.push({event: 'mark', data: {...patch}});
  }
  async end({state, ...data}: JobOutcome): Promise<void> {
    this.events.push({event: state, data});
  }
  names(): string[] {
    return this.events.map((e) => e.event);
  }
}

/** A lock that is always free (or never, with `timeout`); lease.signal can be aborted. */
function fakeLock(opts: {timeout?: boolean} = {}) {
  const compromise = new AbortController();
  let released = 0;
  const lock: Pick<PaneLock, 'acquire' | 'hold'> = {
    hold: async () => ({stop: () => {}}),
    async acquire() {
      if (opts.timeout) return {ok: false, error: {reason: 'lock-timeout', holder: 'other-job'}};
      return {
        ok: true,
        value: {
          signal: compromise.signal,
          assertHeld: () => compromise.signal.throwIfAborted(),
          release: async () => void released++,
        },
      };
    },
  };
  return {lock, compromise, released: () => released};
}

/** The request made last: the job's stored request (nothing edits it here). */
let stored: JobRequest | undefined;

function makeRequest(
  overrides: Partial<JobRequest['options']> = {},
  text = 'npm test',
): JobRequest {
  stored = jobRequest({
    text,
    createdAt: new Date().toISOString(),
    given: {stableChecks: 2, timeout: '60s'},
    exact: overrides,
  });
  return stored;
}

function setup(
  info: ConstructorParameters<typeof FakeTmux>[0] = {},
  lockOpts: {timeout?: boolean} = {},
) {
  const tmux = new FakeTmux(info);
  const clock = new FakeClock();
  const recorder = new MemoryRecorder();
  const lock = fakeLock(lockOpts);
  const told: Change[] = [];
  return {
    tmux,
    clock,
    recorder,
    lock,
    deps: {
      tmux,
      clock,
      recorder,
      lockFor: () => lock.lock,
      requestNow: async () => (stored ? ok(stored) : err('no request was made')),
      pid: 1,
      activity: undefined,
      hookMarks: noHookMarks,
      served: async () => ({served: []}),
      foreground: UNREAD_FOREGROUND,
      paneMemory: NO_PANE_MEMORY,
      tell: async (change: Change) => void told.push(change),
      // No profile of these tests has a door: never asked (the door tests give their own).
      doors: {
        deliver: async () => {
          throw new Error('no door was expected');
        },
      },
      // No notice of these tests has a {reply}: never asked.
      replies: async () => {
        throw new Error('no reply was expected');
      },
      // The foreground is never read here (UNREAD_FOREGROUND): nothing to stop.
      stopWork: {
        wanted: async () => true,
        endGroup: async () => {
          throw new Error('no process group was expected to be ended');
        },
        interruptShell: () => {
          throw new Error('no shell was expected to be interrupted');
        },
      },
    },
    told,
  };
}

/** No hook ever reports (and no file events): the backstop only. */
const noHookMarks: HookMarkSource = {
  read: async () => undefined,
  readNeeds: async () => undefined,
  readRefused: async () => undefined,
  version: () => 0,
  changed: (signal, backstopMs) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(resolve, backstopMs);
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      });
    }),
};

describe('runJob', () => {
  test('walks queued → locked → typing → waiting → notifying → done', async () => {
    const {deps, recorder, tmux, lock} = setup();
    tmux.screens = ['$ npm test', 'running', 'ok\n$ ', 'ok\n$ ', 'ok\n$ '];
    const outcome = await runJob(deps, makeRequest(), new AbortController().signal);
    expect(outcome).toMatchObject({state: 'done', notified: true});
    expect(recorder.names()).toEqual([
      'worker-started',
      'locked',
      'typing',
      'typed',
      // A shell's pane: the shell took the line, so its command began.
      'turn-started',
      'waiting',
      // The fake pane has no /proc: the job says liveness decides as before.
      'input-state-unknown',
      'condition-met',
      'notifying',
      'notified',
      'done',
    ]);
    // shell profile: the input line was empty, so the text goes in as is, then Enter; the
    // notice goes to the shell at its prompt as a comment, which it does not run.
    expect(tmux.typed()).toBe('npm test\r# [SYSTEM COMMAND] Command complete. Resume.\r');
    expect(lock.released()).toBe(1);
  });

  test('types one character per tmux call at a non-zero type delay, the line at once at 0', async () => {
    const slow = setup();
    await runJob(
      slow.deps,
      makeRequest({clear: false, notify: false}, 'ab;'),
      new AbortController().signal,
    );
    expect(slow.tmux.calls.filter((c) => c[0] === 'type')).toEqual([
      ['type', 'a'],
      ['type', 'b'],
      ['type', ';'],
    ]);
    const fast = setup();
    await runJob(
      fast.deps,
      makeRequest({clear: false, notify: false, typeDelayMs: 0}, 'ab;'),
      new AbortController().signal,
    );
    expect(fast.tmux.calls.filter((c) => c[0] === 'type')).toEqual([['type', 'ab;']]);
  });

  test('a program nudge does not know gets the text and Enter alone (no Escape, no C-u); --no-clear and --no-enter are honoured', async () => {
    // The pane's own program (not one a shell runs in its foreground: that one waits).
    const unknown = setup({currentCommand: 'node', startCommand: 'node'});
    await runJob(unknown.deps, makeRequest({notify: false}, 'x'), new AbortController().signal);
    expect(unknown.tmux.typed()).toBe('x\r');
    const bare = setup();
    await runJob(
      bare.deps,
      makeRequest({notify: false, clear: false, enter: false}, 'x'),
      new AbortController().signal,
    );
    expect(bare.tmux.typed()).toBe('x');
  });

  test('a pane that never settles times out and the notice says so', async () => {
    const {deps, tmux} = setup();
    tmux.screens = Array.from({length: 500}, (_, i) => `spinner ${i}`);
    const outcome = await runJob(
      deps,
      makeRequest({timeoutMs: 10_000, clear: false}),
      new AbortController().signal,
    );
    expect(outcome.state).toBe('timeout');
    expect(outcome.notified).toBe(true);
    // The shell is not at its prompt: the notice is shown, never typed where it would run.
    expect(tmux.typed()).toBe('npm test\r');
    expect(tmux.calls.find((c) => c[0] === 'announce')?.[1]).toMatch(/Timed out after 1\d\.\ds/);
    expect(outcome).toMatchObject({noticeVia: 'message', noticeDelivery: 'shown'});
  });

  test('copy mode is left before typing', async () => {
    const {deps, tmux, recorder} = setup({inMode: true, mode: 'copy-mode'});
    await runJob(deps, makeRequest({notify: false}), new AbortController().signal);
    expect(tmux.calls[0]).toEqual(['leave-mode']);
    expect(recorder.names()).toContain('left-mode');
  });

  test.each([
    [{dead: true}, /is dead/, 'failed'],
    [{inputOff: true}, /input turned off/, 'failed'],
    [{synchronized: true}, /synchronize-panes/, 'failed'],
    // Another server on the socket: the job's server is gone, and the job with it.
    [{serverPid: 7}, /server restarted/, 'lost'],
    [{paneId: '%9'}, /is gone/, 'failed'],
  ])('refuses to type blind into a pane with %j', async (info, reason, state) => {
    const {deps, tmux} = setup(info);
    const outcome = await runJob(deps, makeRequest(), new AbortController().signal);
    expect(outcome.state).toBe(state);
    expect(outcome.reason).toMatch(reason);
    expect(tmux.calls.filter((c) => c[0] === 'type' || c[0] === 'keys')).toEqual([]);
  });

  test('the pane vanishing while waiting fails the job and releases the lock', async () => {
    const {deps, tmux, lock} = setup();
    tmux.goneAfterCaptures = 1;
    const outcome = await runJob(deps, makeRequest(), new AbortController().signal);
    expect(outcome).toMatchObject({state: 'failed', notified: false});
    expect(outcome.reason).toMatch(/Pane %1 is gone \(closed while waiting\)/);
    expect(lock.released()).toBe(1);
  });

  test('lock timeout fails with a reason naming the holder', async () => {
    const {deps, recorder} = setup({}, {timeout: true});
    const outcome = await runJob(deps, makeRequest(), new AbortController().signal);
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toMatch(/job other-job holds it.*--lock-timeout/);
    expect(recorder.names().at(-1)).toBe('failed');
  });

  test('cancel while typing stops, clears the partial line and records progress', async () => {
    const {deps, tmux} = setup();
    const controller = new AbortController();
    const original = tmux.typeLiteral.bind(tmux);
    let n = 0;
    tmux.typeLiteral = async (pane, chars) => {
      await original(pane, chars);
      if (++n === 3) controller.abort();
    };
    const outcome = await runJob(deps, makeRequest({}, 'abcdefgh'), controller.signal);
    expect(outcome.state).toBe('cancelled');
    expect(outcome.reason).toBe('Cancelled while typing after typing 3 of 8 characters.');
    // The shell's input line was empty, so nothing was cleared before typing.
    expect(tmux.typed()).toBe('abc<C-e><C-u>');
  });

  test('a cancelled job clears its half-typed line before it frees the pane; no key after the release', async () => {
    const {deps, tmux} = setup();
    const controller = new AbortController();
    // The lease as the real one behaves: every key checked, none after release.
    let released = false;
    deps.lockFor = () => ({
      hold: async () => ({stop: () => {}}),
      acquire: async () => ({
        ok: true as const,
        value: {
          signal: new AbortController().signal,
          assertHeld: () => {
            if (released) throw new Error('released');
          },
          release: async () => {
            released = true;
            tmux.calls.push(['keys', '<released>']);
          },
        },
      }),
    });
    const typeLiteral = tmux.typeLiteral.bind(tmux);
    let n = 0;
    tmux.typeLiteral = async (pane, chars) => {
      await typeLiteral(pane, chars);
      if (++n === 3) controller.abort();
    };
    // Each clearing key takes a while to reach tmux (as over a real socket).
    const pressKeys = tmux.pressKeys.bind(tmux);
    tmux.pressKeys = async (pane, keys) => {
      await new Promise((r) => setTimeout(r, 20));
      await pressKeys(pane, keys);
    };
    const outcome = await runJob(deps, makeRequest({}, 'abcdefgh'), controller.signal);
    expect(outcome.state).toBe('cancelled');
    const keys = tmux.calls.filter((c) => c[0] === 'keys').map((c) => c.slice(1).join(' '));
    expect(keys.at(-1)).toBe('<released>');
    expect(keys.slice(0, -1).join(' ')).toMatch(/C-u/);
  });

  test('no key goes out without a lease', async () => {
    const {deps, tmux} = setup();
    deps.lockFor = () => ({
      hold: async () => ({stop: () => {}}),
      acquire: async () => ({
        ok: true as const,
        // A lock implementation that forgot its lease: the guard refuses, nothing is typed.
        value: undefined as never,
      }),
    });
    const outcome = await runJob(deps, makeRequest({}, 'abc'), new AbortController().signal);
    expect(outcome.state).toBe('failed');
    expect(tmux.typed()).toBe('');
  });

  test('a compromised lock stops the job instead of typing on', async () => {
    const {deps, tmux, lock} = setup();
    const original = tmux.typeLiteral.bind(tmux);
    tmux.typeLiteral = async (pane, chars) => {
      await original(pane, chars);
      lock.compromise.abort(new Error('ECOMPROMISED'));
    };
    const outcome = await runJob(
      deps,
      makeRequest({clear: false}, 'abcdef'),
      new AbortController().signal,
    );
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toMatch(/pane lock was lost/);
    expect(tmux.typed()).toBe('a');
  });
});

test('a tmux call killed by the cancel signal still ends as cancelled', async () => {
  const tmux = new FakeTmux();
  const controller = new AbortController();
  tmux.typeLiteral = async () => {
    controller.abort();
    throw new Error('tmux send-keys failed: Command failed (killed by SIGTERM)');
  };
  const {deps} = setup();
  const outcome = await runJob(
    {...deps, tmux},
    makeRequest({clear: false}, 'abc'),
    controller.signal,
  );
  expect(outcome.state).toBe('cancelled');
});

describe('an agent recognised earlier', () => {
  test('keeps its profile when its screen shows no marker, and an unreadable composer is never cleared', async () => {
    const {deps, recorder, tmux} = setup({currentCommand: 'node'});
    // Nothing on screen ("$ ") says which agent this is, or where its input line is.
    const remembered: string[] = [];
    deps.paneMemory = {
      recall: async () => 'codex',
      remember: async (_pane, _pid, profile) => void remembered.push(profile),
    };
    const outcome = await runJob(deps, makeRequest(), new AbortController().signal);
    const typing = recorder.events.find((e) => e.event === 'typing');
    expect(typing?.data).toMatchObject({profile: 'codex'});
    expect(String(typing?.data.profileReason)).toMatch(/recognised as codex earlier/);
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toMatch(/shows no input line nudge can read/);
    // Nothing was pressed or typed into what it could not read.
    expect(tmux.typed()).toBe('');
    expect(recorder.names()).toContain('waiting-for-composer');
  });
});
