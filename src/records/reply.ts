import type {RecordFormat} from '../agents/replies.js';
import {transcriptOf} from '../doors/claude-inbox.js';
import {claudeConfigDirs, sessionOfPane} from '../doors/claude-session.js';
import {recordEnvironment} from '../process/environ.js';
import type {Foreground} from '../process/foreground.js';
import type {ProcessTree} from '../process/tree.js';
import {type FoundReply, findReply} from './locate.js';

/** What reading a pane's reply needs. */
export interface ReplyDeps {
  /** The pane's foreground process group: its leader is the agent, whose environment says
   * where it keeps its records. */
  foreground: Pick<Foreground, 'group'>;
  /** Claude Code's session record names a process under the pane. */
  tree: ProcessTree;
  /** The caller's environment: used where the agent's own cannot be read. */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal | undefined;
}

/** The final reply of the turn of `prompt` in `pane`'s agent, from its own record, or why
 * there is none: what a job asks for a notice's `{reply}` (wired in src/jobs/execute.ts). */
export type Replies = (at: {
  pane: string;
  format: RecordFormat;
  prompt: string;
  sinceMs: number;
}) => Promise<{reply: {text: string}} | {why: string}>;

/** How long a reply is looked for once the turn ended: the record is written as the turn
 * ends, a moment before or after the screen settles. */
export const REPLY_WAIT_MS = 15_000;
const REPLY_POLL_MS = 250;

/**
 * The final reply of the turn of `prompt` begun since `sinceMs` in the pane's agent, from
 * the agent's own record in `format`; or why there is none (no record, no such turn, two
 * sessions with it). Looked for until {@link REPLY_WAIT_MS} after the call.
 */
export async function replyOfPane(
  deps: ReplyDeps,
  at: {panePid: number; format: RecordFormat; prompt: string; sinceMs: number},
): Promise<{reply: FoundReply} | {why: string}> {
  const leader = await deps.foreground.group(at.panePid);
  const own = leader === undefined ? undefined : await recordEnvironment(leader, deps.env);
  const env = own ?? deps.env;
  const only =
    at.format === 'claude-transcript' ? await claudeTranscript(deps, at.panePid, env) : undefined;
  const until = Date.now() + REPLY_WAIT_MS;
  for (;;) {
    const found = await findReply(at.format, at.prompt, {env, sinceMs: at.sinceMs, only});
    if ('reply' in found || Date.now() >= until || deps.signal?.aborted) return found;
    await new Promise((r) => setTimeout(r, REPLY_POLL_MS));
  }
}

/** {@link Replies} of the panes whose first process `panePidOf` tells. */
export function repliesOfPanes(
  panePidOf: (pane: string) => Promise<number | undefined>,
  deps: ReplyDeps,
): Replies {
  return async ({pane, ...at}) => {
    const panePid = await panePidOf(pane);
    if (panePid === undefined) return {why: `pane ${pane} is gone`};
    return replyOfPane(deps, {...at, panePid});
  };
}

/** Claude Code's transcript of the session in the pane, where its session record (2.1.2xx
 * and newer) names it; else undefined (every transcript is looked at). */
async function claudeTranscript(
  deps: ReplyDeps,
  panePid: number,
  env: Record<string, string | undefined>,
): Promise<string | undefined> {
  const found = await sessionOfPane(deps.tree, panePid, claudeConfigDirs(env));
  return 'session' in found ? transcriptOf(found.session) : undefined;
}
