// A wait's pattern as tmux's own search (issue 44): an ERE that matches every row the pattern
// could, widened where it cannot be said exactly, and none where widening cannot be safe.
// test/integration/tmux-search.test.ts runs the same translations through real tmux.
import {describe, expect, test} from 'vitest';
import {LinearPattern} from '../../../src/base/pattern.js';
import {searchFormat, tmuxSearch} from '../../../src/tmux/search.js';
import {eachMapsTo} from '../../helpers/maps-each.js';

const ere = (source: string, flags = '') => tmuxSearch(new LinearPattern(source, flags))?.ere;

describe('tmuxSearch', () => {
  eachMapsTo(
    (source: string) => ere(source),
    [
      ['BUILD OK', 'BUILD OK'],
      ['NEVER-MATCHES-[0-9]{40}', 'NEVER-MATCHES-[0123456789]+'],
      ['__NUDGE_ab12_EXIT_(\\d+)__', '__NUDGE_ab12_EXIT_[0123456789]+__'],
      ['^Done\\.$', 'Done\\.'],
      ['a.b', 'a.+b'],
      ['x.*y', 'x.*y'],
      ['(?:foo|bar)s?', '(foo|bar)s*'],
      ['(?P<n>ab)+c', '(ab)+c'],
      ['err(or)?', 'err(or)*'],
      ['a{0,3}b', 'a*b'],
      ['tests? (passed|failed)', 'tests* (passed|failed)'],
      ['[^x]y', '.+y'],
      ['[a-c]1', '[abc]1'],
      ['[]a^-]', '[]a^-]'],
      ['\\s+ok', '.+ok'],
      ['\\bword\\b', 'word'],
      ['1{', '1\\{'],
      ['a}b', 'a[}]b'],
      ['(a|)b', '(a)?b'],
      ["it's", 'it.+s'],
      ['café', 'caf.+'],
      ['\\p{Greek}x', '.+x'],
      ['#(x),y', '#x,y'],
      ['\\(x\\)', '\\(x\\)'],
      ['done\\?', 'done\\?'],
    ],
    '%s → %s',
  );

  test('case-insensitive patterns search ignoring case', () => {
    expect(tmuxSearch(new LinearPattern('done', 'i'))).toEqual({ere: 'done', ignoreCase: true});
  });

  test.each([
    ['a pattern that matches an empty row', 'x*'],
    ['only anchors', '^$'],
    ['a flag group', '(?i)done'],
    ['\\Q…\\E', '\\Qa.b\\E'],
    ['an empty alternative only', '(|)'],
  ])('no search for %s', (_what, source) => {
    expect(ere(source)).toBeUndefined();
  });

  test('no search for a pattern too long to send', () => {
    expect(ere('a'.repeat(401))).toBeUndefined();
    expect(ere('a'.repeat(400))).toBe('a'.repeat(400));
  });
});

describe('searchFormat', () => {
  test('escapes what tmux would read as a format of its own', () => {
    const search = tmuxSearch(new LinearPattern('#(rm -rf /),#{x}'));
    expect(searchFormat(search ?? {ere: '', ignoreCase: false})).toBe(
      '#{C/r:##rm -rf /#,##\\{x[#}]}',
    );
    expect(searchFormat({ere: 'a', ignoreCase: true})).toBe('#{C/ri:a}');
  });
});
