import {describeError} from '../base/errors.js';
import {compareText} from '../base/order.js';
import {resolveStateDir} from '../base/paths.js';
import {type RelayRecord, relayOf} from '../relay/record.js';
import {remoteSettings} from '../remote/settings.js';
import type {CommandContext} from '../verbs/context.js';
import type {JobList, JobStatus} from '../verbs/jobs.js';
import {runOn} from './run-on.js';
import type {HostOptions, OnHost, Where} from './verbs.js';

/**
 * `nudge jobs` and `nudge status` wherever their jobs are (src/front/dispatch.ts decides):
 * apart from the other commands of both ends (src/front/anywhere.ts), so the commands a person
 * runs at every glance load the ways to other hosts only when config.toml names one.
 */

/** `nudge status JOB` anywhere, with what this machine relays of its notice. */
export async function statusAnywhere(
  o: {job: string},
  host: string | undefined,
  ctx: CommandContext,
): Promise<OnHost<JobStatus> & {relay?: RelayRecord}> {
  const status = await runOn(host, 'status', o, ctx);
  const relay = await relayOf(resolveStateDir(ctx.env), status.id);
  return relay ? {...status, relay} : status;
}

/** The jobs of every host: this machine's and those of `[remote] hosts`, each job with its
 * host; a host that cannot be reached is named with why, and the others still listed. */
export interface JobsEverywhere extends JobList {
  unreachable: {host: string; error: string}[];
}

/** `nudge jobs`: here and on the configured hosts, or (`--host`, `$NUDGE_HOST`) on one. */
export async function jobsAnywhere(
  o: HostOptions<'jobs'>,
  where: Where,
  ctx: CommandContext,
): Promise<JobsEverywhere> {
  if (where.named) return {...(await runOn(where.host, 'jobs', o, ctx)), unreachable: []};
  const here = await runOn(undefined, 'jobs', o, ctx);
  const hosts = await hostsAsked(ctx);
  // The filters go along (only those given: an older nudge there knows none); -L/-S name a
  // server of this host.
  const filters = Object.fromEntries(
    Object.entries({state: o.state, pane: o.pane, since: o.since}).filter(
      ([, v]) => v !== undefined,
    ),
  );
  const lists = await Promise.allSettled(
    hosts.map(async (h) => (await import('./hosts.js')).callHost(h, 'jobs', filters, ctx)),
  );
  const unreachable: JobsEverywhere['unreachable'] = [];
  const jobs = [...here.jobs];
  lists.forEach((r, i) => {
    if (r.status === 'fulfilled') jobs.push(...r.value.jobs);
    else unreachable.push({host: hosts[i] ?? '', error: describeError(r.reason)});
  });
  jobs.sort((a, b) => compareText(a.createdAt, b.createdAt));
  return {...here, jobs, unreachable};
}

/** The hosts of config.toml's `[remote] hosts` the caller may ask: from a pane, only those
 * its `[submit] hosts` grants (nothing goes to another: its jobs are out of reach anyway). */
async function hostsAsked(ctx: CommandContext): Promise<string[]> {
  const hosts = remoteSettings(ctx.env).hosts;
  if (hosts.length === 0) return [];
  const {askerOf, wireAskerOf} = await import('../pane/asker.js');
  const asker = await askerOf(ctx);
  return hosts.filter((h) => {
    const wire = wireAskerOf(asker, ctx.env, h);
    return wire.kind === 'person' || wire.granted;
  });
}
