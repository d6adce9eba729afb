import {readFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

let cached: string | undefined;

/**
 * This nudge's version, from its package.json: the nearest one above this file named
 * `tmux-nudge` (this module runs from src/ under the tests, from dist/src/ built, and from a
 * chunk of the bundle in dist/src; the walk finds the same file from each).
 */
export function nudgeVersion(): string {
  cached ??= findVersion(dirname(fileURLToPath(import.meta.url)));
  return cached;
}

function findVersion(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'tmux-nudge' && pkg.version) return pkg.version;
    } catch {
      // No package.json here (or not ours): look further up.
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}
