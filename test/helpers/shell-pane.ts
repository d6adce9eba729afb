import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {expect} from 'vitest';
import {serverWorld} from './nudge-home.js';
import {
  fixture,
  type NudgeRun,
  runNudgeIn,
  type SubmitFlags,
  submitArgs,
  submitJob,
} from './run-nudge.js';
import type {TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

/** A private tmux server whose first pane (%0) shows its shell's prompt, and a state folder
 * for nudge: where most tests of a shell pane start. */
export async function shellAtPrompt(): Promise<{server: TmuxTestServer; home: string}> {
  const {server, home} = await serverWorld();
  await server.waitForScreen('%0', /^\$/m);
  return {server, home};
}

/** The screen's lines of `pane`, trailing blanks gone. */
export async function screenLines(
  server: {capture(pane: string): Promise<string>},
  pane: string,
): Promise<string[]> {
  return (await server.capture(pane)).split('\n').map((l) => l.trimEnd());
}

/** shellAtPrompt, and a job submitted (detached) to its %0 with submitArgs's steady timings,
 * `flags` and `-- text`; `env` beside NUDGE_HOME. */
export async function jobAtPrompt(
  flags: SubmitFlags,
  text: string,
  env: Record<string, string> = {},
): Promise<{server: TmuxTestServer; home: string; id: string}> {
  const {server, home} = await shellAtPrompt();
  const id = await submitJob(submitArgs(server.socket, '%0', flags, text), {
    ...env,
    NUDGE_HOME: home,
  });
  return {server, home, id};
}

/** Wait until `pane` shows `output` and the notice, and check the notice came after the
 * output (typed once the job was done, not into it); the screen then. */
export async function expectNoticeAfter(
  server: TmuxTestServer,
  pane: string,
  output: RegExp,
  notice: string,
): Promise<string> {
  let screen = '';
  await waitFor(
    `${output} and then "${notice}" on ${pane}`,
    async () => {
      screen = await server.capture(pane);
      return output.test(screen) && screen.includes(notice) ? true : undefined;
    },
    {timeoutMs: 10_000, describe: () => screen},
  );
  expect(screen.indexOf(notice), `the notice came before ${output}:\n${screen}`).toBeGreaterThan(
    screen.search(output),
  );
  return screen;
}

/** A shell pane from which tests run nudge as a person would type it there: a runner
 * (test/fixtures/runner.mjs) started in the background of the pane's shell, so each nudge is a
 * descendant of the pane (nudge proves its pane by its process tree, not by `$TMUX_PANE`). */
export interface InsidePane {
  pane: string;
  /** The runner's socket (test/fixtures/runner.mjs). */
  socket: string;
  /** `$TMUX` and `$TMUX_PANE` as tmux gives them to the pane's programs. */
  env: {TMUX: string; TMUX_PANE: string};
  /** Run nudge in the pane with `env` (and the pane's `$TMUX`, `$TMUX_PANE`). */
  nudge(args: string[], env: Record<string, string>, timeoutMs?: number): Promise<NudgeRun>;
}

let runners = 0;

/** Start a runner in the background of the shell in `pane` (at its prompt), once it listens.
 * `as`: the command line it shows (its argv[0], by bash's `exec -a`), to stand in for a
 * program nudge recognises by it (a server an agent shares between its sessions). */
export async function runFromPane(
  server: TmuxTestServer,
  pane: string,
  as?: string,
): Promise<InsidePane> {
  const socket = join(server.dir, `pane-runner-${++runners}.sock`);
  const start = `${as ? `exec -a '${as}' ` : ''}${process.execPath} ${fixture('runner.mjs')} ${socket}`;
  const line = as ? `(${start}) >/dev/null &` : `${start} >/dev/null &`;
  await server.tmux('send-keys', '-t', pane, '-l', line);
  await server.tmux('send-keys', '-t', pane, 'Enter');
  await waitFor(`the runner in ${pane}`, async () => (existsSync(socket) ? true : undefined));
  await server.tmux('send-keys', '-t', pane, 'C-l');
  const pid = (await server.tmux('display-message', '-p', '#{pid}')).trim();
  const env = {TMUX: `${server.socket},${pid},0`, TMUX_PANE: pane};
  return {
    pane,
    socket,
    env,
    nudge: (args, more, timeoutMs) => runNudgeIn(socket, args, {...more, ...env}, timeoutMs),
  };
}

/** End the `sleep` the shell in `pane` runs in its foreground (a child of the pane's shell,
 * started by the test), by its process id: the test says when a person's command is over,
 * rather than betting on how long a loaded machine takes to reach the next step. */
export async function endSleepIn(server: TmuxTestServer, pane: string): Promise<void> {
  const shell = (await server.tmux('display', '-p', '-t', pane, '#{pane_pid}')).trim();
  const found = await execa('pgrep', ['-P', shell, '-x', 'sleep'], {reject: false});
  const pids = found.stdout.split(/\s+/).filter(Boolean).map(Number);
  expect(pids, `no sleep under the shell of ${pane} (${shell})`).toHaveLength(1);
  process.kill(pids[0] as number, 'SIGTERM');
}
