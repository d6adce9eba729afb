/**
 * awaitDone: after Enter, the condition judged against what the pane shows next. The exit
 * sentinel gives the command's status; a regex reports its match; an agent's dialog ends a
 * job's wait as blocked but not a run's (its own monitor answers it); a screen that never
 * settles is a timeout that says why. Screens scripted in memory, virtual time.
 */
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {exitSentinel} from '../../../src/detect/output-watchers.js';
import {parseUntil} from '../../../src/detect/until.js';
import {type AwaitOptions, awaitDone} from '../../../src/pane/await-done.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux, fakeForeground, NO_HOOK_MARKS} from '../../helpers/fake-tmux.js';
import {capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

const SENTINEL = exitSentinel('job1');

/** The pane shows `screens` in turn, one per look (the last one repeats). */
function world(screens: Array<() => PaneView>) {
  const tmux = new FakeTmux();
  let look = 0;
  tmux.view = async () => (screens[Math.min(look++, screens.length - 1)] as () => PaneView)();
  const deps = {
    tmux,
    clock: new FakeClock(),
    activity: undefined,
    hookMarks: NO_HOOK_MARKS,
    foreground: fakeForeground(() => ({kind: 'waiting-for-input', program: 'bash'})),
    served: async () => ({served: []}),
  };
  const wait = (until: string, over: Partial<AwaitOptions> = {}) =>
    awaitDone(
      deps,
      '%1',
      {
        until: parseUntil(until),
        intervalMs: 500,
        timeoutMs: 20_000,
        stableChecks: 2,
        ignore: [],
        lines: 100,
        profile: PROFILES.shell!,
        paneCommand: 'bash',
        panePid: 100,
        onInputUnknown: () => {},
        onHookRefused: () => {},
        before: paneViewOf(['$ make']),
        dialogs: 'end',
        exitPattern: SENTINEL.pattern,
        onHookMark: () => {},
        onWorking: () => {},
        onTurnStarted: () => {},
        ...over,
      },
      new AbortController().signal,
    );
  return {tmux, wait};
}

const shell =
  (...rows: string[]) =>
  () =>
    paneViewOf(['$ make', ...rows]);

describe('awaitDone', () => {
  test('--until exit: done when the sentinel shows, with the command’s status', async () => {
    const w = world([shell('compiling'), shell('compiling', '', '__NUDGE_job1_EXIT_3__', '$ ')]);
    const got = await w.wait('exit');
    expect(got).toMatchObject({status: 'done', exitCode: 3});
  });

  test('the sentinel already on screen before Enter (an earlier run) does not count', async () => {
    const old = '__NUDGE_job1_EXIT_0__';
    const w = world([() => paneViewOf([old, '$ make', 'compiling'])]);
    const got = await w.wait('exit', {before: paneViewOf([old, '$ make'])});
    expect(got.status).toBe('timeout');
  });

  test('--until regex: done with what matched, only in output after Enter', async () => {
    const w = world([shell('compiling'), shell('compiling', 'BUILD OK in 3s', '$ ')]);
    const got = await w.wait('regex:BUILD (OK|FAILED)');
    expect(got).toMatchObject({status: 'done', match: 'BUILD OK'});
  });

  test('a screen that never settles: a timeout after --timeout that says why', async () => {
    let n = 0;
    const w = world([() => paneViewOf(['$ make', `line ${n++}`])]);
    const got = await w.wait('stable');
    expect(got.status).toBe('timeout');
    expect(got.waitedMs).toBeGreaterThanOrEqual(20_000);
    expect(got.why).toMatch(/chang/);
  });

  test("an agent's turn told started once, at the first look that shows it busy", async () => {
    const started: string[] = [];
    const idle = () => capturedScreen('claude-idle-empty');
    const busy = () => capturedScreen('claude-busy');
    const w = world([idle, busy, busy, idle, idle, idle, idle]);
    const got = await w.wait('turn', {
      profile: PROFILES.claude!,
      paneCommand: 'node',
      before: capturedScreen('claude-idle-empty'),
      onTurnStarted: (by) => started.push(by),
    });
    expect(got.status).toBe('done');
    expect(started).toEqual(['the agent showed itself at work']);
  });

  test('a shell pane is never told a turn started from its screen', async () => {
    const started: string[] = [];
    const w = world([shell('compiling'), shell('compiling', '', '__NUDGE_job1_EXIT_0__', '$ ')]);
    await w.wait('exit', {onTurnStarted: (by) => started.push(by)});
    expect(started).toEqual([]);
  });

  test.each([
    ['end', 'blocked', 'permission'],
    ['ignore', 'timeout', undefined],
  ] as const)(
    "an agent's dialog, dialogs %s (a job's wait; a run's, whose own monitor answers it): %s",
    async (dialogs, status, kind) => {
      const w = world([() => capturedScreen('claude-permission-bash')]);
      const got = await w.wait('prompt', {
        profile: PROFILES.claude!,
        paneCommand: 'node',
        before: capturedScreen('claude-idle-empty'),
        dialogs,
        timeoutMs: 5_000,
      });
      expect(got.status).toBe(status);
      expect(got.dialog?.kind).toBe(kind);
      if (status === 'blocked') expect(got.waitedMs).toBeLessThan(2_000);
    },
  );
});
