// --stall, --on-stall and --continue-text, and their config.toml keys: what each gives, and one
// sentence (exit 2) for anything wrong; a policy read back from a request is checked.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {isStallPolicy, parseOnStall, resolveStall} from '../../../src/detect/stall-options.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const o = {intervalMs: 1_000, continues: true};

function configWith(text: string): Record<string, string> {
  const home = useTempDir();
  mkdirSync(join(home, 'nudge'), {recursive: true});
  writeFileSync(join(home, 'nudge', 'config.toml'), text);
  return {XDG_CONFIG_HOME: home};
}

describe('resolveStall', () => {
  it('off unless --stall or the config file says', () => {
    expect(resolveStall({}, {XDG_CONFIG_HOME: '/nonexistent'}, 'submit', o)).toBeNull();
    expect(resolveStall({stall: 'off'}, {}, 'submit', o)).toBeNull();
  });

  it('--stall alone: notify, the default continue line', () => {
    expect(resolveStall({stall: '5m'}, {}, 'submit', o)).toEqual({
      stallMs: 300_000,
      onStall: {kind: 'notify'},
      continueText: 'Continue.',
    });
  });

  it('continue, continue:N, cancel; a continue line of its own', () => {
    const given = {stall: '10s', onStall: 'continue:2', continueText: 'Go on.'};
    expect(resolveStall(given, {}, 'run', o)).toEqual({
      stallMs: 10_000,
      onStall: {kind: 'continue', max: 2},
      continueText: 'Go on.',
    });
    expect(resolveStall({stall: 10_000, onStall: 'continue'}, {}, 'run', o)?.onStall).toEqual({
      kind: 'continue',
      max: 3,
    });
    expect(resolveStall({stall: '3s', onStall: 'cancel'}, {}, 'run', o)?.onStall).toEqual({
      kind: 'cancel',
    });
  });

  it("the config file's table of the command gives the defaults; a flag wins", () => {
    const env = configWith('[watch]\nstall = "2m"\non-stall = "cancel"\n[run]\nstall = "7m"\n');
    expect(resolveStall({}, env, 'watch', {...o, continues: false})).toMatchObject({
      stallMs: 120_000,
      onStall: {kind: 'cancel'},
    });
    expect(resolveStall({}, env, 'run', o)?.stallMs).toBe(420_000);
    expect(resolveStall({stall: '1m'}, env, 'run', o)?.stallMs).toBe(60_000);
    expect(resolveStall({}, env, 'submit', o)).toBeNull();
  });

  it.each([
    [{onStall: 'cancel'}, '--on-stall needs --stall DURATION'],
    [{continueText: 'x'}, '--continue-text needs --stall DURATION'],
    [{stall: '1s'}, '--stall must be at least 2.0s'],
    [{stall: 'soon'}, '--stall'],
    [{stall: '1m', onStall: 'retry'}, '--on-stall must be notify, continue, continue:N or cancel'],
    [{stall: '1m', onStall: 'continue:0'}, '--on-stall'],
    [{stall: '1m', continueText: 'two\nlines'}, '--continue-text must be one line'],
  ])('%j is refused: one sentence, exit 2', (given, sentence) => {
    try {
      resolveStall(given, {}, 'submit', o);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(NudgeError);
      expect((error as Error).message).toContain(sentence);
    }
  });

  it('a bad value in the config file names the file and the key', () => {
    const env = configWith('[submit]\nstall = "1m"\non-stall = "louder"\n');
    expect(() => resolveStall({}, env, 'submit', o)).toThrow(/config\.toml: submit\.on-stall/);
  });

  it('a watcher takes no continue: its assessor decides, --max-injections bounds it', () => {
    expect(() => parseOnStall('continue:2', '--on-stall', {continues: false})).toThrow(
      /--max-injections/,
    );
  });
});

describe('isStallPolicy', () => {
  it('takes what resolveStall makes, and nothing else', () => {
    expect(isStallPolicy(resolveStall({stall: '1m', onStall: 'continue:2'}, {}, 'run', o))).toBe(
      true,
    );
    for (const bad of [
      null,
      {stallMs: -1, onStall: {kind: 'notify'}, continueText: 'x'},
      {stallMs: 1000, onStall: {kind: 'retry'}, continueText: 'x'},
      {stallMs: 1000, onStall: {kind: 'continue', max: 0}, continueText: 'x'},
      {stallMs: 1000, onStall: {kind: 'notify'}, continueText: 'a\nb'},
    ])
      expect(isStallPolicy(bad)).toBe(false);
  });
});
