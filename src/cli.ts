#!/usr/bin/env node
// The command-line entry. `nudge --version` is answered here, with nothing else loaded (a
// script asks it to tell which nudge it has: it starts as fast as Node does). Otherwise it
// turns on Node's compile cache (Node 22.1 and newer) before the program is loaded: `nudge
// submit` runs on every agent turn, and modules compiled once are then read back instead of
// compiled again. The program itself is src/main.ts.
import module from 'node:module';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {nudgeVersion} from './base/version.js';

if (process.argv.length === 3 && process.argv[2] === '--version') {
  process.stdout.write(`${nudgeVersion()}\n`);
} else {
  try {
    // A folder of this user's (not the shared temp dir Node picks by default).
    const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
    (module as {enableCompileCache?: (dir: string) => unknown}).enableCompileCache?.(
      join(cache, 'tmux-nudge', 'compile-cache'),
    );
  } catch {
    // No cache: nudge runs as before.
  }
  await import('./main.js');
}
