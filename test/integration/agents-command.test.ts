// `nudge agents list|show|check` through the built CLI: the built-in profiles as data, a
// user's file that mends one, and a file that is refused with one sentence.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {runNudge} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';

function userConfig(files: Record<string, string>): {config: string; dir: string} {
  const config = useTempDir('nudge-config-');
  const dir = join(config, 'nudge', 'agents');
  mkdirSync(dir, {recursive: true});
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return {config, dir};
}

describe('nudge agents', () => {
  it('list: every built-in profile; a file of the user mends one, a bad one is refused on stderr', async () => {
    const {config, dir} = userConfig({
      'claude.toml': "name = 'claude'\nbusy = ['esc to interrupt', 'esc to stop']\n",
      'broken.toml': "name = 'gemini'\nbusy = ['(']\n",
    });
    const r = await runNudge(['agents', 'list'], {XDG_CONFIG_HOME: config});
    expect(r.exitCode, r.stderr).toBe(0);
    // Agents in the order they are recognised by, then the shell, then raw.
    expect(r.stdout.split('\n').slice(0, 9)).toEqual([
      `claude    agent  built-in, mended by ${join(dir, 'claude.toml')}`,
      'qwen      agent  built-in',
      'gemini    agent  built-in',
      'codex     agent  built-in',
      'opencode  agent  built-in',
      'copilot   agent  built-in',
      'pi        agent  built-in',
      'shell     shell  built-in',
      'raw       raw    built-in',
    ]);
    expect(r.stderr.trim().split('\n')).toEqual([
      `refused: ${join(dir, 'broken.toml')}: busy.0 is not valid: expected a regular expression (missing closing ): \`(\`).`,
    ]);
    const json = JSON.parse(
      (await runNudge(['agents', 'list', '--json'], {XDG_CONFIG_HOME: config})).stdout,
    ) as {agents: Array<{name: string}>; problems: string[]};
    expect(json.agents.map((a) => a.name)).toEqual([
      'claude',
      'qwen',
      'gemini',
      'codex',
      'opencode',
      'copilot',
      'pi',
      'shell',
      'raw',
    ]);
    expect(json.problems).toHaveLength(1);
  });

  it('show: the mended field as the user gave it, the rest as built', async () => {
    const {config} = userConfig({'c.toml': "name = 'claude'\nbusy = ['esc to stop']\n"});
    const r = await runNudge(['agents', 'show', 'claude', '--json'], {XDG_CONFIG_HOME: config});
    expect(r.exitCode, r.stderr).toBe(0);
    const shown = JSON.parse(r.stdout) as {fields: Record<string, unknown>; kind: string};
    expect(shown.kind).toBe('agent');
    expect(shown.fields.busy).toEqual(['esc to stop']);
    expect(shown.fields.composerLine).toBe('^([❯>!]) ?(.*)$');
  });

  it('check: a good file says what it mends; a bad one is exit 2 with the field, no stack', async () => {
    const dir = useTempDir('nudge-profile-');
    const good = join(dir, 'good.toml');
    const bad = join(dir, 'bad.toml');
    writeFileSync(good, "name = 'codex'\nminEnterDelayMs = 300\n");
    writeFileSync(bad, "name = 'codex'\nminEnterDelayMs = 'slow'\n");
    const ok = await runNudge(['agents', 'check', good], {XDG_CONFIG_HOME: dir});
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(`ok: ${good} mends codex (minEnterDelayMs)`);
    const mine = join(dir, 'mine.toml');
    writeFileSync(
      mine,
      "name = 'mine'\nkind = 'agent'\nclearKeys = [['C-u']]\nminEnterDelayMs = 100\nbusy = ['working']\n",
    );
    const added = await runNudge(['agents', 'check', mine], {XDG_CONFIG_HOME: dir});
    // Every key the file would send, on a line of its own (issue 42).
    expect(added.stdout).toBe(
      `ok: ${mine} adds mine (kind, clearKeys, minEnterDelayMs, busy)\n  keys it sends: C-u`,
    );
    const refused = await runNudge(['agents', 'check', bad], {XDG_CONFIG_HOME: dir});
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim()).toBe(
      `nudge: ${bad}: minEnterDelayMs is not valid: expected number.`,
    );
    const unknown = await runNudge(['agents', 'show', 'cursor'], {XDG_CONFIG_HOME: dir});
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });
});
