import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';

/**
 * The environment that makes nudge read processes through `view` (src/process/view.ts), and,
 * for `ps`, proof that it did: `ps` and `lsof` on the PATH are wrappers that log each call
 * (its arguments, one line) to a file in `dir`, then run the real program. A test through the
 * ps reader asserts `calls()` holds the reader's calls — on code without that reader the
 * variable is ignored and nothing is logged.
 */
export function processViewEnv(
  view: 'proc' | 'ps',
  dir: string,
): {env: Record<string, string>; calls: () => string[]} {
  if (view === 'proc') return {env: {NUDGE_PROCESS_VIEW: 'proc'}, calls: () => []};
  const bin = join(dir, 'process-view-spy');
  const log = join(bin, 'calls.log');
  mkdirSync(bin, {recursive: true});
  for (const name of ['ps', 'lsof']) {
    const real = execFileSync('sh', ['-c', `command -v ${name}`], {encoding: 'utf8'}).trim();
    writeFileSync(
      join(bin, name),
      `#!/bin/sh\necho "${name} $*" >> '${log}'\nexec '${real}' "$@"\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
  return {
    env: {NUDGE_PROCESS_VIEW: 'ps', PATH: `${bin}:${process.env.PATH ?? ''}`},
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

/** Whether process `pid` exists and is not a zombie (one of ours that ended but was not yet
 * reaped is gone for every test that asks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return true;
  }
}
