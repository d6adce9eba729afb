// Written by `nudge install pi` (`nudge install pi --uninstall` takes it out): when the agent
// ends its work on a prompt, tell nudge that this tmux pane's agent finished its turn.
import {spawn} from 'node:child_process';

export default function (pi: {on: (event: string, handler: () => void) => void}) {
  pi.on('agent_end', () => {
    const child = spawn(NUDGE_NODE, [NUDGE_CLI, 'hook', 'pi-agent-end'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {});
    child.stdin.end('{}');
  });
}
