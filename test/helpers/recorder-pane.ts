import {readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {serverWorld, userProfiles} from './nudge-home.js';
import {FIXTURES, type NudgeRun, runNudgeIn} from './run-nudge.js';
import type {TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

/** A pane running test/fixtures/recorder.mjs: every byte the pane's tty delivers is appended
 * to `file`, exactly as received (raw mode, no echo). */
export interface RecorderPane {
  pane: string;
  file: string;
  /** Everything recorded so far. */
  bytes(): Promise<Buffer>;
  /** Wait until at least `length` bytes were recorded; resolves to all of them. On timeout
   * the error shows what arrived (hex). */
  waitForLength(length: number, timeoutMs?: number): Promise<Buffer>;
  /** Wait until `count` lines of nudge's own arrived, each as nudge types into a program it
   * cannot read: the line and Enter, nothing else (no Escape, no C-u). Resolves to the lines;
   * throws if any byte is not accounted for so. */
  lines(count: number, timeoutMs?: number): Promise<string[]>;
  /** Run nudge from inside this pane (a child of the recorder: runNudgeIn), with `$TMUX` and
   * `$TMUX_PANE` naming it as tmux would. */
  nudge(args: string[], env: Record<string, string>, timeoutMs?: number): Promise<NudgeRun>;
}

let counter = 0;

/** What most byte-exact tests start from: a private tmux server, a recorder in it, a state
 * dir of the test's own. */
export async function recorderWorld(): Promise<{
  server: TmuxTestServer;
  rec: RecorderPane;
  home: string;
}> {
  const {server, home} = await serverWorld();
  return {server, rec: await startRecorder(server), home};
}

/** Start a recorder in a new window of `server` and wait until its tty is in raw mode. */
export async function startRecorder(server: TmuxTestServer): Promise<RecorderPane> {
  const file = join(server.dir, `recorded-${++counter}.bin`);
  const socket = join(server.dir, `runner-${counter}.sock`);
  const pane = await server.newPane([
    process.execPath,
    join(FIXTURES, 'recorder.mjs'),
    file,
    socket,
  ]);
  await server.waitForScreen(pane, /RECORDER READY/);
  const bytes = () => readFile(file).catch(() => Buffer.alloc(0));
  const tmuxVar = `${server.socket},${(await server.tmux('display', '-p', '#{pid}')).trim()},0`;
  return {
    pane,
    file,
    bytes,
    nudge: (args, env, timeoutMs) =>
      runNudgeIn(socket, args, {...env, TMUX: tmuxVar, TMUX_PANE: pane}, timeoutMs),
    async waitForLength(length, timeoutMs = 20_000) {
      let last = Buffer.alloc(0);
      return waitFor(
        `${length} bytes in ${file}`,
        async () => {
          last = await bytes();
          return last.length >= length ? last : undefined;
        },
        {timeoutMs, describe: () => `${last.length} bytes: ${hex(last)}`},
      );
    },
    async lines(count, timeoutMs = 60_000) {
      const text = await waitFor(
        `${count} line(s) in ${pane}`,
        async () => {
          const t = (await bytes()).toString('utf8');
          return t.split('\r').length - 1 >= count ? t : undefined;
        },
        {timeoutMs},
      );
      const parts = text.split('\r');
      const rest = parts.pop();
      return parts.map((line) => {
        if (rest !== '' || /[\x00-\x1f]/.test(line))
          throw new Error(`unexpected bytes in ${pane}: ${JSON.stringify(text)}`);
        return line;
      });
    },
  };
}

/** Bytes as space-separated hex pairs: readable in an assertion diff. */
export function hex(bytes: Buffer | string): string {
  const buf = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return [...buf].map((b) => b.toString(16).padStart(2, '0')).join(' ');
}

/** The recorder made known to nudge by a profile file of the user's (`recorder`: typed into as
 * it is, emptied with C-u), under `home`; the environment that makes nudge read it. */
export function recorderProfile(home: string): {XDG_CONFIG_HOME: string} {
  const recorder =
    "name = 'recorder'\nkind = 'raw'\nclearKeys = [['C-u']]\nminEnterDelayMs = 0\nbusy = []\n";
  return {XDG_CONFIG_HOME: userProfiles({recorder}, join(home, 'config'))};
}
