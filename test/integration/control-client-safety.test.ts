// A control-mode client that is ended before its handshake with the server is done crashes
// tmux 3.3a (tmux/tmux#5004): the server, with every session in it. The control runner must
// never do that, whatever happens to the attach. (The crash needs the client to go in a
// window of microseconds, so this catches a regression often, not always: 300 tries.)
import {describe, expect, it} from 'vitest';
import {createControlRunner} from '../../src/tmux/control-start.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

describe('the control runner and the tmux server', () => {
  it('attaches that time out at once, over and over, leave the server running', async () => {
    const server = await startTmuxServer(['sh', '-c', 'while :; do echo tick; sleep 0.05; done']);
    const serverPid = (await server.tmux('display-message', '-p', '#{pid}')).trim();
    let timedOut = 0;
    for (let i = 0; i < 300; i++) {
      // A start timeout of a few ms fires while the client is still introducing itself.
      try {
        const runner = await createControlRunner(
          {kind: 'socket-path', path: server.socket},
          {sessionId: '$0', startTimeoutMs: 1 + (i % 6)},
        );
        await runner.close();
      } catch {
        timedOut++;
      }
    }
    expect(timedOut).toBeGreaterThan(0);
    expect((await server.tmux('display-message', '-p', '#{pid}')).trim()).toBe(serverPid);
  });
});
