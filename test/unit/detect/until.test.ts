import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {agentProfiles, useProfileDirs} from '../../../src/agents/registry.js';
import {TRUST_ALL} from '../../../src/agents/trust.js';
import {describeUntil, parseUntil} from '../../../src/detect/until.js';
import {useTempDir} from '../../helpers/temp-dir.js';

describe('parseUntil', () => {
  test.each([
    ['stable', {kind: 'stable'}],
    ['exit', {kind: 'exit'}],
    ['regex:listening on \\d+', {kind: 'regex', pattern: 'listening on \\d+'}],
    ['prompt', {kind: 'prompt', profile: undefined, pattern: undefined}],
    ['prompt:shell', {kind: 'prompt', profile: 'shell', pattern: undefined}],
    // Every agent the registry holds, the ones added as data too (not a regex "qwen").
    ...agentProfiles().map(({name}): [string, object] => [
      `prompt:${name}`,
      {kind: 'prompt', profile: name, pattern: undefined},
    ]),
    // An agent added as data alone, named: its profile, not the regex `qwen`.
    ['prompt:qwen', {kind: 'prompt', profile: 'qwen', pattern: undefined}],
    ['prompt:^> $', {kind: 'prompt', profile: undefined, pattern: '^> $'}],
  ])('%j', (text, spec) => {
    expect(parseUntil(text)).toEqual(spec);
    expect(describeUntil(parseUntil(text))).toBe(text);
  });

  test.each([
    ['idle', /not a condition/],
    ['regex:', /needs a pattern/],
    ['regex:(', /invalid regex "\(": missing closing \)/],
    ['prompt:', /needs a profile name or a regex/],
    ['prompt:[', /invalid regex/],
  ])('refuses %j with exit 2', (text, message) => {
    expect(() => parseUntil(text)).toThrow(
      expect.objectContaining({name: 'NudgeError', exitCode: 2}),
    );
    expect(() => parseUntil(text)).toThrow(message);
  });
});

describe("--until prompt:NAME with a user's own profile", () => {
  test('a profile file of the person adds a name prompt: takes; a name no profile has is a regex', () => {
    const dir = useTempDir('nudge-until-');
    writeFileSync(
      join(dir, 'mine.toml'),
      [
        "name = 'mine'",
        "kind = 'agent'",
        "clearKeys = [['C-u']]",
        'minEnterDelayMs = 100',
        "composerLine = '^(>) (.*)$'",
        "busy = ['thinking']",
      ].join('\n'),
    );
    useProfileDirs([dir], TRUST_ALL);
    try {
      expect(parseUntil('prompt:mine')).toEqual({
        kind: 'prompt',
        profile: 'mine',
        pattern: undefined,
      });
      expect(parseUntil('prompt:yours')).toEqual({
        kind: 'prompt',
        profile: undefined,
        pattern: 'yours',
      });
    } finally {
      useProfileDirs([], TRUST_ALL);
    }
  });
});
