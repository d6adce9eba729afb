import {randomBytes} from 'node:crypto';
import {mkdir, rm} from 'node:fs/promises';
import {dirname, join} from 'node:path';
import {parseDuration} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {DIR_MODE, findOnPath, resolveStateDir} from '../base/paths.js';
import {resolveJobOptions, validateText} from '../job-options/resolve.js';
import type {SubmitOptions} from '../job-options/table.js';
import {checkReach, ownPaneOrRefuse, resolvePane} from '../pane/target.js';
import type {CommandRun} from '../process/run-command.js';
import {defaultHome} from '../setup/place.js';
import {
  cronBlock,
  everyAsCron,
  launchdPlist,
  NAME_PATTERN,
  parseCron,
  SCHEDULERS,
  type Scheduler,
  type ScheduleSpec,
  schedulerFiles,
  systemdUnits,
  type When,
} from '../setup/schedule.js';
import {
  checkConfigWord,
  readScheduledJob,
  scheduledJobPath,
  scheduleMarks,
  writeScheduledJob,
} from '../setup/schedule-store.js';
import {installInto, uninstallFrom} from '../setup/schedulers.js';
import {textOfFile} from '../submit/text-file.js';
import {resolveServerSpec, socketFile} from '../tmux/server.js';
import type {CommandContext} from './context.js';
import type {SCHEDULE_OPTIONS} from './options/setup.js';

/** What `nudge schedule` takes: its table (and the server's flags), the scheduler, and the
 * submit that it fires. */
export type ScheduleOptions = OptionsOf<typeof SCHEDULE_OPTIONS & typeof SERVER_OPTIONS> & {
  scheduler: string;
  /** The submit options and text, as given after `--`. */
  submitWords: string[];
  /** The same, parsed (by the front end's submit parser); undefined when they do not parse. */
  submit: SubmitOptions | undefined;
};

export interface ScheduledFile {
  path: string;
  content: string;
}

export interface ScheduleResult {
  scheduler: Scheduler;
  name: string;
  action: 'print' | 'install' | 'uninstall';
  /** The schedule's file (its text and options, 0600) and the panes its marks are on. */
  job?: string;
  pane?: string;
  notice?: string | undefined;
  /** What was (or would be) written: the crontab block, the plist, the two units. */
  files: ScheduledFile[];
  /** The commands run to load or unload it. */
  ran: string[][];
  log: string;
  /** The scheduled command, argv. */
  argv: string[];
}

/**
 * The submit options of a schedule, checked now (bad durations, numbers, --until, a cmd:
 * sink: now, not at 3 a.m. in a log), and its panes: the one it types into and the one its
 * notice goes to, each `%N`, `self` or (the pane) this pane.
 */
async function checkedSubmit(
  o: ScheduleOptions,
  ctx: CommandContext,
): Promise<{submit: SubmitOptions; pane: string; notice: string | undefined}> {
  const env = ctx.env;
  const given = o.submit;
  if (!given) {
    throw new NudgeError(
      'bad-usage',
      `The submit options after -- are not valid (${o.submitWords.join(' ') || 'none'}); check them with nudge submit --help.`,
    );
  }
  // --text-file: read now, kept in the schedule's private file (never in argv).
  const s =
    given.textFile === undefined
      ? given
      : {...given, text: await textOfFile(given, ctx), textFile: undefined};
  validateText(s.text);
  resolveJobOptions(s, env);
  if (s.wait) throw new NudgeError('bad-usage', 'Leave --wait out: nudge schedule adds it.');
  if (s.socketName !== undefined || s.socketPath !== undefined)
    throw new NudgeError(
      'bad-usage',
      'Give -L/-S to nudge schedule (before --), not among the submit options.',
    );
  // The pane nudge schedule runs in, proven (never $TMUX_PANE alone), when one is left to it.
  const mine = async (what: string): Promise<string> => {
    const spec = resolveServerSpec(o, env);
    const lead = `Without ${what} (or with self), the schedule is for the pane nudge schedule runs in`;
    const own = await ownPaneOrRefuse(ctx.tmux(spec), spec, ctx, lead, `give ${what} %N`, true);
    if (own !== undefined) return own;
    throw new NudgeError(
      'bad-usage',
      `A schedule runs outside tmux: give ${what} (%N), or run nudge schedule from the pane it is for.`,
    );
  };
  const pinned = async (value: string | undefined, what: string): Promise<string> =>
    value !== undefined && value !== 'self' ? value : mine(what);
  const pane = await pinned(s.pane, '--pane');
  const notice =
    s.notifyPane === undefined ? undefined : await pinned(s.notifyPane, '--notify-pane');
  return {submit: s, pane, notice};
}

/**
 * Mark the schedule's panes (`@nudge-schedule-NAME`, and `-notice` for the notice's) with a
 * new token, so that when it fires it types only into the pane carrying that mark: after a
 * reboot or a tmux restart a pane that reuses the old `%N` carries none (docs/security.md).
 */
async function markPanes(
  ctx: CommandContext,
  o: ScheduleOptions,
  name: string,
  panes: {pane: string; notice: string | undefined},
): Promise<{token: string; pane: string; notice: string | undefined; serverPid: number}> {
  const spec = resolveServerSpec(o, ctx.env);
  const tmux = ctx.tmux(spec);
  const target = await resolvePane(tmux, spec, panes.pane, ctx);
  const notice =
    panes.notice === undefined
      ? undefined
      : await resolvePane(tmux, spec, panes.notice, ctx, '--notify-pane');
  // A schedule made from inside a pane marks (and later types into) only panes within its reach.
  await checkReach(tmux, target.info, ctx);
  if (notice) await checkReach(tmux, notice.info, ctx, '--notify-pane');
  const token = randomBytes(6).toString('hex');
  const marks = scheduleMarks(name);
  for (const [option, info] of [
    [marks.pane, target.info],
    [marks.notice, notice?.info],
  ] as const) {
    // The mark moves: a pane that held it for an earlier schedule of this name loses it.
    for (const old of await tmux.panesMarked(option))
      await tmux.markPane(old.paneId, option, undefined);
    if (info) await tmux.markPane(info.paneId, option, token);
  }
  return {
    token,
    pane: target.info.paneId,
    notice: notice?.info.paneId,
    serverPid: target.info.serverPid,
  };
}

function whenOf(o: ScheduleOptions): When {
  if ((o.every === undefined) === (o.cron === undefined))
    throw new NudgeError('bad-usage', 'Give one of --every DURATION or --cron EXPRESSION.');
  if (o.cron !== undefined) {
    parseCron(o.cron);
    return {kind: 'cron', expr: o.cron};
  }
  return {kind: 'every', ms: parseDuration(o.every, '--every')};
}

async function run(
  file: string,
  args: string[],
  ctx: CommandContext,
  input?: string,
): Promise<CommandRun> {
  const {runCommand} = await import('../process/run-command.js');
  return runCommand(file, args, {
    input,
    timeoutMs: 30_000,
    maxBytes: 1024 * 1024,
    signal: ctx.signal,
    merged: false,
    env: ctx.env,
  });
}

/** The scheduler and the schedule's name, checked; throws NudgeError (exit 2). */
function scheduleWords(o: ScheduleOptions): {scheduler: Scheduler; name: string} {
  if (!(SCHEDULERS as readonly string[]).includes(o.scheduler))
    throw new NudgeError(
      'bad-usage',
      `Unknown scheduler ${JSON.stringify(o.scheduler)}; use cron, launchd or systemd.`,
    );
  const name = o.name ?? 'default';
  if (!NAME_PATTERN.test(name))
    throw new NudgeError(
      'bad-usage',
      `--name ${JSON.stringify(name)} must be letters, digits, - and _ (at most 64).`,
    );
  if (o.uninstall && (o.install || o.write))
    throw new NudgeError(
      'bad-usage',
      `Give --${o.install ? 'install' : 'write'} or --uninstall, not both.`,
    );
  return {scheduler: o.scheduler as Scheduler, name};
}

/** The files `scheduler` runs `spec` from (cron's: a block of the crontab). */
function scheduledFiles(
  scheduler: Scheduler,
  spec: ScheduleSpec,
  files: ReturnType<typeof schedulerFiles>,
): ScheduledFile[] {
  if (scheduler === 'cron') return [{path: 'crontab', content: cronBlock(spec)}];
  if (scheduler === 'launchd') return [{path: files.launchd, content: launchdPlist(spec)}];
  const units = systemdUnits(spec);
  return [
    {path: files.service, content: units.service},
    {path: files.timer, content: units.timer},
  ];
}

/**
 * `nudge schedule cron|launchd|systemd`: a ready schedule for `nudge submit --wait …` with
 * absolute node and nudge paths, the tmux socket, the state dir and a log; printed, or put in
 * place (`--install`) or taken out (`--uninstall`).
 */
export async function scheduleSubmit(
  o: ScheduleOptions,
  ctx: CommandContext,
): Promise<ScheduleResult> {
  const {scheduler, name} = scheduleWords(o);
  const home = defaultHome(ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  const log = join(stateDir, 'schedule', `${name}.log`);
  const files = schedulerFiles(home, ctx.env, name);
  const ran: string[][] = [];
  const exec = async (file: string, args: string[], input?: string) => {
    ran.push([file, ...args]);
    return run(file, args, ctx, input);
  };

  if (o.uninstall) {
    await forget(ctx, stateDir, name);
    const base = {
      scheduler,
      name,
      action: 'uninstall' as const,
      log,
      argv: [],
      files: [] as ScheduledFile[],
    };
    await uninstallFrom(scheduler, {name, files, uid: ctx.uid, exec});
    return {...base, ran};
  }

  const when = whenOf(o);
  if (scheduler === 'cron' && when.kind === 'every') everyAsCron(when.ms, o.every ?? '');
  // A schedule runs outside tmux, where nudge would use tmux's default socket: name the socket
  // nudge would use here, as a path.
  const socket = socketFile(resolveServerSpec(o, ctx.env), ctx.env, ctx.uid);
  const checked = await checkedSubmit(o, ctx);
  // The scheduler's files hold no text: only `nudge schedule run NAME` and two variables, each
  // word checked for a character that would end a line there.
  const argv = [ctx.self.node, ctx.self.cli, 'schedule', 'run', name];
  const env = {NUDGE_HOME: stateDir, PATH: await schedulePath(ctx.env)};
  for (const [what, word] of [
    ['node', ctx.self.node],
    ['The nudge CLI', ctx.self.cli],
    ['NUDGE_HOME', stateDir],
    ['PATH', env.PATH],
    ['The tmux socket', socket],
  ] as const)
    checkConfigWord(word, what);
  const spec: ScheduleSpec = {name, when, argv, env, log};
  const out = scheduledFiles(scheduler, spec, files);
  const result = {scheduler, name, log, argv: spec.argv, files: out, ran};
  // Printed alone, it is a preview: nothing is written and no pane is marked (a schedule's
  // mark lets a later run type there; the person approves that with --write or --install).
  if (!o.install && !o.write) return {...result, action: 'print'};
  // The log's folder, written or installed: cron's redirection, launchd and systemd's append
  // all fail (and the command never runs) when it is missing.
  await mkdir(dirname(log), {recursive: true, mode: DIR_MODE});
  const marked = await markPanes(ctx, o, name, checked);
  const {pane: _p, notifyPane: _n, ...submit} = checked.submit;
  const file = await writeScheduledJob(stateDir, {
    version: 1,
    name,
    socket,
    mark: marked.token,
    noticeMarked: marked.notice !== undefined,
    marked: {serverPid: marked.serverPid, pane: marked.pane, notice: marked.notice},
    submit,
  });
  const {serverPid: _s, ...shown} = marked;
  const written = {...result, job: file, ...shown};
  if (!o.install) return {...written, action: 'print'};

  await installInto(scheduler, out, {name, files, uid: ctx.uid, exec});
  return {...written, action: 'install'};
}

/** Take out schedule `name`'s file and its panes' marks, on the server its file names (what
 * is there of them; no file: nothing to unmark). */
async function forget(ctx: CommandContext, stateDir: string, name: string): Promise<void> {
  const job = await readScheduledJob(stateDir, name).catch(() => undefined);
  await rm(scheduledJobPath(stateDir, name), {force: true});
  if (!job) return;
  try {
    const tmux = ctx.tmux({kind: 'socket-path', path: job.socket});
    for (const option of Object.values(scheduleMarks(name)))
      for (const old of await tmux.panesMarked(option))
        if (old.value === job.mark) await tmux.markPane(old.paneId, option, undefined);
  } catch {
    // the server is gone: no mark left to take out
  }
}

/** PATH for the schedule: the folder tmux is found in now, then the system's folders (cron's
 * own PATH is /usr/bin:/bin), /usr/sbin and /sbin among them (macOS keeps lsof, which the ps
 * reader asks, in /usr/sbin). */
async function schedulePath(env: Record<string, string | undefined>): Promise<string> {
  const tmux = await findOnPath('tmux', env);
  return [
    ...new Set([
      ...(tmux ? [dirname(tmux)] : []),
      '/usr/local/bin',
      '/usr/bin',
      '/bin',
      '/usr/sbin',
      '/sbin',
    ]),
  ].join(':');
}
