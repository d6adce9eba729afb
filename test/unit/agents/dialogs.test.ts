/**
 * The screens where an agent waits for a person, read through the profiles on the screens they
 * were measured on (test/fixtures/screens): the kind, the question, and a usage limit's reset.
 */
import {describe, expect, test} from 'vitest';
import {findDialog} from '../../../src/agents/dialogs.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen} from '../../helpers/pane-views.js';

// The Codex screens were taken at 2026-11-25 20:15-20:16 UTC; its times are the machine's (UTC).
process.env.TZ = 'UTC';
const NOW = Date.UTC(2026, 10, 25, 20, 16);

function found(agent: string, screen: string) {
  const profile = PROFILES[agent];
  if (!profile) throw new Error(`no profile ${agent}`);
  return findDialog(profile, capturedScreen(screen), NOW);
}

describe('what each agent waits for a person with', () => {
  test.each([
    ['claude', 'claude-permission-bash', 'permission', 'Do you want to proceed?'],
    ['claude', 'claude-trust-dialog', 'trust', 'Is this a project you created or one you trust?'],
    ['claude', 'claude-question', 'question', 'Which database should we use?'],
    ['claude', 'claude-plan', 'plan', 'Exit plan mode?'],
    ['claude', 'claude-auto-offer', 'offer', 'Make auto mode your default permission mode?'],
    ['gemini', 'gemini-permission-write', 'permission', 'Apply this change?'],
    ['gemini', 'gemini-trust-dialog', 'trust', 'Do you trust the files in this folder?'],
    ['gemini', 'gemini-limit', 'limit', 'Usage limit reached for gemini-3.8-flash.'],
    ['gemini', 'gemini-permission-shell', 'permission', 'Allow execution of [Shell]?'],
    ['gemini', 'gemini-question', 'question', 'Which database should we use?'],
    ['codex', 'codex-permission', 'permission', 'Would you like to run the following command?'],
    ['copilot', 'copilot-permission-shell', 'permission', 'Do you want to run this command?'],
  ] as const)('%s: %s is %s', (agent, screen, kind, question) => {
    expect(found(agent, screen)).toMatchObject({kind, question});
  });

  test("Claude Code's question picker names its header", () => {
    expect(found('claude', 'claude-question')?.detail).toContain('Database');
  });

  test('Codex: a usage limit printed after the last prompt, with when it resets', () => {
    const today = found('codex', 'codex-limit-today');
    expect(today).toMatchObject({kind: 'limit', resets: '9:46 PM', denyKeys: []});
    expect(new Date(today?.resetsAt ?? 0).toISOString()).toBe('2026-11-25T21:46:00.000Z');
    expect(today?.question).toMatch(/^You’ve hit your usage limit\. .* try again at 9:46 PM\.$/);
    // An earlier limit with a turn after it is history; the last one counts, another day's.
    const later = found('codex', 'codex-limit-later');
    expect(later).toMatchObject({kind: 'limit', resets: 'Nov 28th, 2026 8:29 PM'});
    expect(new Date(later?.resetsAt ?? 0).toISOString()).toBe('2026-11-28T20:29:00.000Z');
  });

  test('Codex: once a prompt was sent after the limit, it is not one any more', () => {
    expect(found('codex', 'codex-limit-resumed')).toBeUndefined();
  });

  test.each([
    ['claude', 'claude-idle-empty'],
    ['claude', 'claude-busy'],
    ['claude', 'claude-permission-denied'],
    ['codex', 'codex-idle-empty'],
    ['gemini', 'gemini-idle-empty'],
    ['copilot', 'copilot-idle-after'],
  ] as const)('%s: nothing on %s', (agent, screen) => {
    expect(found(agent, screen)).toBeUndefined();
  });
});
