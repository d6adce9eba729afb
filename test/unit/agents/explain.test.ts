import {describe, expect, test} from 'vitest';
import {explainScreen} from '../../../src/agents/explain.js';
import {agentProfiles, PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen} from '../../helpers/pane-views.js';

/** Every agent of the registry. */
const AGENTS = agentProfiles().map((p) => p.name);
type Agent = string;

/** The profile of a built-in agent. */
function profile(agent: Agent) {
  const p = PROFILES[agent];
  if (!p) throw new Error(`no profile ${agent}`);
  return p;
}

/** The rules that matched, by name. */
function matched(agent: Agent, screen: string): string[] {
  return explainScreen(profile(agent), capturedScreen(`${agent}-${screen}`))
    .filter((r) => r.matched)
    .map((r) => r.rule);
}

/** Each agent's idle screen (Qwen Code's shows the model's follow-up suggestion). */
const IDLE: Partial<Record<Agent, string>> = {qwen: 'idle-suggested'};

describe.each(AGENTS)('explain on %s’s real screens', (agent) => {
  test('idle: its composer, nothing busy, no draft', () => {
    const rules = matched(agent, IDLE[agent] ?? 'idle-empty');
    expect(rules).toContain('composer');
    expect(rules).not.toContain('busy');
    expect(rules).not.toContain('draft');
  });

  test('busy: the busy marker, and the text it matched', () => {
    const busy = explainScreen(profile(agent), capturedScreen(`${agent}-busy`)).find(
      (r) => r.rule === 'busy',
    );
    expect(busy?.matched).toBe(true);
    expect(profile(agent).busy.some((b) => b.test(busy?.text ?? ''))).toBe(true);
  });

  test('draft: the person’s text in the composer', () => {
    const draft = explainScreen(profile(agent), capturedScreen(`${agent}-draft`)).find(
      (r) => r.rule === 'draft',
    );
    expect(draft?.matched).toBe(true);
    expect(draft?.text).toBe('refactor the parser please');
  });
});
