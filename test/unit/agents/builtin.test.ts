import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {builtinDir, loadBuiltinProfiles} from '../../../src/agents/builtin.js';
import {AGENT_NAMES, PROFILE_NAMES} from '../../../src/agents/profile.js';

describe('the built-in profiles, read from data/agents/ through the schema', () => {
  const loaded = loadBuiltinProfiles();

  test.each(PROFILE_NAMES)('%s reads, under its own name', (name) => {
    expect(loaded[name].name).toBe(name);
  });

  test.each(AGENT_NAMES)(
    '%s: recognised by its command, command line and screen; typed into through its composer',
    (name) => {
      const p = loaded[name];
      expect(p.commands?.test(name)).toBe(true);
      expect(p.programs?.length).toBeGreaterThan(0);
      expect(p.screen).toBeInstanceOf(RegExp);
      expect(p.composerLine).toBeInstanceOf(RegExp);
      expect(p.busy.length).toBeGreaterThan(0);
      expect(p.launch).toBe(name);
    },
  );

  test('a built-in file that does not check is an internal error naming the file and the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'nudge-builtin-'));
    for (const name of PROFILE_NAMES)
      writeFileSync(join(dir, `${name}.toml`), readFileSync(join(builtinDir(), `${name}.toml`)));
    const codex = join(dir, 'codex.toml');
    writeFileSync(codex, readFileSync(codex, 'utf8').replace(/^busy = .*$/m, "busy = ['(']"));
    expect(() => loadBuiltinProfiles(dir)).toThrow(
      `Internal error: the built-in profile ${codex}: busy.0 is not valid: expected a regular expression (Invalid regular expression: /(/: Unterminated group).`,
    );
  });
});
