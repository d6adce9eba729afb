import {describe, expect, test} from 'vitest';
import {MAX_TEXT_BYTES} from '../../../src/jobs/request.js';
import {
  parseProfile,
  resolveJobOptions,
  SUBMIT_DEFAULTS,
  SUBMIT_OPTIONS,
  validateText,
} from '../../../src/submit/options.js';

describe("submit's options: the table's defaults, resolved once", () => {
  test('nothing given: the defaults the table shows in --help', () => {
    const o = resolveJobOptions({text: 'x'});
    expect(o).toMatchObject({
      delayMs: 3000,
      intervalMs: 1000,
      stableChecks: SUBMIT_DEFAULTS.stableChecks,
      timeoutMs: 300_000,
      clear: true,
      enter: true,
      notify: true,
      until: {kind: 'stable'},
      profile: 'auto',
      onLimit: 'stop',
      resumeText: 'continue',
    });
    expect(SUBMIT_OPTIONS.delay.default).toBe(SUBMIT_DEFAULTS.delay);
  });

  test('durations as text or milliseconds; --no-notice is no notice', () => {
    const o = resolveJobOptions({text: 'x', delay: 250, interval: '2s', notice: false});
    expect(o).toMatchObject({delayMs: 250, intervalMs: 2000, notify: false, noticeTemplate: null});
  });

  test('what cannot work is one sentence, before anything is recorded', () => {
    expect(() => resolveJobOptions({text: 'x', interval: '5ms'})).toThrow(
      '--interval must be at least 10ms, got "5ms".',
    );
    expect(() => resolveJobOptions({text: 'x', timeout: '0s'})).toThrow(
      /--timeout must be more than 0/,
    );
    expect(() => resolveJobOptions({text: 'x', until: 'exit', enter: false})).toThrow(
      '--until exit runs the command, so it cannot be combined with --no-enter.',
    );
    expect(() => resolveJobOptions({text: 'x', ignore: ['(']})).toThrow(/--ignore/);
    expect(() => resolveJobOptions({text: 'x', stableChecks: '0'})).toThrow(/--stable-checks/);
  });
});

describe('the values checked by their own rule', () => {
  test('--profile', () => {
    expect(parseProfile('my-agent')).toBe('my-agent');
    expect(() => parseProfile('Bad Name')).toThrow(/--profile must be auto or a profile's name/);
  });

  test('the text: not empty, typable, within the limit', () => {
    expect(() => validateText('  ')).toThrow(/^Nothing to type/);
    expect(() => validateText('a\u0000b')).toThrow(/which tmux cannot type/);
    expect(() => validateText('x'.repeat(MAX_TEXT_BYTES + 1))).toThrow(/-byte limit/);
    expect(() => validateText('npm test')).not.toThrow();
  });
});
