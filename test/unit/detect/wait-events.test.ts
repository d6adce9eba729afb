// The event-driven wait (output events from the control-mode transport), in virtual time:
// when it looks at the pane, when it decides, and how it falls back to polling.
import {describe, expect, test} from 'vitest';
import {LinearPattern} from '../../../src/base/pattern.js';
import {RegexWatcher} from '../../../src/detect/output-watchers.js';
import {StallWatch} from '../../../src/detect/stall.js';
import {READ_DEBOUNCE_MS} from '../../../src/detect/wait-events.js';
import {type WaitOptions, waitUntil} from '../../../src/detect/wait-until.js';
import {
  PromptWatcher,
  type ScreenWatchOptions,
  StableWatcher,
  viewKey,
  type Watcher,
} from '../../../src/detect/watchers.js';
import {OutputReader} from '../../../src/tmux/view.js';
import {ScriptedPane, VirtualClock} from '../../helpers/virtual-time.js';

const noGate: ScreenWatchOptions = {
  baselineKey: undefined,
  graceChecks: 2,
  ignore: [],
  shellPane: false,
};

/** Wait on `pane` with its own events, typed at the clock's start. */
function wait(
  pane: ScriptedPane,
  watcher: Watcher,
  o: Partial<WaitOptions> = {},
  tmux = pane.tmux(),
) {
  const {clock} = pane;
  return clock.run(
    waitUntil(tmux, pane.id, watcher, {
      intervalMs: 1_000,
      timeoutMs: 60_000,
      clock,
      signal: new AbortController().signal,
      activity: pane,
      typedAt: clock.now(),
      ...o,
    }),
  );
}

describe('--until stable without masks: silence decides, one view confirms', () => {
  test('done exactly one window after the last output, with a single view', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.printAt(10, 'one');
    pane.printAt(300, 'two');
    pane.printAt(733, 'three');
    // 3 stable checks at 1 s: the window is 2 s.
    const result = await wait(pane, new StableWatcher(2, noGate));
    expect(result).toMatchObject({status: 'done', checks: 1, watchedBy: 'events'});
    expect(pane.viewsAt).toEqual([2_733]);
    expect(pane.clock.elapsed()).toBe(2_733);
  });

  test('output keeps resetting the window; no views while it flows', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.printEvery(100, 0, 5_000, (i) => `working ${i}`);
    const result = await wait(pane, new StableWatcher(2, noGate));
    expect(result.status).toBe('done');
    expect(pane.viewsAt).toEqual([7_000]);
  });

  test('the window counts from our own keys when the pane has not printed since', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    const result = await wait(pane, new StableWatcher(1, noGate));
    expect(result.status).toBe('done');
    // 2 checks: one interval, from Enter.
    expect(pane.viewsAt).toEqual([1_000]);
  });

  test('a busy pane times out at the deadline without a single view', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.printEvery(100, 0, 20_000, (i) => `spinner ${'|/-\\'[i % 4]}`);
    const result = await wait(pane, new StableWatcher(2, noGate), {timeoutMs: 10_000});
    expect(result).toMatchObject({status: 'timeout', checks: 0, watchedBy: 'events'});
    expect(pane.clock.elapsed()).toBe(10_000);
  });

  test('quiet only after the deadline: timeout, no last-moment view', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.printEvery(100, 0, 8_500, (i) => `busy ${i}`);
    const result = await wait(pane, new StableWatcher(2, noGate), {timeoutMs: 10_000});
    expect(result.status).toBe('timeout');
    expect(pane.viewsAt).toEqual([]);
    expect(pane.clock.elapsed()).toBe(10_000);
  });

  test('the reaction gate holds: an unchanged, silent screen waits out the grace period', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    const baselineKey = viewKey(pane.view(), []);
    // Window 1 s, grace 2 intervals: the first confirmation (1 s) is too early.
    const result = await wait(pane, new StableWatcher(1, {...noGate, baselineKey}));
    expect(result.status).toBe('done');
    expect(pane.viewsAt).toEqual([1_000, 2_000]);
  });

  test('output after Enter opens the gate at once', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    const baselineKey = viewKey(pane.view(), []);
    pane.printAt(5, 'echo');
    const result = await wait(pane, new StableWatcher(1, {...noGate, baselineKey}));
    expect(result.status).toBe('done');
    expect(pane.viewsAt).toEqual([1_005]);
  });

  test('process liveness: a quiet command in a shell pane is looked at each interval until the shell is back', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.currentCommand = 'sleep';
    pane.printAt(50, '$ sleep 3');
    pane.clock.at(3_000, () => {
      pane.currentCommand = 'bash';
      pane.print('$ ');
    });
    const result = await wait(pane, new StableWatcher(1, {...noGate, shellPane: true}));
    expect(result.status).toBe('done');
    // Quiet at 1050 but sleep runs; again at 2050; the prompt at 3000 starts a new window.
    expect(pane.viewsAt).toEqual([1_050, 2_050, 4_000]);
  });

  test('output while the confirming view is taken starts a new window', async () => {
    const clock = new VirtualClock();
    const pane = new ScriptedPane(clock);
    const tmux = pane.tmux();
    let first = true;
    const view = tmux.view.bind(tmux);
    tmux.view = async (id, rows) => {
      const v = await view(id, rows);
      if (first) {
        first = false;
        pane.print('printed as we looked');
      }
      return v;
    };
    const result = await wait(pane, new StableWatcher(1, noGate), {}, tmux);
    expect(result.status).toBe('done');
    expect(pane.viewsAt).toEqual([1_000, 2_000]);
  });
});

describe('conditions that read the screen', () => {
  test('--until stable with masks: views after output settles, the window from the last real change', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['clock 00:00:00', '$ ']);
    const ignore = [/clock \d\d:\d\d:\d\d/];
    const watcher = new StableWatcher(2, {...noGate, ignore});
    expect(watcher.quietWindowMs(1_000)).toBeUndefined();
    pane.printAt(100, 'working');
    pane.printAt(200, 'finished');
    // The clock ticks every second while idle: output that changes only masked text.
    for (let s = 1; s <= 9; s++) {
      pane.clock.at(s * 1_000, () => {
        pane.lines[0] = `clock 00:00:0${s}`;
        pane.print(pane.lines.at(-1) ?? '', true);
      });
    }
    const result = await wait(pane, watcher);
    expect(result).toMatchObject({status: 'done', watchedBy: 'events'});
    // At start; 50 ms after each output; the masked screen last changed with "finished"
    // (200), so the 2 s window ends between the ticks at 2 s and 3 s.
    const d = READ_DEBOUNCE_MS;
    expect(pane.viewsAt).toEqual([0, 100 + d, 200 + d, 1_000 + d, 2_000 + d, 3_000 + d]);
  });

  test('regex: a view once output settles, not an interval later', async () => {
    const clock = new VirtualClock();
    const pane = new ScriptedPane(clock, ['$ run'], 10);
    pane.printAt(500, 'compiling');
    pane.printAt(520, 'listening on 8080');
    const watcher = new RegexWatcher(
      new OutputReader({row: 1, col: 0}),
      /listening on \d+/,
      [],
      100,
    );
    const result = await wait(pane, watcher);
    expect(result).toMatchObject({status: 'done', verdict: {match: 'listening on 8080'}});
    expect(pane.viewsAt).toEqual([0, 520 + READ_DEBOUNCE_MS]);
  });

  test('regex: output that never pauses is still read once per interval', async () => {
    const clock = new VirtualClock();
    const pane = new ScriptedPane(clock, ['$ serve'], 10);
    for (let t = 10, i = 0; t < 4_000; t += 20, i++) pane.printAt(t, `log ${i}`);
    pane.printAt(2_500, 'ready');
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /^ready$/, [], 1_000);
    const result = await wait(pane, watcher);
    expect(result.status).toBe('done');
    // Start, then one interval after the stream began each time: 10+1000, ~2010+..., and
    // the one that sees "ready".
    expect(pane.viewsAt[0]).toBe(0);
    expect(pane.viewsAt.length).toBe(4);
    for (const [i, at] of pane.viewsAt.entries()) {
      if (i > 0) expect(at - (pane.viewsAt[i - 1] ?? 0)).toBeLessThanOrEqual(1_000 + 20);
    }
  });

  test('regex on a quiet pane: looks an interval apart, then further apart while it stays quiet', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /never/, [], 100);
    const result = await wait(pane, watcher, {timeoutMs: 40_000});
    expect(result.status).toBe('timeout');
    // 1, 2, 4, then 8 s apart (QUIET_LOOK_MAX_MS).
    expect(pane.viewsAt).toEqual([0, 1_000, 3_000, 7_000, 15_000, 23_000, 31_000, 39_000]);
  });

  test('output brings the looks back to an interval apart', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
    pane.printAt(7_500, 'a line');
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /never/, [], 100);
    const result = await wait(pane, watcher, {timeoutMs: 10_000});
    expect(result.status).toBe('timeout');
    expect(pane.viewsAt).toEqual([0, 1_000, 3_000, 7_000, 7_500 + READ_DEBOUNCE_MS, 8_550]);
  });

  test('with the stall watchdog on, a quiet pane is looked at every interval', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /never/, [], 100);
    const stall = new StallWatch(600_000, [], [], pane.clock.now());
    const result = await wait(pane, watcher, {
      timeoutMs: 4_500,
      stall: {
        watch: stall,
        dialogIn: () => false,
        busyIn: () => undefined,
        began: async () => 'go-on',
        over: async () => {},
      },
    });
    expect(result.status).toBe('timeout');
    expect(pane.viewsAt).toEqual([0, 1_000, 2_000, 3_000, 4_000]);
  });

  test('what each wait asks to be told of its pane while it is busy', async () => {
    const asked = async (watcher: Watcher, o: Partial<WaitOptions> = {}) => {
      const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
      await wait(pane, watcher, {timeoutMs: 2_000, ...o});
      return pane.needs;
    };
    const regex = () => new RegexWatcher(new OutputReader({row: 1, col: 0}), /DONE \d/, [], 100);
    // A pattern: tmux's own search for it. A stability window: the pane going quiet.
    expect(await asked(regex())).toEqual([
      {searches: [{ere: 'DONE [0123456789]', ignoreCase: false}]},
    ]);
    expect(await asked(new StableWatcher(2, noGate))).toEqual(['lull']);
    // The stall watchdog times what it sees: every change.
    const stall = {
      watch: new StallWatch(600_000, [], [], 0),
      dialogIn: () => false,
      busyIn: () => undefined,
      began: async () => 'go-on' as const,
      over: async () => {},
    };
    expect(await asked(regex(), {stall})).toEqual(['changes']);
    expect(await asked(new StableWatcher(2, noGate), {stall})).toEqual(['changes']);
    // A pattern tmux cannot be asked for (a flag group): every change.
    const flagged = new LinearPattern('(?i)done');
    expect(
      await asked(new RegexWatcher(new OutputReader({row: 1, col: 0}), flagged, [], 100)),
    ).toEqual(['changes']);
  });

  test('a pane closed while quiet ends the wait at its layout change, not at the next look', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
    pane.layoutChangeAt(5_000, true);
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /never/, [], 100);
    await expect(wait(pane, watcher)).rejects.toMatchObject({kind: 'no-target'});
    expect(pane.checksAt).toEqual([5_000]);
    expect(pane.viewsAt).toEqual([0, 1_000, 3_000]);
  });

  test('a layout change elsewhere is checked and the wait goes on', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['$ wait'], 10);
    pane.layoutChangeAt(2_000);
    pane.printAt(4_000, 'found it');
    const watcher = new RegexWatcher(new OutputReader({row: 1, col: 0}), /found/, [], 100);
    const result = await wait(pane, watcher);
    expect(result.status).toBe('done');
    expect(pane.checksAt).toEqual([2_000]);
  });

  test('prompt: two views with the prompt, the second an interval after output settled', async () => {
    const pane = new ScriptedPane(new VirtualClock(), ['> '], 3);
    const watcher = new PromptWatcher((v) => v.rows.filter(Boolean).at(-1) === '> ', {
      ...noGate,
      baselineKey: viewKey(pane.view(), []),
    });
    pane.printAt(100, 'thinking');
    pane.printAt(1_500, 'answer');
    pane.printAt(1_510, '> ');
    const result = await wait(pane, watcher);
    expect(result.status).toBe('done');
    expect(pane.viewsAt.slice(-2)).toEqual([1_510 + READ_DEBOUNCE_MS, 2_560]);
  });
});

describe('falling back to polling', () => {
  test.each<[string, (pane: ScriptedPane) => void, number[]]>([
    [
      'when the event source ends mid-wait (control client gone), polling finishes the job (no views before the end)',
      (pane) => {
        pane.printEvery(100, 0, 1_000, (i) => `busy ${i}`);
        pane.clock.at(1_500, () => pane.end());
      },
      [1_500, 2_500, 3_500],
    ],
    [
      'a pane out of reach of the events (another session) is polled from the start',
      (pane) => {
        pane.inReach = false;
      },
      [0, 1_000, 2_000],
    ],
    [
      'a pane that leaves their reach is not called quiet: it is polled',
      (pane) => {
        pane.printAt(100, 'moved away');
        pane.clock.at(200, () => {
          pane.inReach = false;
        });
      },
      [2_100, 3_100, 4_100],
    ],
  ])('%s', async (_, script, viewsAt) => {
    const pane = new ScriptedPane(new VirtualClock());
    script(pane);
    const result = await wait(pane, new StableWatcher(2, noGate));
    expect(result).toMatchObject({status: 'done', watchedBy: 'polling'});
    // Three identical polls an interval apart.
    expect(pane.viewsAt).toEqual(viewsAt);
  });

  test('events ending in the middle of a quiet window: polling takes over at once, no pane checks in a loop', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    pane.printAt(100, 'one line');
    pane.clock.at(1_500, () => pane.end());
    const result = await wait(pane, new StableWatcher(3, noGate));
    expect(result).toMatchObject({status: 'done', watchedBy: 'polling'});
    expect(pane.checksAt).toEqual([]);
    expect(pane.viewsAt).toEqual([1_500, 2_500, 3_500, 4_500]);
  });

  test('without activity the loop polls as before', async () => {
    const pane = new ScriptedPane(new VirtualClock());
    const result = await wait(pane, new StableWatcher(1, noGate), {activity: undefined});
    expect(result).toMatchObject({status: 'done', watchedBy: 'polling'});
    expect(pane.viewsAt).toEqual([0, 1_000]);
  });
});

test('cancelling rejects with the abort reason, at once', async () => {
  const pane = new ScriptedPane(new VirtualClock());
  pane.printEvery(100, 0, 60_000, (i) => `busy ${i}`);
  const controller = new AbortController();
  pane.clock.at(5_000, () => controller.abort(new Error('cancelled')));
  await expect(
    wait(pane, new StableWatcher(2, noGate), {signal: controller.signal}),
  ).rejects.toThrow('cancelled');
  expect(pane.clock.elapsed()).toBe(5_000);
});
