import {execFileSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** The process views a test can run nudge through: /proc, the ps reader over Linux's own ps
 * (procps: real wait channels), and over a ps that prints what macOS's does (no wait
 * channels, `comm` as a path: test/fixtures/macos-ps/ps). */
export type TestProcessView = 'proc' | 'ps' | 'mac';

/**
 * The environment that makes nudge read processes through `view` (src/process/view.ts), and,
 * for `ps` and `mac`, proof that it did: `ps` and `lsof` on the PATH are wrappers that log
 * each call (its arguments, one line) to a file in `dir`, then run the real program (for
 * `mac`, ps through the macOS stand-in, which also logs the environment nudge gave it). A test
 * through the ps reader asserts `calls()` holds the reader's calls — on code without that
 * reader the variable is ignored and nothing is logged.
 */
export function processViewEnv(
  view: TestProcessView,
  dir: string,
): {env: Record<string, string>; calls: () => string[]; psEnvironments: () => string[]} {
  if (view === 'proc') {
    return {env: {NUDGE_PROCESS_VIEW: 'proc'}, calls: () => [], psEnvironments: () => []};
  }
  const bin = join(dir, `process-view-${view}`);
  const log = join(bin, 'calls.log');
  const envLog = join(bin, 'ps-env.log');
  mkdirSync(bin, {recursive: true});
  for (const name of ['ps', 'lsof']) {
    const real = execFileSync('sh', ['-c', `command -v ${name}`], {encoding: 'utf8'}).trim();
    const run =
      view === 'mac' && name === 'ps'
        ? `env >> '${envLog}'\necho ---- >> '${envLog}'\nNUDGE_REAL_PS='${real}' exec '${MACOS_PS}' "$@"`
        : `exec '${real}' "$@"`;
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\n${run}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const lines = (file: string) =>
    existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  return {
    env: {NUDGE_PROCESS_VIEW: 'ps', PATH: `${bin}:${process.env.PATH ?? ''}`},
    calls: () => lines(log),
    psEnvironments: () =>
      existsSync(envLog) ? readFileSync(envLog, 'utf8').split('----\n').filter(Boolean) : [],
  };
}

/** The macOS-like ps (see processViewEnv). */
const MACOS_PS = fileURLToPath(new URL('../fixtures/macos-ps/ps', import.meta.url));

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
