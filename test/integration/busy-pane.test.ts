// A job waiting on a busy pane is told by tmux only what its verdict needs (issue 44,
// src/tmux/follow-format.ts): a wait for a pattern when a row may match (tmux's own search),
// a wait for stability when the pane goes quiet — through the real CLI and worker, on a real
// bash, with what each job's wait recorded of how it followed the pane.
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {expectJobEnd, jobEvent, jobEventLines} from '../helpers/job-files.js';
import {FIXTURES, submitArgs, submitJob} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';

/** A loop printing five lines a second for 12 s (followed after 5 s of it), then its answer
 * (computed by bash: the typed command does not hold it). */
const PRINTER = 'for i in $(seq 1 60); do echo tick $i; sleep 0.2; done; echo LAST-$((6*7))';

/** Submit `text` to the bash in `%0` with `flags`, wait for the job to end done, and return
 * its `condition-met` event and its events (for a failing assertion's message). */
async function jobDone(
  world: Awaited<ReturnType<typeof shellAtPrompt>>,
  flags: string[],
  text: string,
) {
  const {server, home} = world;
  const id = await submitJob(submitArgs(server.socket, '%0', flags, text), {NUDGE_HOME: home});
  await expectJobEnd(home, id, 'done', 90_000);
  return {met: await jobEvent(home, id, 'condition-met'), events: await jobEventLines(home, id)};
}

describe('a busy shell pane, followed by what the wait needs', () => {
  it('--until regex: followed by tmux search for the pattern, and the match found', async () => {
    const world = await shellAtPrompt();
    const until = ['--until', 'regex:^LAST-(\\d+)$', '--no-notice'];
    const {met, events} = await jobDone(world, until, PRINTER);
    expect(met, events).toMatchObject({match: 'LAST-42'});
    // (The match's own report turns it to its changes, a moment before the wait ends.)
    expect(met?.followedBy, events).toContain('search');
  });

  it('a match already on screen: followed by its changes until it is gone, the new one found', async () => {
    const world = await shellAtPrompt();
    const {server} = world;
    // The old match stays on the cleared 40-row screen above all the new output (nothing
    // scrolls), where tmux's search keeps finding it: the search alone could not tell a new
    // match from it.
    await server.tmux('send-keys', '-t', '%0', 'clear; echo LAST-42', 'Enter');
    await server.waitForScreen('%0', /^LAST-42$/m);
    const loop = 'for i in $(seq 1 30); do echo tick $i; sleep 0.2; done; echo LAST-$((6*7))';
    const {met, events} = await jobDone(world, ['--until', 'regex:^LAST-42$', '--no-notice'], loop);
    expect(met, events).toMatchObject({match: 'LAST-42'});
    expect(met?.followedBy, events).toContain('changes');
    const screen = await server.capture('%0');
    expect(screen.match(/^LAST-42$/gm), screen).toHaveLength(2);
  });

  it('--until stable: followed until it goes quiet, the notice after its last line', async () => {
    const world = await shellAtPrompt();
    const chatty = `node ${join(FIXTURES, 'chatty.mjs')} 9000`;
    const {met, events} = await jobDone(world, ['--until', 'stable'], chatty);
    expect(met?.followedBy, events).toEqual(['lull']);
    const screen = await world.server.waitForScreen('%0', /Command complete\. Resume\./);
    expect(screen.lastIndexOf('CHATTY DONE'), screen).toBeLessThan(
      screen.indexOf('Command complete. Resume.'),
    );
  });
});
