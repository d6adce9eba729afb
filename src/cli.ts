#!/usr/bin/env node
// The command-line entry. `nudge --version` is answered here, with nothing else loaded (a
// script asks it to tell which nudge it has: it starts as fast as Node does). Otherwise it
// turns on Node's compile cache (Node 22.1 and newer) before the program is loaded: `nudge
// submit` runs on every agent turn, and modules compiled once are then read back instead of
// compiled again. `nudge submit`, `nudge jobs` and `nudge status` go to src/quick-submit.ts
// and src/quick.ts, each a bundle of its own path alone; what they do not take, and every
// other command, to the program, src/main.ts.
import module from 'node:module';
import {homedir} from 'node:os';
import {join} from 'node:path';

if (process.argv.length === 3 && process.argv[2] === '--version') {
  // Loaded here only: the other commands start with no file of the bundle but their own.
  const {nudgeVersion} = await import('./base/version.js');
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
  const words = process.argv.slice(2);
  const ran =
    words[0] === 'submit'
      ? await (await import('./quick-submit.js')).quickSubmit(words, process.env)
      : words[0] === 'jobs' || words[0] === 'status'
        ? await (await import('./quick.js')).quick(words, process.env)
        : false;
  if (!ran) await import('./main.js');
}
