// A run's agent session read from the agent's own files: Claude Code's session record of the
// pane's process, else its newest transcript of the folder; Codex's rollout file of the
// folder. Older files and other folders are not the run's.
import {mkdirSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {claudeProjectName, findAgentSession} from '../../../src/runs/agent-session.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const tree = {
  parentOf: async () => undefined,
  procStartOf: async () => undefined,
  terminalOf: async () => undefined,
  groupsOf: async () => undefined,
  ancestry: async () => [],
} as never;

describe('findAgentSession', () => {
  it("Claude Code: the newest transcript of the run's folder written since the start", async () => {
    const home = useTempDir('nudge-session-');
    const folder = join(home, '.claude', 'projects', claudeProjectName('/work/x.y'));
    mkdirSync(folder, {recursive: true});
    const old = join(folder, '11111111-1111-4111-8111-111111111111.jsonl');
    const ours = join(folder, '22222222-2222-4222-8222-222222222222.jsonl');
    writeFileSync(old, '{}\n');
    writeFileSync(ours, '{}\n');
    utimesSync(old, new Date(1_000), new Date(1_000));
    const found = await findAgentSession('claude-sessions', {
      env: {HOME: home},
      cwd: '/work/x.y',
      sinceMs: 10_000,
      panePid: 1,
      tree,
    });
    expect(found).toEqual({id: '22222222-2222-4222-8222-222222222222', from: ours});
    expect(claudeProjectName('/root/.cache/a_b/work')).toBe('-root--cache-a-b-work');
  });

  it("Codex: the rollout file whose session meta names the run's folder", async () => {
    const home = useTempDir('nudge-session-');
    const d = new Date();
    const day = join(
      home,
      '.codex',
      'sessions',
      String(d.getUTCFullYear()),
      String(d.getUTCMonth() + 1).padStart(2, '0'),
      String(d.getUTCDate()).padStart(2, '0'),
    );
    mkdirSync(day, {recursive: true});
    const meta = (id: string, cwd: string) =>
      `${JSON.stringify({type: 'session_meta', payload: {id, cwd, base_instructions: {text: 'x'.repeat(200_000)}}})}\n{}\n`;
    writeFileSync(join(day, 'rollout-a.jsonl'), meta('01a21a4a-0513-7430-9cba-4037b666ee31', '/w'));
    writeFileSync(
      join(day, 'rollout-b.jsonl'),
      meta('99999999-0513-7430-9cba-4037b666ee31', '/other'),
    );
    const found = await findAgentSession('codex-rollouts', {
      env: {HOME: home},
      cwd: '/w',
      sinceMs: Date.now() - 60_000,
      panePid: 1,
      tree,
    });
    expect(found?.id).toBe('01a21a4a-0513-7430-9cba-4037b666ee31');
    // Nothing of the folder since the start: none.
    expect(
      await findAgentSession('codex-rollouts', {
        env: {CODEX_HOME: join(home, '.codex')},
        cwd: '/w',
        sinceMs: Date.now() + 60_000,
        panePid: 1,
        tree,
      }),
    ).toBeUndefined();
  });

  it('an id nudge chose is never looked up', async () => {
    expect(
      await findAgentSession('chosen', {env: {}, cwd: '/w', sinceMs: 0, panePid: 1, tree}),
    ).toBeUndefined();
  });
});
