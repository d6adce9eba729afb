import {describe, expect, test} from 'vitest';
import {explainScreen} from '../../../src/agents/explain.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen} from '../../helpers/pane-views.js';

/** The rules that matched, by name. */
function matched(agent: 'claude' | 'gemini' | 'codex', screen: string): string[] {
  return explainScreen(PROFILES[agent], capturedScreen(`${agent}-${screen}`))
    .filter((r) => r.matched)
    .map((r) => r.rule);
}

describe.each(['claude', 'gemini', 'codex'] as const)('explain on %s’s real screens', (agent) => {
  test('idle: its composer, nothing busy, no draft', () => {
    const rules = matched(agent, 'idle-empty');
    expect(rules).toContain('composer');
    expect(rules).not.toContain('busy');
    expect(rules).not.toContain('draft');
  });

  test('busy: the busy marker, and the text it matched', () => {
    const busy = explainScreen(PROFILES[agent], capturedScreen(`${agent}-busy`)).find(
      (r) => r.rule === 'busy',
    );
    expect(busy?.matched).toBe(true);
    expect(PROFILES[agent].busy.some((b) => b.test(busy?.text ?? ''))).toBe(true);
  });

  test('draft: the person’s text in the composer', () => {
    const draft = explainScreen(PROFILES[agent], capturedScreen(`${agent}-draft`)).find(
      (r) => r.rule === 'draft',
    );
    expect(draft?.matched).toBe(true);
    expect(draft?.text?.length).toBeGreaterThan(0);
  });
});
