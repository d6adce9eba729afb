// The server's summary of nudge's panes: what status-line prints and what the workers keep in
// @nudge-status, and how a write that raced another's is put right.
import {describe, expect, test} from 'vitest';
import {
  refreshStatusOption,
  STATUS_OPTION,
  statusSegment,
  summarize,
} from '../../../src/status-bar/pane-states.js';
import type {PaneStateRow} from '../../../src/tmux/pane-options.js';

function row(paneId: string, target: string, state: string, queue = ''): PaneStateRow {
  return {
    paneId,
    target,
    command: 'bash',
    state,
    job: 'j',
    queue,
    needs: '',
    panePid: 1,
    sessionId: '$1',
    tty: '',
    title: '',
  };
}

describe('the summary of the panes', () => {
  test('the panes that need the person first (most urgent first), then at work and queued', () => {
    const s = summarize([
      row('%0', 'w:0.0', 'done'),
      row('%1', 'w:1.0', 'waiting', '2'),
      row('%2', 'w:2.0', 'blocked'),
      row('%3', 'w:3.0', 'something-else'),
      row('%4', 'w:4.0', ''),
    ]);
    expect(s.needsYou.map((p) => p.pane)).toEqual(['%2', '%0']);
    expect(s.atWork.map((p) => p.pane)).toEqual(['%1']);
    expect(s.queued).toBe(2);
    expect(statusSegment(s, true)).toBe('blocked w:2.0 · done w:0.0 · 1 working · 2 queued');
    expect(statusSegment(s, false)).toBe(
      '#[fg=red,bold]blocked w:2.0#[default] · #[fg=green]done w:0.0#[default] · 1 working · 2 queued',
    );
  });

  test('at most three named, then +N; nothing on the server is an empty segment', () => {
    const rows = ['a', 'b', 'c', 'd', 'e'].map((n, i) => row(`%${i}`, `${n}:0.0`, 'failed'));
    expect(statusSegment(summarize(rows), true)).toBe(
      'failed a:0.0 · failed b:0.0 · failed c:0.0 · +2',
    );
    expect(statusSegment(summarize([]), false)).toBe('');
  });

  test("a session's name is shown as written: no style, no command of tmux's", () => {
    const s = summarize([row('%0', '#(touch x)#[fg=red]:0.0', 'done')]);
    expect(statusSegment(s, false)).toBe('#[fg=green]done ##(touch x)##[fg=red]:0.0#[default]');
  });
});

describe('@nudge-status', () => {
  test('set from a fresh look; unset when nothing is left', async () => {
    let rows = [row('%0', 'w:0.0', 'done')];
    const writes: Array<string | undefined> = [];
    const tmux = {
      paneStates: async () => rows,
      markServer: async (option: string, value: string | undefined) => {
        expect(option).toBe(STATUS_OPTION);
        writes.push(value);
      },
    };
    await refreshStatusOption(tmux);
    rows = [];
    await refreshStatusOption(tmux);
    expect(writes).toEqual(['#[fg=green]done w:0.0#[default]', undefined]);
  });

  test('a write from an older look is put right: the panes moved while it wrote', async () => {
    // Another worker marks its pane between this one's look and its write.
    const looks = [[row('%0', 'w:0.0', 'waiting')], [row('%0', 'w:0.0', 'done')]];
    let n = 0;
    const writes: Array<string | undefined> = [];
    await refreshStatusOption({
      paneStates: async () => looks[Math.min(n++, looks.length - 1)] ?? [],
      markServer: async (_o, value) => void writes.push(value),
    });
    expect(writes).toEqual(['1 working', '#[fg=green]done w:0.0#[default]']);
  });

  test('a server gone never fails the caller', async () => {
    await expect(
      refreshStatusOption({
        paneStates: async () => {
          throw new Error('no server');
        },
        markServer: async () => {},
      }),
    ).resolves.toBeUndefined();
  });
});
