// What a submit decides before its job is made: its options once, with config.toml's
// defaults where no flag is given.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {submitJobOptions} from '../../../src/submit/submission.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** An environment whose config.toml says `toml`. */
function configSaying(toml: string) {
  const home = useTempDir();
  mkdirSync(join(home, 'nudge'));
  writeFileSync(join(home, 'nudge', 'config.toml'), toml);
  return {XDG_CONFIG_HOME: home};
}

describe('submitJobOptions', () => {
  test("config.toml's via, busy policy and sinks where none is given; the flags where they are", () => {
    const env = configSaying(
      '[submit]\nvia = "keys"\nif-busy = "wait"\n[notify]\nsinks = ["tmux"]\n',
    );
    const taken = submitJobOptions({text: 'npm test'}, env);
    expect(taken.ifBusy).toBe('wait');
    expect(taken.options).toMatchObject({via: 'keys', ifBusy: 'wait'});
    expect(taken.options.notifySinks).toHaveLength(1);
    const given = submitJobOptions({text: 'npm test', ifBusy: 'refuse', via: 'auto'}, env);
    expect(given.options).toMatchObject({via: 'auto', ifBusy: 'refuse'});
  });

  test('--if-busy now waits for nothing: no stall watchdog, and --stall with it is refused', () => {
    const env = configSaying('[submit]\nstall = "5m"\n');
    expect(submitJobOptions({text: 'hi', ifBusy: 'now'}, env).options.stall).toBeNull();
    expect(submitJobOptions({text: 'hi'}, env).options.stall).not.toBeNull();
    expect(() => submitJobOptions({text: 'hi', ifBusy: 'now', stall: '5m'}, env)).toThrow(
      /--stall watches the wait .* give one of them/,
    );
  });
});
