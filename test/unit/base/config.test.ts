import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';
import {configTable, readOnce} from '../../../src/base/config.js';
import {useTempDir} from '../../helpers/temp-dir.js';

test('readOnce: all asked of one environment comes from one reading of the file', () => {
  const home = useTempDir();
  mkdirSync(join(home, 'nudge'));
  const file = join(home, 'nudge', 'config.toml');
  writeFileSync(file, '[submit]\nvia = "keys"\n');
  const env = {XDG_CONFIG_HOME: home};
  const once = readOnce(env);
  expect(configTable(once, 'submit')?.table.via).toBe('keys');
  writeFileSync(file, '[submit]\nvia = "native"\n[notify]\nsinks = ["tmux"]\n');
  // The second table asked of it is the first reading's, not the file as it is now.
  expect(configTable(once, 'notify')).toBeUndefined();
  expect(configTable(once, 'submit')?.table.via).toBe('keys');
  // An environment not read once reads the file as it is.
  expect(configTable(env, 'submit')?.table.via).toBe('native');
});

test('no file: nothing, once', () => {
  const once = readOnce({XDG_CONFIG_HOME: join(useTempDir(), 'none')});
  expect(configTable(once, 'submit')).toBeUndefined();
});
