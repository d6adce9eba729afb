// The translations of src/tmux/search.ts run by real tmux (issue 44): for each pattern and
// each line it matches in nudge, tmux's own search (`#{C/r:…}`, through the format escaping
// nudge sends) finds the row the line is on. A search that misses a line nudge matches would
// leave a busy pane's match unreported until a look; this is the test that says it does not.
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {LinearPattern} from '../../src/base/pattern.js';
import {searchFormat, tmuxSearch} from '../../src/tmux/search.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

/** Patterns and lines each matches in nudge (display-message strftimes `%`: none here). */
const CASES: [source: string, flags: string, lines: string[]][] = [
  ['NEVER-MATCHES-[0-9]{3}', '', ['x NEVER-MATCHES-123 y']],
  ['__NUDGE_ab12_EXIT_(\\d+)__', '', ['__NUDGE_ab12_EXIT_0__', '__NUDGE_ab12_EXIT_127__']],
  ['^Done\\.$', '', ['Done.']],
  ['a.b', '', ['a-b', 'aéb', 'a\tb']],
  ['(?:foo|bar)s? ok', '', ['foo ok', 'bars ok']],
  ['err(or)?: ', '', ['err: x', 'error: y']],
  ['[^x]y', '', ['ay', 'éy']],
  ['[]a^-]z', '', [']z', 'az', '^z', '-z']],
  ['\\s+ok\\b', '', ['  ok', '\tok!']],
  ['1{2}', '', ['11']],
  ['a}b{', '', ['a}b{']],
  ["it's #(x),y", '', ["it's #x,y"]],
  ['café', '', ['un café']],
  ['done', 'i', ['DONE', 'Done']],
  ['\\(x\\)\\[y\\]\\$\\^\\|\\*\\+\\?\\.\\\\', '', ['(x)[y]$^|*+?.\\']],
  ['[[:digit:]]+ passed', '', ['12 passed']],
  ['\\p{Lu}x', '', ['Éx', 'Ax']],
];

describe('tmux search (#{C/r:…}) as nudge sends it', () => {
  it('finds, in real tmux, every line each pattern matches in nudge', async () => {
    const server = await startTmuxServer(['sleep', '600']);
    const file = join(server.dir, 'line');
    const misses: string[] = [];
    for (const [source, flags, lines] of CASES) {
      const pattern = new LinearPattern(source, flags);
      const search = tmuxSearch(pattern);
      expect(search, source).toBeDefined();
      const format = searchFormat(search ?? {ere: '', ignoreCase: false});
      for (const line of lines) {
        expect(pattern.test(line), `${source} on ${line}`).toBe(true);
        writeFileSync(file, `before\n${line}\nafter\n`);
        await server.tmux('respawn-pane', '-k', '-t', '%0', `cat '${file}'; exec sleep 600`);
        await server.waitForScreen('%0', /^after$/m);
        const row = (await server.tmux('display-message', '-p', '-t', '%0', format)).trim();
        if (row !== '2') misses.push(`${source} (${format}) on ${JSON.stringify(line)}: ${row}`);
      }
    }
    expect(misses).toEqual([]);
  });
});
