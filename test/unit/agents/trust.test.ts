import {mkdirSync, realpathSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {
  digestOfText,
  type ProfileTrust,
  readProfileTrust,
  realPathOf,
  trustOf,
} from '../../../src/agents/trust.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test("a person's own folder is read; another file only as trusted, and never once it changed", () => {
  // Real: macOS's temp folder is a link (/var → /private/var), and trust speaks of real paths.
  const root = realpathSync(useTempDir('nudge-trust-'));
  const own = join(root, 'own');
  const repo = join(root, 'repo', '.nudge', 'agents');
  mkdirSync(own, {recursive: true});
  mkdirSync(repo, {recursive: true});
  const file = join(repo, 'x.toml');
  writeFileSync(file, "name = 'x'");
  const none: ProfileTrust = {own: [own], files: {}, store: join(root, 'store.json')};
  expect(trustOf(none, join(own, 'a.toml'), 'anything')).toEqual({kind: 'own'});
  const untrusted = trustOf(none, file, "name = 'x'");
  expect(untrusted.kind).toBe('untrusted');
  expect(untrusted.kind === 'untrusted' && untrusted.why).toContain(`nudge agents trust ${file}`);
  const trusted: ProfileTrust = {...none, files: {[realPathOf(file)]: digestOfText("name = 'x'")}};
  expect(trustOf(trusted, file, "name = 'x'")).toEqual({kind: 'trusted'});
  const changed = trustOf(trusted, file, "name = 'y'");
  expect(changed.kind === 'untrusted' && changed.why).toContain('changed since it was trusted');
});

test('a link into the own folder from elsewhere is judged by where it really is', () => {
  const root = realpathSync(useTempDir('nudge-trust-'));
  const own = join(root, 'own');
  mkdirSync(own);
  const outside = join(root, 'outside.toml');
  writeFileSync(outside, "name = 'o'");
  symlinkSync(outside, join(own, 'o.toml'));
  const t: ProfileTrust = {own: [own], files: {}, store: ''};
  expect(trustOf(t, join(own, 'o.toml'), "name = 'o'").kind).toBe('untrusted');
});

test('a trust store in a state directory writers refuse (a symlinked NUDGE_HOME) is not read: nothing trusted (issue 61)', () => {
  const root = realpathSync(useTempDir('nudge-trust-'));
  const real = join(root, 'real');
  mkdirSync(real, {mode: 0o700});
  const files = {'/repo/.nudge/agents/x.toml': 'digest'};
  writeFileSync(join(real, 'trusted-profiles.json'), JSON.stringify({files}));
  expect(readProfileTrust({NUDGE_HOME: real, XDG_CONFIG_HOME: root}).files).toEqual(files);
  symlinkSync(real, join(root, 'home'));
  expect(readProfileTrust({NUDGE_HOME: join(root, 'home'), XDG_CONFIG_HOME: root}).files).toEqual(
    {},
  );
});
