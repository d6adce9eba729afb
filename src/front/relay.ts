import {join} from 'node:path';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {launchWorker} from '../process/launch-worker.js';
import {type RelaySpec, relaysDir, writeRelay} from '../relay/record.js';
import type {RelayDeps} from '../relay/relay.js';
import type {CommandContext} from '../verbs/context.js';
import type {JobStatus} from '../verbs/jobs.js';
import {runOn} from './run-on.js';
import type {OnHost} from './verbs.js';

/**
 * The relay's two ends as this machine reaches them (src/relay/relay.ts is the relay itself):
 * a job's status and a submit, here or on a host, through the same switch as every command.
 */
export function relayEnds(
  ctx: CommandContext,
  log: (line: string) => void,
): RelayDeps & {status(job: string, host: string | undefined): Promise<OnHost<JobStatus>>} {
  return {
    stateDir: resolveStateDir(ctx.env),
    clock: ctx.clock,
    signal: ctx.signal,
    log,
    status: (job, host) => runOn(host, 'status', {job}, ctx),
    submit: (o) =>
      runOn(o.host, 'submit', {pane: o.pane, text: o.text, notice: false, jobId: o.jobId}, ctx),
  };
}

/** Record the relay and start its detached worker (it outlives this command), which reads
 * the spec from that record. */
export async function startRelay(spec: RelaySpec, ctx: CommandContext): Promise<void> {
  const stateDir = resolveStateDir(ctx.env);
  await ensureStateDir(stateDir, ctx.env);
  await writeRelay(stateDir, {
    ...spec,
    state: 'following',
    updatedAt: new Date(ctx.clock.wall()).toISOString(),
  });
  await launchWorker({
    entry: ctx.relayWorkerEntry,
    id: spec.job,
    stateDir,
    logPath: join(relaysDir(stateDir), `${spec.job}.log`),
    env: ctx.env,
  });
}
