import {describe, expect, test} from 'vitest';
import {DEFAULT_NOTICE, renderNotice, validateNoticeTemplate} from '../../../src/jobs/notice.js';

const values = {
  status: 'done',
  elapsed: '4.2s',
  job: 'abc-1234',
  until: 'stable',
  exit: '',
  match: '',
  delivery: 'submitted',
  reason: 'idle: waiting for input (python3)',
};

describe('notice', () => {
  test('default wording for done and for a timeout', () => {
    expect(renderNotice(undefined, 'done', values)).toBe(DEFAULT_NOTICE);
    expect(renderNotice(undefined, 'timeout', {...values, status: 'timeout'})).toMatch(
      /^\[SYSTEM COMMAND\] Timed out after 4\.2s/,
    );
  });

  test('placeholders are filled in', () => {
    expect(renderNotice('job {job}: {status} in {elapsed}', 'done', values)).toBe(
      'job abc-1234: done in 4.2s',
    );
  });

  test('a custom template without {status} still says it timed out', () => {
    expect(renderNotice('Resume.', 'timeout', {...values, status: 'timeout'})).toBe(
      'Resume. (timed out after 4.2s)',
    );
    expect(renderNotice('{status}: resume', 'timeout', {...values, status: 'timeout'})).toBe(
      'timeout: resume',
    );
  });

  test.each([
    ['{nope}', /unknown placeholder \{nope\}/],
    ['', /empty/],
    ['a\nb', /one line/],
    ['x'.repeat(2001), /longer than 2000/],
  ])('refuses %j', (template, message) => {
    expect(() => validateNoticeTemplate(template)).toThrow(message);
  });
});

test('{reason} says why the wait ended', () => {
  expect(renderNotice('Done ({reason}).', 'done', values)).toBe(
    'Done (idle: waiting for input (python3)).',
  );
});
