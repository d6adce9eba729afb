// Where each caller of a shared waiter stood: only the PER_CALLER variables travel, in an
// entry and in the file kept for a takeover; anything else in them is dropped.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {JobHandle} from '../../../src/jobs/store.js';
import * as caller from '../../../src/waiter/caller.js';
import {useTempDir} from '../../helpers/temp-dir.js';

describe('a caller of a shared waiter', () => {
  test("an entry carries the caller's PER_CALLER values and nothing else", () => {
    const env = {TMUX_PANE: '%3', PWD: '/work', HOME: '/root', PATH: '/bin', SHLVL: undefined};
    expect(caller.perCaller(env)).toEqual({TMUX_PANE: '%3', PWD: '/work'});
    expect(caller.PER_CALLER).not.toContain('PATH');
  });

  test('what is read back is only strings of PER_CALLER', () => {
    expect(caller.onlyPerCaller({TMUX_PANE: '%1', PATH: '/evil', PWD: 7})).toEqual({
      TMUX_PANE: '%1',
    });
    expect(caller.onlyPerCaller('x')).toEqual({});
    expect(caller.onlyPerCaller(null)).toEqual({});
  });

  test('kept in the job folder for a takeover, read back; a bad or missing file is none', async () => {
    const dir = useTempDir();
    const handle = new JobHandle('0mwr33g3x-k62r', dir);
    expect(await caller.callerOf(handle)).toEqual({});
    await caller.keepCaller(handle, {TMUX_PANE: '%2', PWD: '/a'});
    expect(await caller.callerOf(handle)).toEqual({TMUX_PANE: '%2', PWD: '/a'});
    writeFileSync(join(dir, 'caller.json'), '{not json');
    expect(await caller.callerOf(handle)).toEqual({});
  });
});
