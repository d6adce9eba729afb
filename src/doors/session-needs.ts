import type {HookMarkSource, NeedsMark} from '../agents/hook-marks.js';
import type {DialogKind} from '../agents/profile.js';
import {plainLine} from '../base/sanitize.js';
import type {ProcessTree} from '../process/tree.js';
import {
  type ClaudeSession,
  claudeConfigDirs,
  rereadSession,
  sessionOfPane,
} from './claude-session.js';

/** What reading a pane's session record needs. */
export interface SessionNeedsDeps {
  tree: ProcessTree;
  env: Record<string, string | undefined>;
  /** The pane's first process, or undefined when the pane is gone. */
  panePidOf(pane: string): Promise<number | undefined>;
  now(): number;
}

/** How long a pane found to have no Claude Code session is not looked at again. */
const NONE_FOR_MS = 5_000;

/**
 * The marks of `marks`, with Claude Code's own word added: where the pane's session record
 * (`~/.claude/sessions/<pid>.json`, 2.1.2xx and newer) says `waiting` — for a permission
 * prompt, or a dialog open — that is a "needs a person" signal beside its Notification hook's
 * mark, and it needs no hook installed. Every wait takes it as it takes the hook's
 * (src/detect/blocked.ts): with no composer on screen and nothing busy, the wait ends
 * `blocked` even where the screen shows no dialog its profile reads.
 */
export function withSessionNeeds(marks: HookMarkSource, deps: SessionNeedsDeps): HookMarkSource {
  const found = new Map<string, ClaudeSession>();
  const none = new Map<string, number>();
  const sessionOf = async (pane: string): Promise<ClaudeSession | undefined> => {
    const known = found.get(pane);
    if (known) {
      const fresh = await rereadSession(known);
      if (fresh) return fresh;
      found.delete(pane);
    }
    if ((none.get(pane) ?? 0) > deps.now()) return undefined;
    const panePid = await deps.panePidOf(pane);
    const dirs = claudeConfigDirs(deps.env);
    const r = panePid === undefined ? undefined : await sessionOfPane(deps.tree, panePid, dirs);
    if (!r || 'why' in r) {
      none.set(pane, deps.now() + NONE_FOR_MS);
      return undefined;
    }
    found.set(pane, r.session);
    return r.session;
  };
  return {
    ...marks,
    async readNeeds(pane) {
      const session = await sessionOf(pane).catch(() => undefined);
      const said = session && sessionNeeds(session, pane, deps.now());
      return said ?? marks.readNeeds(pane);
    },
  };
}

/** The "needs a person" a session record says, if it says one. It is the session's state
 * now, so it counts from now (a hook's mark counts from when it was written). */
export function sessionNeeds(
  session: ClaudeSession,
  pane: string,
  nowMs: number,
): NeedsMark | undefined {
  if (session.status !== 'waiting') return undefined;
  const what = plainLine(session.waitingFor ?? 'a person');
  const kind: DialogKind = what === 'permission prompt' ? 'permission' : 'question';
  return {
    source: 'claude session record',
    kind,
    message: `Claude Code waits for a person (its session record says: waiting for ${what})`,
    atMs: nowMs,
    pane,
  };
}
