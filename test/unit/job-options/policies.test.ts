// Each policy decided by one function: the value given, else config.toml's, else the default;
// a value that is not one of the policy's is one sentence.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {afterEach, describe, expect, test} from 'vitest';
import {
  configuredVia,
  givenIfBusy,
  ifBusyMeans,
  parseIfBusy,
  parseOnLimit,
  parseResumeText,
  parseVia,
  resolveIfBusy,
} from '../../../src/job-options/policies.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, {recursive: true, force: true});
});

/** An environment whose config.toml says `toml`. */
function configSaying(toml: string) {
  const home = mkdtempSync(join(tmpdir(), 'nudge-policies-'));
  made.push(home);
  mkdirSync(join(home, 'nudge'));
  writeFileSync(join(home, 'nudge', 'config.toml'), toml);
  return {XDG_CONFIG_HOME: home};
}

describe('--if-busy', () => {
  test('given, else the config file, else queue', () => {
    expect(resolveIfBusy('refuse', configSaying('[submit]\nif-busy = "wait"\n'))).toBe('refuse');
    expect(resolveIfBusy(undefined, configSaying('[submit]\nif-busy = "wait"\n'))).toBe('wait');
    expect(resolveIfBusy(undefined, configSaying('[notify]\n'))).toBe('queue');
  });

  test('a value not of the policy names where it came from', () => {
    expect(() => parseIfBusy('later')).toThrow(
      '--if-busy must be queue, wait, refuse, now or type-ahead, got "later".',
    );
    expect(() => resolveIfBusy(undefined, configSaying('[submit]\nif-busy = "soon"\n'))).toThrow(
      /config\.toml: submit\.if-busy must be queue/,
    );
    expect(parseIfBusy('type-ahead')).toBe('type-ahead');
  });
});

describe('--via', () => {
  test("the config file's, when set; checked as the flag is", () => {
    expect(configuredVia(configSaying('[submit]\nvia = "keys"\n'))).toBe('keys');
    expect(configuredVia(configSaying('[submit]\n'))).toBeUndefined();
    expect(() => configuredVia(configSaying('[submit]\nvia = "pigeon"\n'))).toThrow(
      /submit\.via must be auto, keys or native, got "pigeon"/,
    );
    expect(parseVia('native')).toBe('native');
    expect(() => parseVia('x')).toThrow('--via must be auto, keys or native, got "x".');
  });
});

describe('--on-limit and --resume-text', () => {
  test('stop or wait; one line of text', () => {
    expect(parseOnLimit('wait')).toBe('wait');
    expect(() => parseOnLimit('later')).toThrow('--on-limit must be stop or wait, got "later".');
    expect(parseResumeText('go on')).toBe('go on');
    expect(() => parseResumeText('two\nlines')).toThrow(/one line of text/);
  });
});

describe('ifBusyMeans: what a stored busy policy means for the worker', () => {
  test.each([
    ['queue', {door: false, waitsForIdle: false, typesAhead: false}],
    ['refuse', {door: false, waitsForIdle: false, typesAhead: false}],
    ['wait', {door: false, waitsForIdle: true, typesAhead: false}],
    ['now', {door: true, waitsForIdle: false, typesAhead: false}],
    ['type-ahead', {door: false, waitsForIdle: false, typesAhead: true}],
  ] as const)('%s', (policy, means) => {
    expect(ifBusyMeans(policy)).toEqual(means);
  });
});

describe('givenIfBusy: the policy the flags give', () => {
  test('--if-busy wins, --when-idle is wait, neither gives none (config.toml decides)', () => {
    expect(givenIfBusy({ifBusy: 'refuse', whenIdle: true})).toBe('refuse');
    expect(givenIfBusy({whenIdle: true})).toBe('wait');
    expect(givenIfBusy({whenIdle: false})).toBeUndefined();
  });
});
