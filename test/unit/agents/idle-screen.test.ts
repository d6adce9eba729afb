/**
 * Claude Code's footer while a background shell runs, on the screens it drew (2.1.197 and
 * 2.1.332, test/explore/claude-bg-shell.explore.ts): not idle while `1 shell · … · ↓ to
 * manage` shows below the composer; idle again once it is gone, though the transcript keeps
 * `· 1 shell still running`.
 */
import {describe, expect, test} from 'vitest';
import {isIdle, turnIdle, workingOnScreen} from '../../../src/agents/idle-screen.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

describe.each(['', '-2.1.332'])('claude%s', (version) => {
  const claude = PROFILES.claude!;
  test('a background shell running: the turn ended, the agent is not idle', () => {
    const view = capturedScreen(`claude-background-shell${version}`);
    expect(workingOnScreen(claude, view)).toBe('1 shell');
    expect(turnIdle(claude, view)).toBe(true);
    expect(isIdle(claude, view)).toBe(false);
  });
  test('the work ended: idle, though the transcript keeps its old row', () => {
    const view = capturedScreen(`claude-background-done${version}`);
    expect(workingOnScreen(claude, view)).toBeUndefined();
    expect(isIdle(claude, view)).toBe(true);
  });
});

test('the footer and the row above the composer are read, never the transcript further up', () => {
  const claude = PROFILES.claude!;
  const rule = '─'.repeat(40);
  const above = paneViewOf(
    ['  2 shells · ↓ to manage', '● The answer.', '', rule, '❯ ', rule, '  ? for shortcuts'],
    {cursorX: 2, cursorY: 4},
  );
  expect(workingOnScreen(claude, above)).toBeUndefined();
  const below = paneViewOf(
    [rule, '❯ ', rule, '  2 shells · 1 agent · ← for agents · ↓ to manage'],
    {
      cursorX: 2,
      cursorY: 1,
    },
  );
  expect(workingOnScreen(claude, below)).toBe('2 shells · 1 agent');
  // 2.1.197 draws its effort notice right-aligned on the same row for the first seconds.
  const effort = paneViewOf(
    [rule, '❯ ', rule, `  1 shell · ← for agents · ↓ to manage${' '.repeat(64)}● high · /effort`],
    {cursorX: 2, cursorY: 1},
  );
  expect(workingOnScreen(claude, effort)).toBe('1 shell');
});

// The row above the composer (Codex's status row, Gemini CLI's count at its right end) or the
// footer (Qwen Code's) while a command runs on after the turn.
test.each([
  ['codex', 'codex-background-terminal', '1 background terminal running'],
  ['codex', 'codex-background-terminal-0.171.0', '1 background terminal running'],
  ['gemini', 'gemini-background-process', '1 Background process'],
  // Copilot CLI's footer: its turn waits for the shell, the composer takes input meanwhile.
  ['copilot', 'copilot-background-shell', 'Waiting for background shells'],
])('%s: a command left running after the turn (%s)', (name, screen, shown) => {
  const profile = PROFILES[name]!;
  const view = capturedScreen(screen);
  expect(workingOnScreen(profile, view)).toBe(shown);
  expect(turnIdle(profile, view)).toBe(true);
  expect(isIdle(profile, view)).toBe(false);
});

test('an idle screen shows no work', () => {
  expect(workingOnScreen(PROFILES.gemini!, capturedScreen('gemini-idle-empty'))).toBeUndefined();
  expect(workingOnScreen(PROFILES.codex!, capturedScreen('codex-idle-empty'))).toBeUndefined();
});

test('qwen: a background shell counted in its footer; a task done is not work', () => {
  const qwen = PROFILES.qwen!;
  const view = capturedScreen('qwen-background-shell');
  expect(workingOnScreen(qwen, view)).toBe('1 shell');
  expect(isIdle(qwen, view)).toBe(false);
  const rule = '─'.repeat(40);
  const done = paneViewOf(
    [rule, '*   Type your message', rule, '  YOLO mode (shift + tab to cycle) · 1 task done'],
    {cursorX: 4, cursorY: 1},
  );
  expect(workingOnScreen(qwen, done)).toBeUndefined();
});

test('a profile without working rows never reads a footer', () => {
  expect(workingOnScreen(PROFILES.pi!, capturedScreen('claude-background-shell'))).toBe(undefined);
});
