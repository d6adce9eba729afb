import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {explainScreen} from '../../../src/agents/explain.js';
import {PROFILES} from '../../../src/agents/registry.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const DIR = fileURLToPath(new URL('../../fixtures/screens/', import.meta.url));
const index = JSON.parse(readFileSync(`${DIR}index.json`, 'utf8')) as Record<
  string,
  {cursor: {x: number; y: number}}
>;

/** A captured screen of a real agent (test/fixtures/screens). */
function captured(name: string): PaneView {
  const rows = readFileSync(`${DIR}${name}.txt`, 'utf8').replace(/\n$/, '').split('\n');
  const cursor = index[name]?.cursor ?? {x: 0, y: 0};
  return paneViewOf(rows, {
    cursorX: cursor.x,
    cursorY: cursor.y,
    width: 120,
    currentCommand: 'node',
  });
}

/** The rules that matched, by name. */
function matched(agent: 'claude' | 'gemini' | 'codex', screen: string): string[] {
  return explainScreen(PROFILES[agent], captured(`${agent}-${screen}`))
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
    const busy = explainScreen(PROFILES[agent], captured(`${agent}-busy`)).find(
      (r) => r.rule === 'busy',
    );
    expect(busy?.matched).toBe(true);
    expect(PROFILES[agent].busy.some((b) => b.test(busy?.text ?? ''))).toBe(true);
  });

  test('draft: the person’s text in the composer', () => {
    const draft = explainScreen(PROFILES[agent], captured(`${agent}-draft`)).find(
      (r) => r.rule === 'draft',
    );
    expect(draft?.matched).toBe(true);
    expect(draft?.text?.length).toBeGreaterThan(0);
  });
});
