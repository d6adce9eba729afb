// What a control client hears of each pane (issue 44): a held pane to the millisecond, a busy
// held pane by its subscription's checks once a second, panes nobody holds muted — and what
// each says of when the pane last changed, never sooner than it did.
import {afterEach, beforeEach, describe, expect, test, vi} from 'vitest';
import {CHANGE_FORMAT, LULL_FORMAT} from '../../../src/tmux/follow-format.js';
import {COARSE_AFTER_MS, subscriptionName} from '../../../src/tmux/hearing-state.js';
import {PaneHearing} from '../../../src/tmux/pane-hearing.js';

/** A second boundary of the wall clock, so that checks' seconds are easy to reason about. */
const T0 = 1_800_000_000_000;

function world() {
  const sent: string[] = [];
  /** What tmux answers when asked for a window's last second (a lull's second look). */
  const tmux = {activity: undefined as number | undefined};
  const hearing = new PaneHearing({
    switches: {
      setOutput: (pane, state) => sent.push(`${state} ${pane}`),
      subscribe: (name, pane, format) => sent.push(`subscribe ${name} ${pane} ${format}`),
      unsubscribe: (name) => sent.push(`unsubscribe ${name}`),
      windowActivity: async (pane) => {
        sent.push(`activity ${pane}`);
        return tmux.activity;
      },
    },
    now: () => Date.now(),
  });
  /** Run time to `at` ms after T0. */
  const to = (at: number) => vi.advanceTimersByTime(T0 + at - Date.now());
  /** `pane` printed now. */
  const print = (pane: string) => hearing.output(pane, Date.now());
  /** A check of `pane`'s subscription reported `second` (and the rest) now. */
  const check = (pane: string, second = Math.floor(Date.now() / 1_000)) =>
    hearing.subscription({
      name: subscriptionName(pane),
      paneId: pane,
      value: `${second} 0,3 10 0 0 0`,
      atMs: Date.now(),
    });
  /** A check of `pane`'s subscription reported `value` now. */
  const report = (pane: string, value: string) =>
    hearing.subscription({name: subscriptionName(pane), paneId: pane, value, atMs: Date.now()});
  return {sent, tmux, hearing, to, print, check, report};
}

/** How many times `pane`'s change was told, from now on. */
function counted(w: ReturnType<typeof world>, pane: string): () => number {
  let told = 0;
  w.hearing.onChange(pane, () => told++);
  return () => told;
}

/** Print on `pane` every `everyMs` from `from` to `until` (ms after T0). */
function printEvery(
  w: ReturnType<typeof world>,
  pane: string,
  everyMs: number,
  from: number,
  until: number,
) {
  for (let t = from; t <= until; t += everyMs) {
    w.to(t);
    w.print(pane);
  }
}

beforeEach(() => {
  vi.useFakeTimers({now: T0});
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a pane nobody holds', () => {
  test('is paused at its first output, once', () => {
    const w = world();
    w.print('%5');
    w.to(100);
    w.print('%5');
    expect(w.sent).toEqual(['pause %5']);
    expect(w.hearing.modeOf('%5')).toBe('muted');
  });

  test('held later, it is continued and counts as having printed then', () => {
    const w = world();
    w.print('%5');
    w.to(2_000);
    w.hearing.hold('%5');
    expect(w.sent).toEqual(['pause %5', 'continue %5']);
    expect(w.hearing.changedAt('%5')).toBe(T0 + 2_000);
    // Not "printed after" anything later: the reaction gate stays shut.
    expect(w.hearing.changedAfter('%5', T0 + 2_000)).toBe(false);
  });
});

describe('a held pane', () => {
  test('each output is noted to the millisecond, and told', () => {
    const w = world();
    w.hearing.hold('%1');
    const told = counted(w, '%1');
    for (const at of [120, 450]) {
      w.to(at);
      w.print('%1');
    }
    expect(w.hearing.changedAt('%1')).toBe(T0 + 450);
    expect(w.hearing.changedAfter('%1', T0 + 449)).toBe(true);
    expect(told()).toBe(2);
    expect(w.sent).toEqual([]);
  });

  test('printing about once a second is never followed: heard costs what a check would', () => {
    const w = world();
    w.hearing.hold('%1');
    printEvery(w, '%1', 900, 0, 20_000);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(w.sent).toEqual([]);
  });

  test('busy without a pause for COARSE_AFTER_MS: followed by its subscription instead', () => {
    const w = world();
    w.hearing.hold('%1');
    printEvery(w, '%1', 100, 0, COARSE_AFTER_MS);
    expect(w.hearing.modeOf('%1')).toBe('followed');
    expect(w.sent).toEqual(['pause %1', `subscribe nudge-1 %1 ${CHANGE_FORMAT}`]);
  });
});

/** Two checks reporting a change, at 5.6 s and 6.6 s, each of output in the second before its
 * own (no same-second doubt); nothing after. */
function twoChecks(w: ReturnType<typeof world>) {
  w.to(5_600);
  w.check('%1', (T0 + 4_000) / 1_000);
  w.to(6_600);
  w.check('%1', (T0 + 5_000) / 1_000);
}

describe('a followed pane', () => {
  /** A held pane followed from 5000 ms on (its last output then), and a wait that must know
   * when it is quiet (`settled` counts the times it was told so). */
  function followed() {
    const w = world();
    w.hearing.hold('%1');
    printEvery(w, '%1', 100, 0, COARSE_AFTER_MS);
    w.sent.length = 0;
    const told = {settled: 0};
    w.hearing.onSettled('%1', () => told.settled++);
    return {...w, told};
  }

  test("each check's change counts as made at the check, and is told", () => {
    const w = followed();
    const told = counted(w, '%1');
    for (const at of [5_600, 6_600]) {
      w.to(at);
      w.check('%1');
    }
    expect(w.hearing.changedAt('%1')).toBe(T0 + 6_600);
    expect(told()).toBe(2);
    // Surely after the check before (less the time a report may take), not after it.
    expect(w.hearing.changedAfter('%1', T0 + 5_000)).toBe(true);
    expect(w.hearing.changedAfter('%1', T0 + 5_600)).toBe(false);
    expect(w.sent).toEqual([]);
  });

  test('a check that reports nothing: output back on, the change dated by the last report, one check more, then heard', () => {
    const w = followed();
    twoChecks(w);
    // No report at ~7600: at 7850 the pane may have gone quiet.
    w.to(7_850);
    expect(w.sent).toEqual(['continue %1']);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 6_600);
    // Nor at ~8600: the subscription ends, the pane is heard, the wait told.
    expect(w.told.settled).toBe(0);
    w.to(9_100);
    expect(w.sent).toEqual(['continue %1', 'unsubscribe nudge-1']);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 6_600);
    expect(w.told.settled).toBe(1);
  });

  test('nobody waiting for it to settle: a followed pane that went quiet stays followed, and no timer runs', () => {
    const w = world();
    w.hearing.hold('%1');
    printEvery(w, '%1', 100, 0, COARSE_AFTER_MS);
    w.to(5_600);
    w.check('%1');
    expect(vi.getTimerCount()).toBe(0);
    w.to(60_000);
    expect(w.hearing.modeOf('%1')).toBe('followed');
    expect(w.hearing.isSettled('%1')).toBe(false);
    // A wait asks: the silence is looked for from then on.
    let told = 0;
    w.hearing.onSettled('%1', () => told++);
    w.to(61_300);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(told).toBe(1);
  });

  test('the last report came within the second of the output it saw: quiet counts from the end of that second', () => {
    const w = followed();
    // Checks at x.100: the check at 6.100 saw activity in second 6 itself, so output at
    // 6.500 would not have changed what the format shows.
    w.to(6_100);
    w.check('%1', (T0 + 6_000) / 1_000);
    w.to(7_400);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 7_000);
  });

  test('a change reported by the check after output came back counts from then', () => {
    const w = followed();
    twoChecks(w);
    w.to(7_850);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    // Printed in the gap before output came back: the next check says so.
    w.to(8_600);
    w.check('%1');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 7_850);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(w.sent).toEqual(['continue %1', 'unsubscribe nudge-1']);
  });

  test('no first report at all: it may have printed until output came back', () => {
    const w = followed();
    w.to(7_300);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 7_250);
  });

  test('followed for a minute, it looks for its silence every 3 s at most; found then, it settles a check later', () => {
    const w = followed();
    let fired = 0;
    for (let t = 5_600; t <= 65_600; t += 1_000) {
      w.to(t);
      w.check('%1', Math.floor((T0 + t - 700) / 1_000));
      fired = vi.getTimerCount();
    }
    expect(fired).toBe(1);
    expect(w.hearing.modeOf('%1')).toBe('followed');
    // Quiet from 65.6 s: found within 3 s (not 1.25 s), then one more check.
    w.to(65_600 + 1_250);
    expect(w.hearing.modeOf('%1')).toBe('followed');
    w.to(65_600 + 3_000 + 1_300);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    w.to(65_600 + 3_000 + 1_300 + 1_300);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 65_600);
  });

  test('reported every second: one silence timer, moved only when it fires', () => {
    const w = followed();
    for (let t = 5_600; t <= 15_600; t += 1_000) {
      w.to(t);
      w.check('%1', Math.floor((T0 + t - 700) / 1_000));
    }
    // Ten checks: the timers still pending are the silence timer alone.
    expect(vi.getTimerCount()).toBe(1);
    expect(w.hearing.modeOf('%1')).toBe('followed');
  });

  test('released: its subscription ends and it stays paused (muted)', () => {
    const w = world();
    const release = w.hearing.hold('%1');
    printEvery(w, '%1', 100, 0, COARSE_AFTER_MS);
    w.sent.length = 0;
    release();
    expect(w.sent).toEqual(['unsubscribe nudge-1']);
    expect(w.hearing.modeOf('%1')).toBe('muted');
    // No timer left to fire.
    w.to(20_000);
    expect(w.sent).toEqual(['unsubscribe nudge-1']);
  });

  test("another pane's subscription, or one of a name not its own, changes nothing", () => {
    const w = followed();
    w.to(5_600);
    w.hearing.subscription({
      name: 'nudge-9',
      paneId: '%1',
      value: '1 0,0 0 0 0 0',
      atMs: Date.now(),
    });
    expect(w.hearing.changedAt('%1')).toBe(T0 + COARSE_AFTER_MS);
  });
});

/** A held pane printing ten times a second until it is followed (at COARSE_AFTER_MS). */
function busyUntilFollowed(w: ReturnType<typeof world>, pane: string) {
  printEvery(w, pane, 100, 0, COARSE_AFTER_MS);
  expect(w.hearing.modeOf(pane)).toBe('followed');
}

describe('a busy pane whose waits only wait for it to go quiet (lull)', () => {
  test('is reported only when quiet, and heard again at once when nothing came since', async () => {
    const w = world();
    w.hearing.hold('%1', 'lull');
    busyUntilFollowed(w, '%1');
    expect(w.sent).toEqual(['pause %1', `subscribe nudge-1 %1 ${LULL_FORMAT}`]);
    let settled = 0;
    w.hearing.onSettled('%1', () => settled++);
    // Busy for a minute: tmux reports nothing, and nothing here wakes (no timer armed).
    w.report('%1', 'L B 0 0 0');
    w.to(65_000);
    expect(vi.getTimerCount()).toBe(0);
    const told = counted(w, '%1');
    // It went quiet in second T0/1000 + 63: tmux says so once LULL_SECONDS have passed.
    const second = T0 / 1_000 + 63;
    w.tmux.activity = second;
    w.report('%1', `L ${second} 0 0 0`);
    expect(w.hearing.changedAt('%1')).toBe((second + 1) * 1_000);
    expect(w.hearing.changedAfter('%1', second * 1_000 - 1)).toBe(true);
    expect(told()).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.sent.slice(2)).toEqual(['continue %1', 'activity %1', 'unsubscribe nudge-1']);
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(settled).toBe(1);
  });

  test('trails for one check when the window printed between the check and output coming back', async () => {
    const w = world();
    w.hearing.hold('%1', 'lull');
    busyUntilFollowed(w, '%1');
    w.to(9_000);
    const second = T0 / 1_000 + 6;
    w.tmux.activity = second + 3;
    w.report('%1', `L ${second} 0 0 0`);
    await vi.advanceTimersByTimeAsync(0);
    expect(w.hearing.modeOf('%1')).toBe('trailing');
    // The kept subscription's next check reports that change: counted as made by then.
    w.to(9_990);
    w.report('%1', 'L B 0 0 0');
    expect(w.hearing.modeOf('%1')).toBe('heard');
    expect(w.hearing.changedAt('%1')).toBe(T0 + 9_000);
  });

  test('a tmux with no clock in its formats: followed by its changes, its silence looked for', () => {
    const w = world();
    w.hearing.hold('%1', 'lull');
    busyUntilFollowed(w, '%1');
    let settled = 0;
    w.hearing.onSettled('%1', () => settled++);
    w.to(5_500);
    w.report('%1', 'L X 0 0 0');
    expect(w.sent.at(-1)).toBe(`subscribe nudge-1 %1 ${CHANGE_FORMAT}`);
    // No report comes: the silence timer finds it quiet, output comes back on.
    w.to(9_000);
    expect(w.sent).toContain('continue %1');
    w.to(11_000);
    expect(settled).toBe(1);
    // The next pane followed for a lull is followed by its changes from the start.
    w.hearing.hold('%2', 'lull');
    printEvery(w, '%2', 100, 11_000, 11_000 + COARSE_AFTER_MS);
    expect(w.sent.at(-1)).toBe(`subscribe nudge-2 %2 ${CHANGE_FORMAT}`);
  });

  test('a wait that needs its changes turns the subscription back to them', () => {
    const w = world();
    w.hearing.hold('%1', 'lull');
    busyUntilFollowed(w, '%1');
    const release = w.hearing.hold('%1', 'changes');
    expect(w.sent.at(-1)).toBe(`subscribe nudge-1 %1 ${CHANGE_FORMAT}`);
    release();
    expect(w.sent.at(-1)).toBe(`subscribe nudge-1 %1 ${LULL_FORMAT}`);
  });
});

describe('a busy pane whose waits only look for patterns (search)', () => {
  const search = {searches: [{ere: 'DONE', ignoreCase: false}]};

  test('is reported when a row may match, and by its changes while one already does', () => {
    const w = world();
    w.hearing.hold('%1', search);
    busyUntilFollowed(w, '%1');
    const sparse = w.sent.at(-1) ?? '';
    expect(sparse).toMatch(/^subscribe nudge-1 %1 S .*#\{C\/r:DONE\}$/);
    const told = counted(w, '%1');
    // Its first report: no row matches. Then one does (an old line, say): followed by changes.
    w.to(5_500);
    w.report('%1', 'S 4 0 0 0 0');
    expect(w.sent.at(-1)).toBe(sparse);
    w.to(6_000);
    w.report('%1', 'S 4 0 0 0 3');
    expect(w.sent.at(-1)).toBe(`subscribe nudge-1 %1 ${CHANGE_FORMAT} #{C/r:DONE}`);
    expect(told()).toBe(2);
    // The row scrolled away: back to the search alone.
    w.to(7_000);
    w.report('%1', `${T0 / 1_000 + 7} 0,3 10 0 0 0 0`);
    expect(w.sent.at(-1)).toBe(sparse);
    expect(w.hearing.changedAt('%1')).toBe(T0 + 7_000);
  });

  test('a wait for a quiet window beside it needs the changes', () => {
    const w = world();
    w.hearing.hold('%1', search);
    w.hearing.hold('%1', 'lull');
    busyUntilFollowed(w, '%1');
    expect(w.sent.at(-1)).toBe(`subscribe nudge-1 %1 ${CHANGE_FORMAT}`);
  });
});
