// A control client mutes and follows panes by pausing their output for itself
// (src/tmux/control-switches.ts), thousands of times over a long wait. tmux 3.3a crashed
// (the whole server) when a pane's output was turned *off* while output for the client was
// queued (tmux#5054): three runs out of three of this very stress with `:off`. This drives the
// lines PaneSwitches sends, on busy panes, with clients that stop reading now and then (so
// output queues up), and the server must live through it.
import {execa} from 'execa';
import {describe, expect, it, onTestFinished} from 'vitest';
import {PaneSwitches, type SubscriptionChange} from '../../src/tmux/control-switches.js';
import {Listeners} from '../../src/tmux/listeners.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

const TOGGLES = 3_000;
/** Each client stops reading this often (toggles), for STALL_MS: its output queues in tmux. */
const STALL_EVERY = 50;
const STALL_MS = 300;

/** A control client of `server` whose stdin the switches write to, counting what it hears. */
function controlClient(server: TmuxTestServer) {
  const child = execa(
    'tmux',
    ['-S', server.socket, '-C', 'attach-session', '-t', 'main', '-f', 'ignore-size,pause-after=1'],
    {stdin: 'pipe', stdout: 'pipe', stderr: 'ignore', reject: false, buffer: false},
  );
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  let heard = 0;
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    heard += chunk.split('\n').filter((l) => l.startsWith('%')).length;
  });
  const switches = new PaneSwitches(async (line) => {
    child.stdin?.write(`${line}\n`);
  }, new Listeners<SubscriptionChange>());
  return {child, switches, heard: () => heard};
}

/** Pause and continue `panes` at random, `TOGGLES` times, stalling now and then. */
async function toggle(client: ReturnType<typeof controlClient>, panes: string[]) {
  for (let i = 1; i <= TOGGLES; i++) {
    const pane = panes[i % panes.length] ?? '%0';
    client.switches.setOutput(pane, Math.random() < 0.5 ? 'pause' : 'continue');
    if (i % STALL_EVERY === 0) {
      client.child.stdout?.pause();
      setTimeout(() => client.child.stdout?.resume(), STALL_MS);
    }
    await new Promise((r) => setTimeout(r, Math.random() * 5));
  }
}

describe('pausing panes for a control client', () => {
  it('thousands of pauses and continues on busy panes, with clients that fall behind, never bring tmux down', async () => {
    const server = await startTmuxServer(['sh', '-c', 'while :; do seq 1 2000; done']);
    const second = await server.newPane(['sh', '-c', 'while :; do seq 1 500; sleep 0.01; done']);
    const third = (
      await server.tmux('new-window', '-d', '-t', 'main', '-P', '-F', '#{pane_id}', 'yes')
    ).trim();
    const panes = ['%0', second, third];
    const pid = (await server.tmux('display-message', '-p', '#{pid}')).trim();
    const clients = [controlClient(server), controlClient(server)];
    await Promise.all(clients.map((c) => toggle(c, panes)));
    // Alive, the same server, and still serving both clients.
    expect((await server.tmux('display-message', '-p', '#{pid}')).trim()).toBe(pid);
    const attached = (await server.tmux('list-clients', '-F', '#{client_control_mode}')).trim();
    expect(attached.split('\n')).toEqual(['1', '1']);
    for (const c of clients) expect(c.heard()).toBeGreaterThan(0);
  });
});
