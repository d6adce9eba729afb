import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';

/**
 * The map of src/ (CONTRIBUTING.md): which folder may import which. A folder may always
 * import its own files. An import outside this table fails here, naming the file.
 */
const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  tmux: ['base', 'process'],
  process: ['base'],
  locks: ['base', 'tmux', 'process'],
  agents: ['base', 'tmux', 'locks'],
  detect: ['base', 'tmux', 'agents', 'process'],
  pane: ['base', 'tmux', 'agents', 'detect', 'locks', 'process'],
  jobs: ['base', 'tmux', 'agents', 'detect', 'pane', 'locks', 'process'],
  watch: ['base', 'tmux', 'agents', 'detect', 'pane', 'jobs', 'locks', 'process'],
  runs: ['base', 'tmux', 'agents', 'detect', 'pane', 'jobs', 'locks', 'process'],
  setup: ['base', 'agents'],
  commands: [
    'base',
    'tmux',
    'agents',
    'detect',
    'pane',
    'jobs',
    'locks',
    'process',
    'watch',
    'runs',
    'setup',
  ],
  mcp: ['base', 'commands'],
  cli: ['base', 'tmux', 'agents', 'commands', 'jobs', 'watch', 'mcp'],
};

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) =>
    e.isDirectory()
      ? sourceFiles(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** The src/ folder a file is in ('' for src/cli.ts and src/main.ts, the entry). */
function folderOf(file: string): string {
  const rel = relative(SRC, file).split('/');
  return rel.length > 1 ? (rel[0] ?? '') : '';
}

/** Relative imports of a file, static and dynamic, resolved to files under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => join(file, '..', s));
}

describe('the folders of src/ import only what the map allows', () => {
  const files = sourceFiles(SRC);

  test('every folder is on the map', () => {
    const folders = new Set(files.map(folderOf).filter(Boolean));
    expect([...folders].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  test.each(files.map((f) => [relative(SRC, f), f] as const))('%s', (_name, file) => {
    const from = folderOf(file);
    if (from === '') return; // src/cli.ts and src/main.ts wire everything
    const allowed = new Set([from, ...(MAY_IMPORT[from] ?? [])]);
    const wrong = importsOf(file)
      .map((target) => relative(SRC, target))
      .filter((rel) => !rel.startsWith('..'))
      .filter((rel) => !allowed.has(rel.split('/').length > 1 ? (rel.split('/')[0] ?? '') : ''));
    expect(wrong, `${relative(SRC, file)} imports outside its map`).toEqual([]);
  });

  test('only src/process/ starts or signals processes', () => {
    const offenders = files.filter((f) => {
      if (folderOf(f) === 'process') return false;
      const text = readFileSync(f, 'utf8');
      return (
        /from 'node:child_process'(?!.*type)/.test(text.replace(/import type[^;]*;/g, '')) ||
        /process\.kill\(/.test(text)
      );
    });
    expect(offenders.map((f) => relative(SRC, f))).toEqual([]);
  });
});
