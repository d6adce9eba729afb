import {mkdirSync, writeFileSync} from 'node:fs';
import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {execa} from 'execa';
import {waitFor} from './wait-for.js';

/**
 * A `tmux` early on PATH that appends its arguments to a log, then execs the real tmux. A
 * foreground `nudge expect` / `nudge wait` prints nothing until it ends; its tmux calls are
 * how a test knows it has looked at the pane and is now polling, so output can be produced
 * "after the call started" (or the pane killed "mid-wait") without guessing with a sleep.
 */
export interface TmuxCallLog {
  /** Environment for runNudge: PATH with the logging tmux first. */
  env: {PATH: string};
  /** The logged calls so far, one line each (`-S <sock> capture-pane …`). */
  calls(): Promise<string[]>;
  /** Wait until at least `count` logged calls capture a pane's contents. */
  waitForCaptures(count: number, timeoutMs?: number): Promise<void>;
}

let counter = 0;

/** Set up a logging tmux in `dir` (a test's temp dir). */
export async function useTmuxCallLog(dir: string): Promise<TmuxCallLog> {
  const real = (await execa('sh', ['-c', 'command -v tmux'])).stdout.trim();
  const bin = join(dir, `tmux-shim-${++counter}`);
  const log = join(dir, `tmux-calls-${counter}.log`);
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'tmux'),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`,
    {mode: 0o755},
  );
  const calls = async () =>
    (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  return {
    env: {PATH: `${bin}:${process.env.PATH ?? ''}`},
    calls,
    async waitForCaptures(count, timeoutMs = 20_000) {
      let seen: string[] = [];
      await waitFor(
        `${count} capture-pane calls in the tmux log`,
        async () => {
          seen = await calls();
          return seen.filter((c) => c.includes('capture-pane')).length >= count || undefined;
        },
        {timeoutMs, describe: () => seen.join('\n') || '(no tmux calls)'},
      );
    },
  };
}
