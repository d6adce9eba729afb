// Written by `nudge install opencode` (`nudge install opencode --uninstall` takes it out): when
// a session goes idle, tell nudge that this tmux pane's agent finished its turn.
import {spawn} from 'node:child_process';

export const NudgeTurnEnd = async () => ({
  event: async ({event}) => {
    if (event.type !== 'session.idle') return;
    const child = spawn(NUDGE_NODE, [NUDGE_CLI, 'hook', 'opencode-idle'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {});
    child.stdin.end(JSON.stringify({session_id: event.properties?.sessionID}));
  },
});
