// `submit --text-file FILE` (`-`: standard input), through the real CLI and worker: the text
// is typed byte for byte as the file holds it; bytes that are not UTF-8 are refused (exit 2,
// the offset of the first), never typed as U+FFFD (issue 29).
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {waitForJobEnd} from '../helpers/job-files.js';
import {jobIds, useNudgeHome} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {CLI, flagWords, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';

const TEXT = 'summarise ünï ✓ 😀 "quoted" $HOME `tick` -- end';

/** The submit was taken, and the recorder got the text byte for byte, and Enter. */
async function expectTypedWhole(
  r: {exitCode?: number; stdout: string; stderr: string},
  home: string,
  rec: {bytes(): Promise<Buffer>},
) {
  expect(r.exitCode, r.stderr).toBe(0);
  await waitForJobEnd(home, r.stdout.trim(), 60_000);
  expect((await rec.bytes()).toString('hex')).toBe(Buffer.from(`${TEXT}\r`).toString('hex'));
}

/** A private tmux server with a byte recorder's pane, and a state folder. */
async function recorderWorld() {
  const server = await startTmuxServer();
  return {server, home: useNudgeHome(), rec: await startRecorder(server)};
}

/** `nudge submit --text-file -` with `input` on its standard input. */
function submitStdin(socket: string, pane: string, home: string, input: string | Buffer) {
  return execa(
    process.execPath,
    [CLI, ...submitArgs(socket, pane, flagWords({notice: false, textFile: '-'}))],
    {env: cleanEnv({NUDGE_HOME: home}), extendEnv: false, reject: false, input},
  );
}

describe('submit --text-file', () => {
  test('a file: its text typed byte for byte, Enter after it', async () => {
    const {server, home, rec} = await recorderWorld();
    const file = join(useTempDir('nudge-text-'), 'prompt.txt');
    writeFileSync(file, TEXT);
    const r = await runNudge(
      submitArgs(server.socket, rec.pane, flagWords({notice: false, textFile: file})),
      {NUDGE_HOME: home},
    );
    await expectTypedWhole(r, home, rec);
  }, 60_000);

  test('standard input (-): the same', async () => {
    const {server, home, rec} = await recorderWorld();
    const r = await submitStdin(server.socket, rec.pane, home, TEXT);
    await expectTypedWhole(r, home, rec);
  }, 60_000);

  test('bytes that are not UTF-8: exit 2 with the offset, nothing queued or typed', async () => {
    const {server, home, rec} = await recorderWorld();
    const file = join(useTempDir('nudge-text-'), 'latin1.txt');
    writeFileSync(file, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b])); // "café ok" in Latin-1
    const r = await runNudge(
      submitArgs(server.socket, rec.pane, flagWords({notice: false, textFile: file})),
      {NUDGE_HOME: home},
    );
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(
      `nudge: --text-file ${file} is not UTF-8: byte 3 (0xe9) starts no valid character; convert it (iconv -t UTF-8) and submit again.`,
    );
    const piped = await submitStdin(server.socket, rec.pane, home, Buffer.from([0x61, 0xff]));
    expect(piped.exitCode).toBe(2);
    expect(piped.stderr.trim()).toBe(
      'nudge: --text-file - (standard input) is not UTF-8: byte 1 (0xff) starts no valid character; convert it (iconv -t UTF-8) and submit again.',
    );
    const both = await runNudge(submitArgs(server.socket, rec.pane, {textFile: file}, 'words'), {
      NUDGE_HOME: home,
    });
    expect(both.exitCode).toBe(2);
    expect(both.stderr.trim()).toBe('nudge: Give the text after -- or with --text-file, not both.');
    expect(jobIds(home)).toEqual([]);
    expect((await rec.bytes()).length).toBe(0);
  }, 60_000);
});
