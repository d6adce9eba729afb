// A job's options made once from what was given, with config.toml's defaults where no flag is
// given, and checked as the worker will check them.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {MAX_TEXT_BYTES, resolveJobOptions, validateText} from '../../../src/job-options/resolve.js';
import {JOB_OPTIONS} from '../../../src/job-options/schema.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** An environment whose config.toml says `toml`. */
function configSaying(toml: string) {
  const home = useTempDir();
  mkdirSync(join(home, 'nudge'));
  writeFileSync(join(home, 'nudge', 'config.toml'), toml);
  return {XDG_CONFIG_HOME: home};
}

/** No config file. */
const NONE = {XDG_CONFIG_HOME: '/nonexistent', HOME: '/nonexistent'};

describe("submit's options: the table's defaults, resolved once", () => {
  test('nothing given: the defaults the table shows in --help', () => {
    expect(resolveJobOptions({text: 'x'}, NONE)).toMatchObject({
      delayMs: 3000,
      typeDelayMs: 20,
      enterDelayMs: 500,
      clear: true,
      enter: true,
      intervalMs: 1000,
      stableChecks: 3,
      timeoutMs: 300_000,
      until: {kind: 'stable'},
      ignore: [],
      lines: 100,
      notify: true,
      noticeTemplate: null,
      via: 'auto',
      profile: 'auto',
      ifBusy: 'queue',
      idleTimeoutMs: 600_000,
      clearDraft: false,
      draftWaitMs: 30_000,
      notifySinks: [],
      onLimit: 'stop',
      limitMarginMs: 60_000,
      resumeText: 'continue',
      lockTimeoutMs: 600_000,
      noticeElsewhere: null,
      stall: null,
    });
  });

  test('what it makes is what the worker takes: the stored schema is made of the same rows', () => {
    const made = {...resolveJobOptions({text: 'x', ignore: ['a+'], notice: 'ok {job}'}, NONE)};
    const stored = JOB_OPTIONS.safeParse(JSON.parse(JSON.stringify({...made, notifyPane: '%3'})));
    expect(stored.success).toBe(true);
    expect(stored.data).toEqual({...made, notifyPane: '%3'});
    expect(Object.keys(JOB_OPTIONS.shape).sort()).toEqual(
      [...Object.keys(made), 'notifyPane'].sort(),
    );
  });

  test('durations as text or milliseconds; --no-notice is no notice', () => {
    const o = resolveJobOptions({text: 'x', delay: 250, interval: '2s', notice: false}, NONE);
    expect(o).toMatchObject({delayMs: 250, intervalMs: 2000, notify: false, noticeTemplate: null});
  });

  test('what cannot work is one sentence, before anything is recorded', () => {
    const r = (given: object) => () => resolveJobOptions({text: 'x', ...given}, NONE);
    expect(r({interval: '5ms'})).toThrow('--interval must be at least 10ms, got "5ms".');
    expect(r({timeout: '0s'})).toThrow(/--timeout must be more than 0/);
    expect(r({until: 'exit', enter: false})).toThrow(
      '--until exit runs the command, so it cannot be combined with --no-enter.',
    );
    expect(r({ignore: ['(']})).toThrow(/--ignore/);
    expect(r({stableChecks: '0'})).toThrow(/--stable-checks/);
    expect(r({notify: ['cmd:true']})).toThrow(/cmd: sink runs a program/);
  });
});

describe("config.toml's defaults", () => {
  test('its via, busy policy and sinks where none is given; the flags where they are', () => {
    const env = configSaying(
      '[submit]\nvia = "keys"\nif-busy = "wait"\n[notify]\nsinks = ["tmux"]\n',
    );
    const taken = resolveJobOptions({text: 'npm test'}, env);
    expect(taken).toMatchObject({via: 'keys', ifBusy: 'wait'});
    expect(taken.notifySinks).toHaveLength(1);
    const given = resolveJobOptions({text: 'npm test', ifBusy: 'refuse', via: 'auto'}, env);
    expect(given).toMatchObject({via: 'auto', ifBusy: 'refuse'});
    expect(resolveJobOptions({text: 'x', whenIdle: true}, NONE).ifBusy).toBe('wait');
  });

  test('--if-busy now waits for nothing: no stall watchdog, and --stall with it is refused', () => {
    const env = configSaying('[submit]\nstall = "5m"\n');
    expect(resolveJobOptions({text: 'hi', ifBusy: 'now'}, env).stall).toBeNull();
    expect(resolveJobOptions({text: 'hi'}, env).stall).not.toBeNull();
    expect(() => resolveJobOptions({text: 'hi', ifBusy: 'now', stall: '5m'}, env)).toThrow(
      /--stall watches the wait .* give one of them/,
    );
  });
});

test('the text: not empty, typable, within the limit', () => {
  expect(() => validateText('  ')).toThrow(/^Nothing to type/);
  expect(() => validateText('a\u0000b')).toThrow(/which tmux cannot type/);
  expect(() => validateText('x'.repeat(MAX_TEXT_BYTES + 1))).toThrow(/-byte limit/);
  expect(() => validateText('npm test')).not.toThrow();
});
