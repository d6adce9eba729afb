// What a job or a run does about a stall (src/job-worker/stall.ts), over made-up and captured screens:
// notify tells once per stall; continue types its line only at an idle, empty prompt and at
// most N times, then tells; cancel ends the wait; each is recorded, and the record's mark is
// set while the stall lasts.
import {describe, expect, it} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import type {OnStall, Stall} from '../../../src/detect/stall.js';
import {type StallDeps, stallHook} from '../../../src/job-worker/stall.js';
import type {Change} from '../../../src/notify/tell.js';
import type {InputState} from '../../../src/process/foreground.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

function world(onStall: OnStall, o: {input?: InputState; agent?: boolean} = {}) {
  const clock = new FakeClock(0);
  const events: Array<{name: string; data: object}> = [];
  const told: Change[] = [];
  const typed: string[] = [];
  const marks: unknown[] = [];
  const deps: StallDeps = {
    clock,
    note: async (name, data) => void events.push({name, data}),
    mark: async (stalled) => void marks.push(stalled),
    tell: async (change) => void told.push(change),
    input: async () => o.input ?? {kind: 'waiting-for-input', program: 'bash'},
    type: async (line) => {
      typed.push(line);
      return 'submitted';
    },
  };
  const hook = stallHook(deps, {
    policy: {stallMs: 5_000, onStall, continueText: 'Continue.'},
    pane: '%1',
    profile: o.agent ? PROFILES.claude! : PROFILES.shell,
    ignore: [],
    state: 'waiting',
  });
  const stall = (count: number): Stall => ({kind: 'quiet', sinceMs: 0, quietMs: 5_000, count});
  return {hook, events, told, typed, marks, stall};
}

const shellPrompt: PaneView = paneViewOf(['$ make', 'done', '$ ']);

describe('stallHook', () => {
  it('notify: recorded, marked and told once; over: recorded and the mark cleared', async () => {
    const w = world({kind: 'notify'});
    expect(await w.hook.began(w.stall(1), shellPrompt)).toBe('go-on');
    expect(w.told).toEqual([
      {event: 'stalled', state: 'waiting', kind: 'quiet', reason: 'Stalled: no output for 5.0s.'},
    ]);
    expect(w.events).toEqual([
      {
        name: 'stalled',
        data: {pane: '%1', kind: 'quiet', quietMs: 5_000, count: 1, action: 'notify'},
      },
    ]);
    expect(w.marks).toEqual([{kind: 'quiet', since: new Date(0).toISOString(), count: 1}]);
    await w.hook.over(w.stall(1), 7_000);
    expect(w.events.at(-1)).toEqual({name: 'stall-over', data: {pane: '%1', lastedMs: 7_000}});
    expect(w.marks.at(-1)).toBeUndefined();
    expect(w.typed).toEqual([]);
  });

  it('continue:2 at an idle shell prompt: types twice, each recorded; the third stall is told', async () => {
    const w = world({kind: 'continue', max: 2});
    expect(await w.hook.began(w.stall(1), shellPrompt)).toBe('go-on');
    expect(await w.hook.began(w.stall(2), shellPrompt)).toBe('go-on');
    expect(w.typed).toEqual(['Continue.', 'Continue.']);
    expect(w.told).toEqual([]);
    expect(w.events.filter((e) => e.name === 'continued').map((e) => e.data)).toEqual([
      {pane: '%1', text: 'Continue.', n: 1, max: 2, delivery: 'submitted'},
      {pane: '%1', text: 'Continue.', n: 2, max: 2, delivery: 'submitted'},
    ]);
    expect(await w.hook.began(w.stall(3), shellPrompt)).toBe('go-on');
    expect(w.typed).toHaveLength(2);
    expect(w.told).toHaveLength(1);
    expect(w.told[0]?.reason).toContain('typed its 2 line(s) already');
  });

  it('continue: a command still running in the shell is not an idle prompt: nothing typed, told', async () => {
    const w = world({kind: 'continue', max: 3}, {input: {kind: 'running', program: 'sleep'}});
    expect(await w.hook.began(w.stall(1), shellPrompt)).toBe('go-on');
    expect(w.typed).toEqual([]);
    expect(w.told[0]?.reason).toContain('not at an idle prompt');
  });

  it('continue on Claude Code: typed at its idle composer, never while it is busy or at a dialog', async () => {
    for (const [screen, types] of [
      ['claude-idle-empty', true],
      ['claude-busy', false],
      ['claude-permission-bash', false],
      ['claude-draft', false],
    ] as const) {
      const w = world({kind: 'continue', max: 3}, {agent: true});
      await w.hook.began(w.stall(1), capturedScreen(screen));
      expect(w.typed.length > 0, screen).toBe(types);
      expect(w.told.length > 0, screen).toBe(!types);
    }
  });

  it('cancel: recorded and told, and the wait ends', async () => {
    const w = world({kind: 'cancel'});
    expect(await w.hook.began(w.stall(1), shellPrompt)).toBe('end');
    expect(w.events[0]?.data).toMatchObject({action: 'cancel'});
    expect(w.told[0]?.reason).toContain('--on-stall cancel ends the wait');
  });

  it("a dialog on the agent's screen is one (the watchdog never counts it as a stall)", () => {
    const w = world({kind: 'notify'}, {agent: true});
    expect(w.hook.dialogIn(capturedScreen('claude-permission-bash'))).toBe(true);
    expect(w.hook.dialogIn(capturedScreen('claude-idle-empty'))).toBe(false);
  });
});
