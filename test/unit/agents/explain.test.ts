import {mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {explainScreen, programVersion} from '../../../src/agents/explain.js';
import {agentProfiles, PROFILES} from '../../../src/agents/registry.js';
import {capturedScreen} from '../../helpers/pane-views.js';
import {useTempDir} from '../../helpers/temp-dir.js';

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

describe("the version of the program a pane's command line runs", () => {
  /** A project with its own package.json (1.0.0) and Claude Code installed in it. */
  function project() {
    const root = useTempDir('nudge-project-');
    writeFileSync(join(root, 'package.json'), JSON.stringify({name: 'app', version: '1.0.0'}));
    const pkg = join(root, 'node_modules', '@anthropic-ai', 'claude-code');
    mkdirSync(pkg, {recursive: true});
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({version: '2.1.197'}));
    writeFileSync(join(pkg, 'cli.js'), '');
    mkdirSync(join(root, 'node_modules', '.bin'));
    symlinkSync(
      '../@anthropic-ai/claude-code/cli.js',
      join(root, 'node_modules', '.bin', 'claude'),
    );
    return root;
  }

  test("from a project's node_modules/.bin: the package's version, not the project's (issue 63)", () => {
    const root = project();
    const argv = ['node', join(root, 'node_modules', '.bin', 'claude')];
    expect(programVersion(profile('claude'), argv)).toBe('2.1.197');
  });

  test('a script with no package.json of its own below node_modules: no version, never the project one', () => {
    const root = project();
    rmSync(join(root, 'node_modules', '@anthropic-ai', 'claude-code', 'package.json'));
    const argv = ['node', join(root, 'node_modules', '.bin', 'claude')];
    expect(programVersion(profile('claude'), argv)).toBeUndefined();
  });
});
