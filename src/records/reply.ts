import type {RecordFormat} from '../agents/replies.js';
import {realClock} from '../base/clock.js';
import {transcriptOf} from '../doors/claude-inbox.js';
import {claudeConfigDirs, sessionOfPane} from '../doors/claude-session.js';
import {ownServer} from '../doors/ladder.js';
import {type OpencodeServer, portOf, sessionMessages} from '../doors/opencode-door.js';
import {recordEnvironment} from '../process/environ.js';
import type {Foreground} from '../process/foreground.js';
import type {Listeners} from '../process/listeners.js';
import type {ProcessTree} from '../process/tree.js';
import {entriesOf} from './formats.js';
import {type FileFormat, type FoundReply, findReply} from './locate.js';
import {replyOfTurn} from './turns.js';

/** What reading a pane's reply needs. */
export interface ReplyDeps {
  /** The pane's foreground process group: its leader is the agent, whose environment says
   * where it keeps its records. */
  foreground: Pick<Foreground, 'group' | 'commandLine'>;
  /** Who listens on a port: opencode's server is proven the pane's before it is asked. */
  listeners: (port: number) => Promise<Listeners>;
  /** Claude Code's session record names a process under the pane. */
  tree: ProcessTree;
  /** The caller's environment: used where the agent's own cannot be read. */
  env: NodeJS.ProcessEnv;
  /** Ends the look for a reply (the job's or the command's stop). */
  signal: AbortSignal;
}

/** The final reply of the turn of `prompt` in `pane`'s agent, from its own record, or why
 * there is none: what a job asks for a notice's `{reply}` (wired in src/job-worker/execute.ts). */
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
  const {format, panePid} = at;
  const only =
    format === 'claude-transcript' ? await claudeTranscript(deps, panePid, env) : undefined;
  const server = format === 'opencode-server' ? await opencodeOf(deps, panePid, env) : undefined;
  if (server && 'why' in server) return server;
  const until = realClock.now() + REPLY_WAIT_MS;
  for (;;) {
    const found = server
      ? await opencodeReply(server, at)
      : await findReply(format as FileFormat, at.prompt, {env, sinceMs: at.sinceMs, only});
    if ('reply' in found || realClock.now() >= until || deps.signal?.aborted) return found;
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

/** Why the pane's agent's record cannot be read, known before anything is typed: opencode's
 * is its server's, found only when it was started with `--port`. */
export async function unreadable(
  deps: Pick<ReplyDeps, 'foreground'>,
  format: RecordFormat,
  panePid: number,
): Promise<string | undefined> {
  if (format !== 'opencode-server') return undefined;
  const port = portOf((await deps.foreground.commandLine(panePid)) ?? []);
  return port === undefined ? OPENCODE_WITHOUT_PORT : undefined;
}

const OPENCODE_WITHOUT_PORT =
  'opencode keeps its sessions in a database nudge does not read; its replies come from its own server, found when it was started with --port N (opencode --port 4096)';

/** opencode's server in the pane, proven the pane's (what listens on a port may be anyone's). */
async function opencodeOf(
  deps: ReplyDeps,
  panePid: number,
  env: Record<string, string | undefined>,
): Promise<OpencodeServer | {why: string}> {
  const port = portOf((await deps.foreground.commandLine(panePid)) ?? []);
  if (port === undefined) return {why: OPENCODE_WITHOUT_PORT};
  return ownServer({listeners: deps.listeners, tree: deps.tree, env}, port, panePid);
}

/** The turn of `prompt` in the session opencode's TUI works in, from its server. */
async function opencodeReply(
  server: OpencodeServer,
  at: {prompt: string; sinceMs: number},
): Promise<{reply: FoundReply} | {why: string}> {
  const got = await sessionMessages(server, 5_000);
  if ('why' in got) return got;
  const reply = replyOfTurn(entriesOf('opencode-server', got.json), at.prompt);
  if (!reply || (reply.promptAtMs !== undefined && reply.promptAtMs < at.sinceMs))
    return {why: `opencode's session ${got.session} holds no reply of this turn yet`};
  return {reply: {...reply, record: `${server.base}/session/${got.session}`}};
}
