import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {
  agentWindowArgs,
  createAgentHome,
  killProcessesOfHome,
  waitForIdleComposer,
} from '../helpers/real-agents.js';
import {modelAndServer, printToolOutput} from './lib.js';

// opencode's headless server (`opencode serve`) with a TUI attached from another pane
// (`opencode attach URL`): where does the shell tool of the attached session run, and with
// which $TMUX_PANE?
test('opencode serve + attach: the process tree of a tool call', async () => {
  const {model, server} = await modelAndServer();
  const opts = {modelUrl: model.url, approvals: 'all' as const};
  const where = createAgentHome('opencode', opts);
  // A window running opencode with `args`, in the work folder, as the harness starts it.
  const windowOf = async (...args: string[]) =>
    (await server.tmux(...agentWindowArgs('opencode', where, {...opts, args}))).trim();
  try {
    const a = await windowOf('serve', '--port', '47391');
    await sleep(5000);
    console.log('A', await server.capture(a));
    const b = await windowOf('attach', 'http://127.0.0.1:47391');
    await waitForIdleComposer(server, b, 'opencode', 60_000).catch((e) =>
      console.log('not idle', e.message),
    );
    const out = `${server.dir}/oc`;
    model.script(
      {
        shell: `echo "pane=$TMUX_PANE pid=$$" > ${out}.txt; ps -eo pid,ppid,sid,tty,args --forest > ${out}.ps`,
      },
      {text: 'done'},
    );
    await server.tmux('send-keys', '-t', b, '-l', 'run it');
    await sleep(500);
    await server.tmux('send-keys', '-t', b, 'Enter');
    await printToolOutput(out, 40, /opencode|echo "pane|tmux -S/);
    console.log(await server.tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_pid}'));
    console.log('B', await server.capture(b));
  } finally {
    await killProcessesOfHome(where.home);
  }
}, 200_000);
