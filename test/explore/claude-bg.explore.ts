import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {agentBin, prepareAgentServer} from '../helpers/real-agents.js';
import {modelAndServer, printToolOutput} from './lib.js';

// Claude Code's background sessions (`claude --bg`, 2.1.332): where does their Bash tool run,
// and with which $TMUX_PANE?
test('claude --bg: the process tree of its tool calls', async () => {
  const {model, server} = await modelAndServer();
  const where = await prepareAgentServer(server, 'claude', {modelUrl: model.url, approvals: 'all'});
  const pane = await server.newPane(['bash', '--norc', '--noprofile']);
  const out = `${server.dir}/bg`;
  model.script(
    {
      shell: `echo "pane=$TMUX_PANE pid=$$" > ${out}.txt; ps -eo pid,ppid,pgid,sid,tty,args --forest > ${out}.ps`,
    },
    {text: 'done'},
  );
  await sleep(1500);
  await server.tmux(
    'send-keys',
    '-t',
    pane,
    '-l',
    `cd ${where.workdir} && ${agentBin('claude')} --bg "run it"`,
  );
  await server.tmux('send-keys', '-t', pane, 'Enter');
  await printToolOutput(out, 60, /claude|tmux|bash|echo "pane/);
  console.log(await server.capture(pane));
  console.log(await server.tmux('list-panes', '-a', '-F', '#{pane_id} #{pane_pid}'));
}, 200_000);
