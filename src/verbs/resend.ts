import {rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {ensureStateDir, FILE_MODE, resolveStateDir} from '../base/paths.js';
import {recordJob, startWorker} from '../jobs/enqueue.js';
import {shownReceipt} from '../jobs/liveness.js';
import {believedRecord} from '../jobs/lost.js';
import {describeReceipt, isUndelivered} from '../jobs/receipts.js';
import {type JobRequest, newJobId} from '../jobs/request.js';
import {isTerminal} from '../jobs/states.js';
import {type JobHandle, JobStore} from '../jobs/store.js';
import {reachablePane} from '../pane/target.js';
import {claimOfJob, passClaim} from '../submit/message-id.js';
import type {CommandContext} from './context.js';

/** What `nudge resend` takes: the dead letter, and the pane to send it to instead. */
export interface ResendOptions {
  job: string;
  pane?: string | undefined;
}

/** What it did: the new job, where it went, and the message id carried on (if it had one). */
export interface ResendResult {
  job: string;
  resentAs: string;
  pane: string;
  id?: string;
  /** Why the message had not got through. */
  was: string;
}

/** The marker that a job was resent (its content: the new job's id); made exclusively, so two
 * resends at once send it once. */
const RESENT = 'resent';

/**
 * `nudge resend J [--pane P]`: send a dead letter again — a message that never got through
 * (its receipt ended refused, undeliverable, or expired before delivery) — as a new job with
 * the same text and options, to its pane or to `--pane` on the same tmux server. Its message
 * id goes on with it (a retry under the id, to either pane, answers with the new job), the
 * old job says `resentAs`, the new one `resentFrom`. Anything else is refused in one sentence:
 * a job still going on, one that got through, one resent already.
 */
export async function resend(o: ResendOptions, ctx: CommandContext): Promise<ResendResult> {
  const stateDir = resolveStateDir(ctx.env);
  const store = new JobStore(stateDir);
  const old = await store.open(o.job);
  const was = await deadLetter(old, ctx.clock.wall());
  const request = await old.readRequest();
  if (!request.ok)
    throw new NudgeError('no-record', `Job ${old.id} cannot be resent: ${request.error}.`);
  const at = request.value;
  const {info} = await reachablePane(
    {socketPath: at.server.socketPath, pane: o.pane ?? at.pane},
    ctx,
  );
  await ensureStateDir(stateDir, ctx.env);
  const jobId = newJobId(ctx.clock.wall());
  const mark = join(old.dir, RESENT);
  try {
    await writeFile(mark, `${jobId}\n`, {flag: 'wx', mode: FILE_MODE});
  } catch {
    throw new NudgeError('bad-job', `Job ${old.id} was resent already (nudge status ${old.id}).`);
  }
  const fresh: JobRequest = {
    ...at,
    jobId,
    createdAt: new Date(ctx.clock.wall()).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: info.paneId === at.pane ? at.paneTarget : info.paneId,
  };
  const from = (await old.readState()).submittedFrom;
  const w = {store, info, from, entry: ctx.workerEntry, env: ctx.env};
  // Not resent after all (the new job could not be made): the old one may be resent again.
  const made = await recordJob(fresh, w).catch(async (error: unknown) => {
    await rm(mark, {force: true});
    throw error;
  });
  const {handle} = made;
  await handle.updateState({resentFrom: old.id});
  await handle.appendEvent('resent-from', {job: old.id, pane: at.pane});
  const claim = await claimOfJob(stateDir, old.id);
  const to = {job: jobId, server: info.socketPath, pane: info.paneId};
  if (claim) await passClaim(stateDir, claim, to);
  await old.updateState({resentAs: jobId});
  await old.appendEvent('resent', {as: jobId, pane: info.paneId});
  await startWorker(handle, {...w, undo: made.undo});
  return {job: old.id, resentAs: jobId, pane: info.paneId, ...(claim ? {id: claim.id} : {}), was};
}

/** Why job `old` never got through, or the sentence that refuses to send it again. */
async function deadLetter(old: JobHandle, nowMs: number): Promise<string> {
  const {record, shown} = await believedRecord(old, nowMs);
  if (record.kind !== 'submit')
    throw new NudgeError(
      'bad-job',
      `Job ${old.id} is a run, not a message: nudge recover brings runs back.`,
    );
  if (record.resentAs)
    throw new NudgeError('bad-job', `Job ${old.id} was resent already, as job ${record.resentAs}.`);
  if (!isTerminal(shown))
    throw new NudgeError(
      'bad-job',
      `Job ${old.id} is still ${shown}: only a message that never got through is resent.`,
    );
  const receipt = shownReceipt(record, shown, nowMs);
  if (!receipt || !isUndelivered(receipt))
    throw new NudgeError(
      'bad-job',
      `Job ${old.id} got through (${receipt ? describeReceipt(receipt) : `ended ${shown}`}); nothing was resent: submit it again if you mean to.`,
    );
  return describeReceipt(receipt);
}
