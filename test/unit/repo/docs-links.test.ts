// The README, CONTRIBUTING.md and docs/ cite only what is in the repository: every relative
// link names a file that exists (and a heading in it, for an #anchor), and every path written
// in code quotes under src/, test/, scripts/, docs/, data/ or workers/ exists.
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The text outside fenced code blocks. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(readFileSync(join(ROOT, page), 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe.each(PAGES)('%s', (page) => {
  const text = prose(readFileSync(join(ROOT, page), 'utf8'));

  test('every relative link resolves (file and heading)', () => {
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file ? join(dirname(join(ROOT, page)), file) : join(ROOT, page);
      if (!existsSync(path)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor && path.endsWith('.md') && !anchorsOf(relative(ROOT, path)).has(anchor))
        broken.push(`${target}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  test('every path it cites in code quotes exists', () => {
    const missing: string[] = [];
    for (const m of text.matchAll(/`((?:src|test|scripts|docs|data|workers|bench)\/[\w./-]+)`/g)) {
      const cited = (m[1] ?? '').replace(/[.,:]$/, '');
      if (/[*<]/.test(cited)) continue;
      if (!existsSync(join(ROOT, cited))) missing.push(cited);
    }
    expect(missing).toEqual([]);
  });
});
