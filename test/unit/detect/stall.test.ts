// The stall watchdog on made-up looks: a screen that holds still for the stall time is a
// `quiet` stall, told once; one whose only moving row is the agent's busy row is `spinning`;
// any other change, a dialog or a hook mark ends it (told once) and starts the clock again.
import {describe, expect, it} from 'vitest';
import {describeStall, StallWatch} from '../../../src/detect/stall.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const BUSY = [/esc to interrupt/];
const view = (...rows: string[]) => paneViewOf(rows);

describe('StallWatch', () => {
  it('a still screen is a quiet stall once the stall time has passed, told once', () => {
    const w = new StallWatch(5_000, BUSY, [], 0);
    const still = view('$ make', 'building');
    expect(w.observe({view: still, nowMs: 1_000, dialog: false})).toBeUndefined();
    expect(w.observe({view: still, nowMs: 4_999, dialog: false})).toBeUndefined();
    expect(w.observe({view: still, nowMs: 5_000, dialog: false})).toEqual({
      began: {kind: 'quiet', sinceMs: 0, quietMs: 5_000, count: 1},
    });
    expect(w.observe({view: still, nowMs: 9_000, dialog: false})).toBeUndefined();
    expect(w.current?.count).toBe(1);
  });

  it('only the busy row moving is a spinning stall; the screen moving again ends it', () => {
    const w = new StallWatch(3_000, BUSY, [], 0);
    const spin = (n: number) => view('❯ fix it', `✻ Thinking… (${n}s · esc to interrupt)`);
    for (let t = 0; t < 3_000; t += 1_000)
      expect(w.observe({view: spin(t), nowMs: t, dialog: false})).toBeUndefined();
    expect(w.observe({view: spin(3), nowMs: 3_000, dialog: false})).toEqual({
      began: {kind: 'spinning', sinceMs: 0, quietMs: 3_000, count: 1},
    });
    const moved = view('❯ fix it', '● Done.', `✻ Thinking… (4s · esc to interrupt)`);
    expect(w.observe({view: moved, nowMs: 4_000, dialog: false})).toEqual({
      over: {stall: {kind: 'spinning', sinceMs: 0, quietMs: 3_000, count: 1}, lastedMs: 4_000},
    });
    expect(w.current).toBeUndefined();
  });

  it('output the looks did not catch (the output events) still makes it spinning, not quiet', () => {
    const w = new StallWatch(2_000, [], [], 0);
    const still = view('x');
    w.observe({view: still, nowMs: 0, dialog: false});
    expect(w.observe({view: still, nowMs: 2_500, lastOutputMs: 1_200, dialog: false})).toEqual({
      began: {kind: 'spinning', sinceMs: 0, quietMs: 2_500, count: 1},
    });
  });

  it('--ignore masks leave a clock out of the comparison', () => {
    const w = new StallWatch(2_000, [], [/\d\d:\d\d:\d\d/], 0);
    w.observe({view: view('at 10:00:00'), nowMs: 0, dialog: false});
    expect(w.observe({view: view('at 10:00:02'), nowMs: 2_000, dialog: false})).toMatchObject({
      began: {kind: 'spinning'},
    });
  });

  it('a dialog on screen is a person asked, never a stall; a hook mark starts the clock again', () => {
    const w = new StallWatch(2_000, [], [], 0);
    const still = view('Do you want to proceed?');
    expect(w.observe({view: still, nowMs: 5_000, dialog: true})).toBeUndefined();
    expect(w.observe({view: still, nowMs: 6_000, dialog: false})).toBeUndefined();
    expect(w.touch(7_000)).toBeUndefined();
    expect(w.observe({view: still, nowMs: 8_999, dialog: false})).toBeUndefined();
    expect(w.observe({view: still, nowMs: 9_000, dialog: false})).toMatchObject({
      began: {kind: 'quiet', count: 1},
    });
    expect(w.touch(9_500)).toMatchObject({over: {lastedMs: 2_500}});
    expect(w.observe({view: still, nowMs: 11_500, dialog: false})).toMatchObject({
      began: {count: 2},
    });
  });

  it('describes a stall in words', () => {
    expect(describeStall({kind: 'quiet', quietMs: 300_000})).toBe('no output for 5m00s');
    expect(describeStall({kind: 'spinning', quietMs: 90_000})).toBe(
      'only its spinner moved for 1m30s',
    );
  });
});

describe('StallWatch kinds as the program says', () => {
  it('an agent that says it works is spinning; one at its prompt is quiet, whatever else moved', () => {
    const busy = new StallWatch(2_000, [], [], 0);
    busy.observe({view: view('x'), nowMs: 0, dialog: false, busy: true});
    expect(busy.observe({view: view('x'), nowMs: 2_000, dialog: false, busy: true})).toMatchObject({
      began: {kind: 'spinning'},
    });
    const idle = new StallWatch(2_000, [/^ {12,}\S/], [], 0);
    idle.observe({view: view('❯', '             a notice'), nowMs: 0, dialog: false, busy: false});
    const later = view('❯', '             another notice');
    expect(idle.observe({view: later, nowMs: 2_000, dialog: false, busy: false})).toMatchObject({
      began: {kind: 'quiet'},
    });
  });
});
