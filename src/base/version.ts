import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

let cached: {dir: string; version: string} | undefined;

/**
 * This nudge's package: the nearest package.json above this file named `tmux-nudge` (this
 * module runs from src/ under the tests, from dist/src/ built, and from a chunk of the bundle
 * in dist/src; the walk finds the same file from each).
 */
function findPackage(): {dir: string; version: string} {
  cached ??= find(dirname(fileURLToPath(import.meta.url)));
  return cached;
}

/** This nudge's version, from its package.json. */
export function nudgeVersion(): string {
  return findPackage().version;
}

/** The folder of this nudge's package (where its `data/` is). */
export function packageDir(): string {
  return findPackage().dir;
}

function find(start: string): {dir: string; version: string} {
  for (let dir = start; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'tmux-nudge' && pkg.version) return {dir, version: pkg.version};
    } catch {
      // No package.json here (or not ours): look further up.
    }
    if (dirname(dir) === dir) return {dir: start, version: 'unknown'};
  }
}
