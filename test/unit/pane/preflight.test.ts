import {describe, expect, test} from 'vitest';
import {preflight} from '../../../src/pane/preflight.js';
import type {PaneInfo} from '../../../src/tmux/tmux.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';

function check(info: Partial<PaneInfo>, serverPid = 42) {
  const tmux = new FakeTmux(info);
  const notes: string[] = [];
  const run = preflight({tmux, note: async (event) => void notes.push(event)}, '%1', serverPid);
  return {tmux, notes, run};
}

describe('a pane checked before anything is typed', () => {
  test('a live pane of the same server, accepting input: its facts', async () => {
    await expect(check({}).run).resolves.toMatchObject({paneId: '%1', serverPid: 42});
  });

  test('copy mode is left (and noted), then typing goes on', async () => {
    const c = check({inMode: true, mode: 'copy-mode'});
    await expect(c.run).resolves.toMatchObject({inMode: false});
    expect(c.notes).toEqual(['left-mode']);
    expect(c.tmux.calls).toContainEqual(['leave-mode']);
  });

  test('each reason not to type is one sentence', async () => {
    await expect(check({}, 41).run).rejects.toThrow(/The tmux server restarted \(pid 42, was 41\)/);
    await expect(check({paneId: '%9'}).run).rejects.toThrow(
      'Pane %1 is gone; nothing more was typed.',
    );
    await expect(check({dead: true}).run).rejects.toThrow(/is dead \(its program exited\)/);
    await expect(check({inputOff: true}).run).rejects.toThrow(/has input turned off/);
    await expect(check({synchronized: true}).run).rejects.toThrow(/synchronize-panes on/);
  });
});
