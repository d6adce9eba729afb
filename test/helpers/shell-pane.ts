import {expect} from 'vitest';
import {useNudgeHome} from './nudge-home.js';
import {startTmuxServer, type TmuxTestServer} from './tmux-server.js';
import {waitFor} from './wait-for.js';

/** A private tmux server whose first pane (%0) shows its shell's prompt, and a state folder
 * for nudge: where most tests of a shell pane start. */
export async function shellAtPrompt(): Promise<{server: TmuxTestServer; home: string}> {
  const server = await startTmuxServer();
  const home = useNudgeHome();
  await server.waitForScreen('%0', /^\$/m);
  return {server, home};
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
