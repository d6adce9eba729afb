import {describe, expect, test} from 'vitest';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {recognize} from '../../../src/pane/profile.js';
import type {Foreground} from '../../../src/process/foreground.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import {capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

/** A pane showing `screen`, running `command` (pid 100), whose foreground is `argv`. */
function world(screen: string | string[], command: string, argv?: string[]) {
  const view = typeof screen === 'string' ? capturedScreen(screen) : paneViewOf(screen, {});
  const remembered = new Map<string, string>();
  const memory: PaneMemory = {
    recall: async (pane, pid) => remembered.get(`${pane}/${pid}`),
    remember: async (pane, pid, profile) => void remembered.set(`${pane}/${pid}`, profile),
  };
  const deps = {
    tmux: {view: async () => view} as unknown as Tmux,
    foreground: {commandLine: async () => argv} as unknown as Foreground,
    paneMemory: memory,
  };
  const info = {panePid: 100, currentCommand: command} as PaneInfo;
  return {deps, info, remembered};
}

describe("which program a pane runs, as a job's profile", () => {
  test('--profile NAME is taken as said', async () => {
    const w = world(['$ '], 'bash');
    expect(await recognize(w.deps, '%1', w.info, 'claude')).toMatchObject({
      profile: {name: 'claude'},
      reason: '--profile',
    });
  });

  test('an agent named by its foreground command line is remembered for the pane', async () => {
    const w = world(['what the agent draws'], 'node', [
      'node',
      '/usr/lib/node_modules/@openai/codex/bin/codex.js',
    ]);
    const found = await recognize(w.deps, '%1', w.info, 'auto');
    expect(found.profile.name).toBe('codex');
    expect(w.remembered.get('%1/100')).toBe('codex');
  });

  test('a screen that shows no marker now keeps the agent recognised earlier, for the same process', async () => {
    const w = world(['a draft with no marker'], 'node');
    w.remembered.set('%1/100', 'codex');
    const found = await recognize(w.deps, '%1', w.info, 'auto');
    expect(found.profile.name).toBe('codex');
    expect(found.reason).toBe('recognised as codex earlier; its screen shows no marker of it now');
  });

  test('back at a shell, the earlier agent is forgotten', async () => {
    const w = world(['$ '], 'bash');
    w.remembered.set('%1/100', 'codex');
    expect((await recognize(w.deps, '%1', w.info, 'auto')).profile.name).toBe('shell');
  });
});
