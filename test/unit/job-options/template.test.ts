import {expect, test} from 'vitest';
import {NOTICE_PLACEHOLDERS, validateNoticeTemplate} from '../../../src/job-options/template.js';

test.each([
  ['{nope}', /unknown placeholder \{nope\}/],
  ['{STATUS}', /unknown placeholder \{STATUS\}/],
  ['', /empty/],
  ['a\nb', /one line/],
  ['x'.repeat(2001), /longer than 2000/],
])('a --notice template %j is refused', (template, message) => {
  expect(() => validateNoticeTemplate(template)).toThrow(message);
});

test('every placeholder is taken, and a brace that names none is text', () => {
  const all = NOTICE_PLACEHOLDERS.map((p) => `{${p}}`).join(' ');
  expect(() => validateNoticeTemplate(`${all} {} {1x}`)).not.toThrow();
});
