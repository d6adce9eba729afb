import {NudgeError} from '../base/errors.js';
import {nudgeVersion} from '../base/version.js';
import type {SubmitOptions} from '../job-options/table.js';
import {outcomeOfRecord} from '../jobs/follow.js';
import type {TerminalState} from '../jobs/states.js';
import {askerOf, wireAskerOf} from '../pane/asker.js';
import {checkHostGrant} from '../pane/reach.js';
import {followJob, planNotice} from '../relay/relay.js';
import {textOfFile} from '../submit/text-file.js';
import type {CommandContext} from '../verbs/context.js';
import type {Check, DoctorOptions, DoctorResult} from '../verbs/doctor.js';
import {ownPaneHere, type SubmitResult, type submit} from '../verbs/submit.js';
import type {WatchStartOptions} from '../watch/types.js';
import {linkTo} from './hosts.js';
import {relayEnds, startRelay} from './relay.js';
import {runOn} from './run-on.js';
import type {HostResult, OnHost} from './verbs.js';

/** The commands whose pane or job may be on another host, as the front ends call them. */

/**
 * `nudge submit` on `host` (resolved by src/front/dispatch.ts; undefined: here, with a notice
 * for a pane of another host): the request goes to the host's nudge on stdin. A notice for a
 * pane of another host than the job's (`HOST:%N`, or `self` from a job elsewhere) is relayed
 * from here once the job ends (src/relay/relay.ts). `local` is the submit run here (tests
 * pass a stand-in).
 */
export async function submitAnywhere(
  given: SubmitOptions,
  host: string | undefined,
  ctx: CommandContext,
  local?: typeof submit,
): Promise<OnHost<SubmitResult>> {
  let o = given;
  // The file is read here, whichever host the job runs on.
  if (o.textFile !== undefined) o = {...o, text: await textOfFile(o, ctx), textFile: undefined};
  const plan = planNotice(host, o.notifyPane, await ownPaneHere(host, o.notifyPane, ctx));
  if (plan.relay && o.notice === false)
    throw new NudgeError(
      'bad-usage',
      '--notify-pane and --no-notice exclude each other; give one.',
    );
  const relayed = plan.relay?.to.host;
  if (relayed !== undefined)
    checkHostGrant(
      wireAskerOf(await askerOf(ctx), ctx.env, relayed),
      `--notify-pane ${plan.relay?.label}`,
    );
  // --wait on another host: the job runs there detached (so it outlives this connection and
  // this process) and is followed from here until it ends.
  const followHere = host !== undefined && o.wait === true;
  const result = await runOn(
    host,
    'submit',
    {
      ...o,
      wait: followHere ? false : o.wait,
      notifyPane: plan.notifyPane,
      noticeElsewhere: plan.relay?.label,
    },
    ctx,
    local,
  );
  if (plan.relay)
    await startRelay(
      {
        job: result.job,
        from: host,
        to: plan.relay.to,
        notice: {
          template: typeof o.notice === 'string' ? o.notice : undefined,
          until: o.until?.split(':')[0],
        },
      },
      ctx,
    );
  if (!followHere) return result;
  const ended = await followJob(
    result.job,
    host,
    relayEnds(ctx, () => {}),
    [500, 2_000],
  );
  if (ended instanceof NudgeError) throw ended;
  return {
    kind: 'ran',
    job: result.job,
    pane: result.pane,
    host,
    outcome: outcomeOfRecord(ended, ended.state as TerminalState),
  };
}

/** `nudge doctor --host H`: first the way there (ssh, the shared connection, the nudge that
 * answers and its version), then H's own checks as its nudge runs them. */
export async function doctorAnywhere(
  options: DoctorOptions,
  host: string | undefined,
  ctx: CommandContext,
): Promise<OnHost<DoctorResult>> {
  if (host === undefined) return runOn(undefined, 'doctor', options, ctx);
  const failed = (name: string, detail: string, fix?: string): OnHost<DoctorResult> => ({
    host,
    ok: false,
    checks: [{name, status: 'fail', detail, ...(fix ? {fix} : {})}],
  });
  const started = ctx.clock.now();
  let session: Awaited<ReturnType<Awaited<ReturnType<typeof linkTo>>['open']>>;
  try {
    session = await (await linkTo(host, ctx)).open(
      {command: 'doctor', options},
      {signal: ctx.signal, anyVersion: true},
    );
  } catch (error) {
    if (!(error instanceof NudgeError) || error.code === 'out-of-reach') throw error;
    return failed(
      error.code === 'host-no-nudge' ? 'nudge' : 'ssh',
      error.message,
      error.code === 'host-unreachable'
        ? `Check the name and the network: ssh ${host} true.`
        : undefined,
    );
  }
  const {hello} = session;
  const reached: Check = {
    name: 'ssh',
    status: 'ok',
    detail: `${host} answered in ${ctx.clock.now() - started} ms (one shared connection, BatchMode).`,
  };
  try {
    for await (const m of session.messages) {
      if ('error' in m) {
        const version = m.error.code === 'host-version';
        const [why] = failed(
          'nudge',
          version
            ? `${host} runs nudge ${hello.nudge}, this machine ${nudgeVersion()}.`
            : `on ${host}: ${m.error.message}`,
          version ? `Run nudge host install ${host} to put this version there.` : undefined,
        ).checks;
        return {host, ok: false, checks: why ? [reached, why] : [reached]};
      }
      if ('result' in m) {
        const there = m.result as DoctorResult;
        const same: Check = {
          name: 'nudge',
          status: 'ok',
          detail: `${host} runs nudge ${hello.nudge} (Node ${hello.node}, ${hello.platform}), as this machine.`,
        };
        return {host, ok: there.ok, checks: [reached, same, ...there.checks]};
      }
    }
  } finally {
    await session.close();
  }
  return failed('nudge', `nudge on ${host} gave no answer.`);
}

/** `nudge watch start --host H`: a plan given as `@FILE` is read here, where the file is, and
 * sent as text; the watcher and its assessor live on H. */
export async function watchStartAnywhere(
  o: WatchStartOptions,
  host: string | undefined,
  ctx: CommandContext,
): Promise<OnHost<HostResult<'watch-start'>>> {
  if (host === undefined) return runOn(undefined, 'watch-start', o, ctx);
  const {readPlan} = await import('../watch/options.js');
  const plan = o.plan?.startsWith('@') ? await readPlan(o.plan, ctx.cwd) : o.plan;
  return runOn(host, 'watch-start', {...o, plan}, ctx);
}
