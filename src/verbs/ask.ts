import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import type {JobOutcome} from '../jobs/events.js';
import {agentInPane} from '../pane/profile.js';
import {reachablePane} from '../pane/target.js';
import {listenersOf} from '../process/listeners.js';
import type {FoundReply} from '../records/locate.js';
import {replyOfPane, unreadable} from '../records/reply.js';
import {submitJob} from '../submit/submit-job.js';
import {insideTmux} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {ASK_OPTIONS} from './options/ask.js';

/** What `nudge ask` takes: its table, and the text (the words after `--`, joined). */
export type AskOptions = Omit<OptionsOf<typeof ASK_OPTIONS>, 'json'> & {text: string};

/** What `nudge ask` found: the job that typed the prompt, how its turn ended, and the reply
 * the agent recorded for it (or why there is none). */
export interface AskResult {
  job: string;
  pane: string;
  agent: string;
  outcome: JobOutcome;
  reply?: FoundReply;
  /** Why no reply is given though the turn ended (its record holds none yet, two sessions). */
  why?: string;
  /** The message id this ask repeated (`--id`): the job and reply are the first ask's. */
  sentBefore?: string;
}

/**
 * `nudge ask --pane %N -- TEXT`: the text typed into the agent's pane as a prompt by a job run
 * here (`submit --wait`: the same lock, typing, verdicts and exit codes, no notice), and once
 * its turn is over, the agent's final reply for that turn read from the agent's own record
 * (src/records/), never from its screen. An agent that keeps no record nudge reads is refused
 * before anything is typed.
 */
export async function ask(o: AskOptions, ctx: CommandContext): Promise<AskResult> {
  if (o.pane === undefined || o.pane === '')
    throw new NudgeError('bad-usage', "nudge ask needs --pane: the agent's pane to ask (%N).");
  if (o.text.trim() === '')
    throw new NudgeError(
      'empty-text',
      'Nothing to ask: give the prompt after "--", e.g. nudge ask --pane %2 -- \'why?\'.',
    );
  const {tmux, info} = await reachablePane(o, ctx, '--pane');
  // Your own pane: the same %N on the server you are in (another server's %N is another pane).
  if (ctx.env.TMUX_PANE === info.paneId && insideTmux(ctx.env)?.socketPath === info.socketPath)
    throw new NudgeError(
      'bad-usage',
      `Pane ${info.paneId} is your own: nudge ask waits for another agent's turn, and yours cannot end while you wait.`,
    );
  const profile = await agentInPane(ctx, info, await tmux.view(info.paneId, 0));
  if (!profile?.replies)
    throw new NudgeError(
      'no-record',
      profile
        ? `${profile.name} in pane ${info.paneId} keeps no record nudge reads a reply from; nothing was typed (docs/ask.md lists the agents that do).`
        : `Pane ${info.paneId} runs ${info.currentCommand || 'a program'}, not an agent nudge knows; nudge ask reads the reply from an agent's own record, so nothing was typed.`,
    );
  const why = await unreadable(ctx, profile.replies, info.panePid);
  if (why) throw new NudgeError('no-record', `${why}; nothing was typed into ${info.paneId}.`);
  const sinceMs = Date.now();
  const ran = await submitJob(
    {
      pane: info.paneId,
      socketName: o.socketName,
      socketPath: o.socketPath,
      text: o.text,
      timeout: o.timeout,
      // Another pane than the caller's: no tool call of its to let return first.
      delay: '0',
      profile: profile.name,
      notice: false,
      wait: true,
      id: o.id,
    },
    ctx,
  );
  if (ran.kind !== 'ran') throw new Error('submit --wait returned before its job ran');
  const again = ran.sentBefore === undefined ? {} : {sentBefore: ran.sentBefore};
  const base = {
    job: ran.job,
    pane: info.paneId,
    agent: profile.name,
    outcome: ran.outcome,
    ...again,
  };
  if (ran.outcome.state !== 'done') return base;
  const found = await replyOfPane(
    {...ctx, listeners: listenersOf},
    // Asked before under the same id: the reply of that ask's turn.
    {panePid: info.panePid, format: profile.replies, prompt: o.text, sinceMs: ran.since ?? sinceMs},
  );
  return {...base, ...found};
}
