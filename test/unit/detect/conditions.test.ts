/**
 * The condition rules of src/detect/conditions.ts on screens captured from the real agents:
 * `--until prompt:NAME` judges with the named profile (not the detected one, and never as a
 * regex), a fresh turn-end hook counts only while nothing on screen says busy, and conditions
 * that cannot work on a pane are refused with one sentence before anything is spawned.
 */
import {describe, expect, test} from 'vitest';
import type {HookMark} from '../../../src/agents/hook-marks.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {NudgeError} from '../../../src/base/errors.js';
import {checkUntilFits, createWatcher, promptTest} from '../../../src/detect/conditions.js';
import {Settling} from '../../../src/detect/settle.js';
import {parseUntil} from '../../../src/detect/until.js';
import type {PaneInfo} from '../../../src/tmux/tmux.js';
import {capturedAgents, capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

const prompt = (name?: string) => ({kind: 'prompt', profile: name, pattern: undefined}) as const;

function testOf(...a: Parameters<typeof promptTest>) {
  const t = promptTest(...a);
  if (typeof t === 'string') throw new Error(t);
  return t;
}

describe('promptTest', () => {
  const both = capturedAgents('busy').filter((n) => capturedAgents('idle-empty').includes(n));

  test.each(both)('prompt:%s: idle on its idle screen, not on its busy one', (name) => {
    const idle = testOf(prompt(name), 'node');
    expect(idle(capturedScreen(`${name}-idle-empty`))).toBe(true);
    expect(idle(capturedScreen(`${name}-busy`))).toBe(false);
  });

  test('the named profile is used, not the one detected in the pane', () => {
    const idle = testOf(prompt('codex'), 'node', PROFILES.claude);
    expect(idle(capturedScreen('codex-idle-empty'))).toBe(true);
    expect(idle(capturedScreen('claude-idle-empty'))).toBe(false);
  });

  test('prompt:NAME is parsed as the profile NAME, never as a regex for the word', () => {
    expect(parseUntil('prompt:qwen')).toEqual(prompt('qwen'));
    const idle = testOf(parseUntil('prompt:qwen') as ReturnType<typeof prompt>, 'node');
    // The word alone on screen is not Qwen Code's idle composer.
    expect(idle(paneViewOf(['qwen']))).toBe(false);
  });

  test('a fresh turn-end hook that says nothing still runs is done unless the screen says busy', () => {
    let mark: HookMark | undefined = {source: 'claude-stop', atMs: 1, pane: '%1', work: []};
    const settling = new Settling({
      profile: PROFILES.claude!,
      latestMark: () => mark,
      served: async () => ({served: []}),
      now: () => 0,
      wall: () => 0,
      onWorking: () => {},
      turnOnly: false,
    });
    const watcher = createWatcher(prompt('claude'), {
      stableChecks: 2,
      ignore: [],
      baselineKey: undefined,
      graceChecks: 0,
      paneCommand: 'node',
      profile: PROFILES.claude,
      settling,
      mark: {row: 0, col: 0},
      lines: 10,
    });
    expect(watcher.observe(capturedScreen('claude-busy')).status).toBe('pending');
    expect(watcher.observe(paneViewOf(['(the composer scrolled away)'])).status).toBe('done');
    mark = undefined;
    expect(watcher.observe(paneViewOf(['(the composer scrolled away)'])).status).toBe('pending');
  });

  test('a shell pane waits for its prompt; an unknown program is told what to use', () => {
    const shell = testOf(prompt(), 'bash');
    expect(typeof shell).toBe('function');
    expect(promptTest(prompt(), 'htop')).toBe(
      'no prompt profile knows "htop"; use --until prompt:REGEX or --profile',
    );
  });
});

describe('checkUntilFits', () => {
  const pane = (currentCommand: string) => ({paneId: '%4', currentCommand}) as PaneInfo;
  const refusal = (f: () => void) => {
    try {
      f();
    } catch (error) {
      expect(error).toBeInstanceOf(NudgeError);
      return (error as Error).message;
    }
    return undefined;
  };

  test('--until exit needs a POSIX shell', () => {
    expect(refusal(() => checkUntilFits({kind: 'exit'}, pane('bash')))).toBeUndefined();
    expect(refusal(() => checkUntilFits({kind: 'exit'}, pane('node')))).toBe(
      '--until exit needs a shell (bash, zsh, sh, dash, ksh) in pane %4, but it runs node; use --until stable or prompt.',
    );
  });

  test('--until prompt on a program no profile knows is refused; with a profile it fits', () => {
    expect(refusal(() => checkUntilFits(prompt(), pane('htop')))).toBe(
      '--until prompt: no prompt profile knows "htop"; use --until prompt:REGEX or --profile.',
    );
    expect(refusal(() => checkUntilFits(prompt(), pane('node'), PROFILES.gemini))).toBeUndefined();
    expect(refusal(() => checkUntilFits(prompt('qwen'), pane('node')))).toBeUndefined();
  });
});
