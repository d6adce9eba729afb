import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {ALL_DECLARED} from '../../../src/cli/declared.js';

const PAGE = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'json.md'), 'utf8');

/** The commands a table row of docs/json.md names in its first column. */
const documented = new Set(
  PAGE.split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => [...(l.split('|')[1] ?? '').matchAll(/`([a-z -]+)`/g)].map((m) => m[1])),
);

describe('docs/json.md', () => {
  test('names every command that takes --json', () => {
    const withJson = ALL_DECLARED.filter((d) => d.options && 'json' in d.options).map((d) =>
      d.group ? `${d.group} ${d.name}` : d.name,
    );
    expect(withJson.length).toBeGreaterThan(20);
    expect(withJson.filter((c) => !documented.has(c))).toEqual([]);
  });
});
