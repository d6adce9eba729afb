import {agentProfiles, loadedProfiles} from '../agents/registry.js';
import {compareText} from '../base/order.js';
import {resolveStateDir} from '../base/paths.js';
import {jobsInReach} from '../jobs/job-reach.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
import {askerOf} from '../pane/asker.js';
import {reachable} from '../pane/reach.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';

/**
 * What a word being completed may be (the shell's completion asks, `nudge completion`): the
 * ids of the jobs the caller may reach, or the panes of the server it may reach, each with a
 * few words about it. Read only: no job is ended or told of here, and a server that does not
 * answer offers nothing.
 */

/** What a word of a command line names. */
export type CompletedKind = 'job' | 'live-job' | 'pane' | 'profile' | 'agent' | 'nothing';

export interface CompleteOptions {
  kind: CompletedKind;
  /** What the word holds so far. */
  prefix: string;
  socketName?: string | undefined;
  socketPath?: string | undefined;
}

/** A value the word may take, and what it is (a job's text, a pane's program). */
export interface Completion {
  value: string;
  about: string;
}

/** How many jobs are offered, newest first. */
const MOST_JOBS = 30;

/** The values the word may take, in the order to offer them. */
export async function completions(o: CompleteOptions, ctx: CommandContext): Promise<Completion[]> {
  const found =
    o.kind === 'pane'
      ? await panesOffered(o, ctx)
      : o.kind === 'profile' || o.kind === 'agent'
        ? profilesOffered(o.kind)
        : o.kind === 'nothing'
          ? []
          : await jobsOffered(o, ctx);
  return found.filter((c) => c.value.startsWith(o.prefix));
}

/** The profiles a `--profile` may name (the words of its own first), or the agents. */
function profilesOffered(kind: 'profile' | 'agent'): Completion[] {
  const agents = agentProfiles().map((p) => ({value: p.name, about: 'agent'}));
  if (kind === 'agent') return agents;
  const words = [
    {value: 'auto', about: 'recognise the program'},
    {value: 'shell', about: 'a shell'},
    {value: 'raw', about: 'no profile: the screen alone'},
  ];
  const others = Object.values(loadedProfiles().profiles).filter(
    (p) =>
      p !== undefined &&
      !words.some((w) => w.value === p.name) &&
      !agents.some((a) => a.value === p.name),
  );
  return [...words, ...agents, ...others.map((p) => ({value: p?.name ?? '', about: 'profile'}))];
}

async function jobsOffered(o: CompleteOptions, ctx: CommandContext): Promise<Completion[]> {
  const store = new JobStore(resolveStateDir(ctx.env));
  const records = (await store.list().catch(() => [])).filter(
    (r) => o.kind === 'job' || !isTerminal(r.state),
  );
  const newest = [...records].sort((a, b) => compareText(b.createdAt, a.createdAt));
  const shown = (await jobsInReach(newest, ctx)).slice(0, MOST_JOBS);
  return shown.map((r) => ({value: r.id, about: `${r.state} ${r.pane}: ${r.preview}`}));
}

async function panesOffered(o: CompleteOptions, ctx: CommandContext): Promise<Completion[]> {
  try {
    const tmux = ctx.tmux(resolveServerSpec(o, ctx.env));
    const server = await tmux.describePane('');
    if (!server) return [];
    const rows = await tmux.paneStates();
    const {socketPath, serverPid} = server;
    const reached = (r: (typeof rows)[number]) => ({
      socketPath,
      serverPid,
      pane: r.paneId,
      sessionId: r.sessionId,
    });
    const kept = await reachable(await askerOf(ctx), rows, reached, ctx.tmux);
    return kept.map((r) => ({value: r.paneId, about: `${r.command} (${r.target})`}));
  } catch {
    // No server there, or none answers: nothing to offer.
    return [];
  }
}
