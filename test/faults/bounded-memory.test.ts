// Input that could eat the machine, under a memory limit (issue 42): nudge runs with its data
// segment capped (prlimit --data, which Linux counts for every private mapping: the heap and
// Buffers alike) far below what reading /dev/zero or a stream without end would take. Before
// the bound, `--text-file /dev/zero` grew to 23 GB; under the cap it died out of memory. Now
// each is refused with one sentence (exit 2) long before the cap, and a FIFO hangs nothing.
import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {jobIds, serverWorld} from '../helpers/nudge-home.js';
import {CLI, flagWords, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv} from '../helpers/tmux-server.js';

/** 256 MiB of data segment: Node starts and runs nudge in it, 23 GB does not fit. */
const CAP = String(256 * 1024 * 1024);

/** `nudge submit --text-file FILE` under the cap, with `stdin`. */
function cappedSubmit(
  socket: string,
  pane: string,
  home: string,
  file: string,
  stdin: 'ignore' | NodeJS.ReadableStream = 'ignore',
) {
  return execa(
    'prlimit',
    [
      `--data=${CAP}`,
      process.execPath,
      CLI,
      ...submitArgs(socket, pane, flagWords({notice: false, textFile: file})),
    ],
    {env: cleanEnv({NUDGE_HOME: home}), extendEnv: false, reject: false, stdin, timeout: 60_000},
  );
}

describe('bounded input under a memory cap', () => {
  it('/dev/zero, a FIFO and an endless standard input are refused (exit 2), never read to the cap', async () => {
    const {server, home} = await serverWorld();
    const pane = await server.newPane(['cat']);
    const fifo = join(useTempDir('nudge-fifo-'), 'fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [file, end] of [
      ['/dev/zero', 'is a character device, not a regular file.'],
      [fifo, 'is a FIFO, not a regular file.'],
    ] as const) {
      const r = await cappedSubmit(server.socket, pane, home, file);
      expect(r.timedOut, `${file} hung`).toBe(false);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(`nudge: --text-file ${file} ${end}`);
    }
    const zero = execa('cat', ['/dev/zero'], {reject: false, buffer: false});
    const piped = await cappedSubmit(server.socket, pane, home, '-', zero.stdout ?? 'ignore');
    zero.kill();
    expect(piped.timedOut, 'standard input was read for 60 s').toBe(false);
    expect(piped.exitCode, piped.stderr).toBe(2);
    expect(piped.stderr).toContain('holds more than the 65536-byte text limit');
    expect(jobIds(home)).toEqual([]);
  }, 240_000);
});
