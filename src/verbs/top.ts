import type {OptionsOf} from '../base/option-table.js';
import {resolveStateDir} from '../base/paths.js';
import {plainLine} from '../base/sanitize.js';
import {isDeadLetter, type ShownState, shownReceipt, shownState} from '../jobs/liveness.js';
import {endJobsOfGoneServers} from '../jobs/lost.js';
import {describeReceipt, type Rung} from '../jobs/receipts.js';
import type {JobRecord} from '../jobs/record.js';
import {describeStalled, stateWords, workingShown} from '../jobs/stalled.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
import {resolveServerSpec} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {JUMP_OPTIONS, TOP_OPTIONS} from './options/panes.js';

export type TopOptions = OptionsOf<typeof TOP_OPTIONS>;
export type JumpOptions = OptionsOf<typeof JUMP_OPTIONS> & {pane: string};

/** One pane nudge knows on the server, as `nudge top` lists it: from the job store alone (the
 * panes are never looked at). */
export interface TopPane {
  pane: string;
  /** The program nudge recognised there, and the profile it read it with (from the last job
   * that typed there). */
  program: string;
  profile: string;
  /** The state of the job at work there, or of the last one (`blocked` while a dialog it met
   * is up). */
  state: ShownState;
  /** That job, its text and how long ago it began. */
  job: string;
  preview: string;
  ageMs: number;
  /** Jobs waiting behind it. */
  queued: number;
  /** A blocked job's question, or what a stalled one shows. */
  needs?: string | undefined;
  /** The job at work there has stalled (`--stall`). */
  stalled?: boolean | undefined;
  kind: JobRecord['kind'];
  /** That job's rung on its receipts (a message: src/jobs/receipts.ts). */
  receipt?: Rung | undefined;
}

export interface TopView {
  nowMs: number;
  /** The server's socket path (its panes are the ones listed). */
  server: string;
  /** Where the view reads its jobs (what `top` watches for changes). */
  jobsDir: string;
  panes: TopPane[];
  /** Dead letters among the server's jobs: messages that never got through, not resent. */
  undelivered: number;
}

/** The program the job found in the pane when it typed. */
function programOf(record: JobRecord): string {
  return record.kind === 'submit' ? (record.program ?? '') : 'run';
}

/**
 * `nudge top`'s data: every pane of the server that has jobs in the store, with the job at work
 * there (or the last one), how many wait, and a blocked job's question — read from the job
 * store only, so a view that refreshes on its changes never touches the panes.
 */
export async function topView(o: TopOptions, ctx: CommandContext): Promise<TopView> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  // The server's identity, asked once: which jobs are of this server (and not of an old one).
  const server = await ctx.tmux(spec).describePane('');
  const store = new JobStore(resolveStateDir(ctx.env));
  const nowMs = ctx.clock.wall();
  const byPane = new Map<string, JobRecord[]>();
  const records = await store.list();
  await endJobsOfGoneServers(store, ctx, records);
  for (const r of await store.list()) {
    if (server && (r.socketPath !== server.socketPath || r.serverPid !== server.serverPid))
      continue;
    byPane.set(r.pane, [...(byPane.get(r.pane) ?? []), r]);
  }
  const panes: TopPane[] = [];
  let undelivered = 0;
  for (const [pane, records] of byPane) {
    const shown = records.map((r) => ({r, state: shownState(r, nowMs)}));
    const live = shown.filter((s) => s.state !== 'lost' && !isTerminal(s.state));
    const atWork = live.find((s) => s.state !== 'queued');
    // Else the last job that had the pane: one dropped from the queue never did.
    const head = atWork ?? live[0] ?? shown.findLast((s) => !neverHadPane(s.r)) ?? shown.at(-1);
    if (!head) continue;
    const typed = [...records].reverse().find((r) => r.kind === 'submit' && r.profile);
    // As `jobs` believes them: a message whose worker died ends on its ending's rung.
    const receipt = shownReceipt(head.r, head.state, nowMs);
    undelivered += shown.filter((s) => isDeadLetter(s.r, s.state, nowMs)).length;
    panes.push({
      pane,
      program: typed ? programOf(typed) : programOf(head.r),
      profile: typed?.kind === 'submit' ? (typed.profile ?? '') : '',
      // A job blocked on a dialog it met after typing goes on once it is answered: blocked.
      state: head.r.blocked && !isTerminal(head.state) ? 'blocked' : head.state,
      job: head.r.id,
      // The text and the question are others' words; top draws them in the person's terminal.
      preview: plainLine(head.r.preview),
      ageMs: Math.max(0, nowMs - Date.parse(head.r.createdAt)),
      queued: live.filter((s) => s.state === 'queued' && s.r.id !== head.r.id).length,
      needs: plainLineOf(
        head.r.blocked?.question ??
          (head.state === 'typing' && head.r.kind === 'submit' && head.r.typed !== undefined
            ? stateWords(head.r)
            : undefined) ??
          (head.r.stalled ? describeStalled(head.r.stalled, nowMs) : undefined) ??
          (head.r.working ? workingShown(head.r.working) : undefined) ??
          (receipt && isDeadLetter(head.r, head.state, nowMs)
            ? describeReceipt(receipt)
            : undefined),
      ),
      ...(head.r.stalled ? {stalled: true} : {}),
      kind: head.r.kind,
      ...(receipt ? {receipt: receipt.rung} : {}),
    });
  }
  panes.sort((a, b) => paneNumber(a.pane) - paneNumber(b.pane));
  return {nowMs, server: server?.socketPath ?? '', jobsDir: store.jobsDir, panes, undelivered};
}

/** A job that ended before it had the pane (dropped from the queue, cancelled or timed out
 * while it waited for the lock): no profile was ever read for it. */
const neverHadPane = (r: JobRecord) =>
  r.kind === 'submit' && isTerminal(r.state) && r.profile === undefined;

const plainLineOf = (text: string | undefined) =>
  text === undefined ? undefined : plainLine(text);
const paneNumber = (pane: string) => Number.parseInt(pane.replace('%', ''), 10) || 0;

/** `top`'s jump: bring the client `top` runs in (or `--client`) to the pane. */
export async function jumpTo(o: JumpOptions, ctx: CommandContext): Promise<{pane: string}> {
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  await ctx.tmux(spec).jumpToPane(o.pane, o.client);
  return {pane: o.pane};
}
