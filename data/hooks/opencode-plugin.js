// Written by `nudge install opencode` (`nudge install opencode --uninstall` takes it out): when
// a session goes idle, tell nudge that this tmux pane's agent finished its turn — a top-level
// session only, once none of the sub-agents (child sessions) it started is still busy: a
// sub-agent's idle is not the pane's turn end, and opencode reports the parent idle while its
// children may still run (1.18.33: `session.created`/`updated` carry `info.parentID`,
// `session.status` carries `{type: idle|busy|retry}`).
import {spawn} from 'node:child_process';

export const NudgeTurnEnd = async () => {
  /** child session → its parent */
  const parents = new Map();
  /** sessions whose status is busy (or retrying) */
  const busy = new Set();
  /** top-level sessions that went idle while a child was still busy */
  const held = new Set();
  const childBusy = (id) => [...busy].some((s) => parents.get(s) === id);
  const mark = (id) => {
    const child = spawn(NUDGE_NODE, [NUDGE_CLI, 'hook', 'opencode-idle'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {});
    child.stdin.end(JSON.stringify({session_id: id}));
  };
  return {
    event: async ({event}) => {
      const p = event.properties ?? {};
      if (event.type === 'session.created' || event.type === 'session.updated') {
        if (p.info?.id && p.info.parentID) parents.set(p.info.id, p.info.parentID);
        return;
      }
      if (event.type === 'session.status') {
        if (p.status?.type === 'idle') busy.delete(p.sessionID);
        else if (p.sessionID) busy.add(p.sessionID);
        return;
      }
      if (event.type !== 'session.idle') return;
      const id = p.sessionID;
      busy.delete(id);
      const parent = parents.get(id);
      if (parent !== undefined) {
        // A sub-agent ended: its parent's turn is over once it is idle and no other child runs.
        if (held.has(parent) && !childBusy(parent) && !busy.has(parent)) {
          held.delete(parent);
          mark(parent);
        }
        return;
      }
      if (childBusy(id)) {
        held.add(id);
        return;
      }
      mark(id);
    },
  };
};
