import {NudgeError} from '../base/errors.js';
import {asServerSentence} from '../pane/target.js';
import {checkHost, hostOf, splitHostJob} from '../remote/dest.js';
import type {CommandContext} from '../verbs/context.js';
import {type CommandFn, runOn} from './run-on.js';
import {
  type HostChoice,
  type HostOptions,
  type HostResult,
  JOB_VERBS,
  type OnHost,
  type Verb,
  type Where,
} from './verbs.js';

/**
 * Where a command runs, decided once: every front end (the CLI, the fast path of `submit`,
 * the MCP server, a relay's worker) calls `dispatch(command, options, context)`. It resolves
 * the host in one function (whereTo: `--host`, `$NUDGE_HOST`, `HOST:ID`), then runs the
 * command here or on that host (`nudge remote` there runs the same function on the same
 * options: src/front/serve-remote.ts). The commands that need both ends — submit's follow and
 * relay, jobs across hosts, status with its relay, doctor's two ends, watch start's plan —
 * are entries of one table (SPECIAL). Nothing else in src/ decides where a command runs.
 */

/** The commands that act on a pane named by the caller: with a host, it must be named. */
const PANE_VERBS: ReadonlySet<Verb> = new Set(['submit', 'wait', 'expect', 'watch-start']);

/**
 * The one place a host is resolved: the options as given → where the command runs, and the
 * options the command gets there (a job's `HOST:ID` becomes its `ID`). A `HOST:ID` and a
 * `--host` that disagree, a bad destination, or a host without a named pane are exit 2.
 */
export function whereTo<K extends Verb>(
  name: K,
  options: HostOptions<K> & HostChoice,
  env: {NUDGE_HOST?: string | undefined},
): {where: Where; options: HostOptions<K>} {
  const {host: given, ...rest} = options as HostOptions<K> & HostChoice;
  let job: {host?: string; job: string} | undefined;
  if (JOB_VERBS.has(name)) job = splitHostJob(String((rest as {job?: unknown}).job ?? ''));
  if (job?.host !== undefined && given !== undefined && checkHost(given) !== checkHost(job.host))
    throw new NudgeError(
      'bad-usage',
      `The job ${String((rest as {job?: unknown}).job)} names host ${job.host}, --host says ${given}: give one.`,
    );
  const host = job?.host !== undefined ? checkHost(job.host) : hostOf(given, env);
  const named = given !== undefined || job?.host !== undefined || host !== undefined;
  // `wait` takes several panes: each must be named there.
  const asked = rest as {pane?: string; panes?: readonly string[]};
  const panes = asked.panes ?? (asked.pane === undefined ? [] : [asked.pane]);
  if (host !== undefined && PANE_VERBS.has(name) && (panes.length === 0 || panes.includes('self')))
    throw new NudgeError(
      'no-pane',
      `With --host ${host}, name the pane there (%N or session:window.pane): your own pane is on this machine.`,
    );
  const there = (job ? {...rest, job: job.job} : rest) as HostOptions<K>;
  return {where: {host, named}, options: there};
}

/** Whether `options` of `name` run on this machine alone: no other host named or implied, and
 * for `submit` its notice here too (`--notify-pane HOST:%N` is relayed). The quick bundles
 * (src/quick.ts) run only these. True for a host named wrongly (`--host -oProxyCommand=…`):
 * dispatch refuses it there before anything runs, with its sentence. */
export function runsHere<K extends Verb>(
  name: K,
  options: HostOptions<K> & HostChoice,
  env: {NUDGE_HOST?: string | undefined},
): boolean {
  try {
    const {where, options: there} = whereTo(name, options, env);
    if (where.host !== undefined) return false;
    return name !== 'submit' || !relayed(there as HostOptions<'submit'>);
  } catch {
    return true;
  }
}

/** A submit whose notice goes to a pane of another host (`HOST:%N`): relayed from here. */
const relayed = (o: HostOptions<'submit'>) => o.notifyPane?.includes(':') === true;

type Special = typeof import('./anywhere.js');
/** The commands that need both ends, and what each returns. */
const SPECIAL = {
  submit: async (o: HostOptions<'submit'>, where: Where, ctx: CommandContext, local?) => {
    // Here, with its notice here: the command itself (the fast path loads nothing more).
    if (where.host === undefined && !relayed(o))
      return runOn(undefined, 'submit', o, ctx, local as CommandFn<'submit'> | undefined);
    return (await anywhere()).submitAnywhere(o, where.host, ctx, local);
  },
  status: async (o: HostOptions<'status'>, where: Where, ctx: CommandContext) =>
    (await import('./looks.js')).statusAnywhere(o, where.host, ctx),
  jobs: async (o: HostOptions<'jobs'>, where: Where, ctx: CommandContext) =>
    (await import('./looks.js')).jobsAnywhere(o, where, ctx),
  doctor: async (o: HostOptions<'doctor'>, where: Where, ctx: CommandContext) =>
    (await anywhere()).doctorAnywhere(o, where.host, ctx),
  'watch-start': async (o: HostOptions<'watch-start'>, where: Where, ctx: CommandContext) =>
    (await anywhere()).watchStartAnywhere(o, where.host, ctx),
} satisfies {[K in Verb]?: (...a: never[]) => Promise<unknown>};

const anywhere = (): Promise<Special> => import('./anywhere.js');

/** What dispatch returns for a command: the special entry's result, or the command's own
 * (marked with its host). */
export type Dispatched<K extends Verb> = K extends keyof typeof SPECIAL
  ? Awaited<ReturnType<(typeof SPECIAL)[K]>>
  : OnHost<HostResult<K>>;

/**
 * Run `name` with `options` where they say (the host resolved once, by whereTo): the one entry
 * of every front end. `local` stands in for the command here (tests).
 */
export async function dispatch<K extends Verb>(
  name: K,
  options: HostOptions<K> & HostChoice,
  ctx: CommandContext,
  local?: CommandFn<K>,
): Promise<Dispatched<K>> {
  const {where, options: there} = whereTo(name, options, ctx.env);
  const special = (SPECIAL as Record<string, unknown>)[name] as
    | ((o: unknown, w: Where, c: CommandContext, l?: unknown) => Promise<Dispatched<K>>)
    | undefined;
  try {
    if (special) return await special(there, where, ctx, local);
    return (await runOn(where.host, name, there, ctx, local)) as Dispatched<K>;
  } catch (error) {
    throw asServerSentence(error);
  }
}

export type {HostChoice, HostOptions, HostResult, OnHost, Verb, Where} from './verbs.js';
