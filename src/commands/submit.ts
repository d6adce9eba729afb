import {Buffer} from 'node:buffer';
import {PROFILE_NAMES, type ProfileName} from '../agents/profile.js';
import {chooseProfile} from '../agents/registry.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {checkUntilFits} from '../detect/conditions.js';
import {compileRegex, parseUntil} from '../detect/until.js';
import type {JobOutcome} from '../jobs/events.js';
import {validateNoticeTemplate} from '../jobs/notice.js';
import {
  encodeRequest,
  type JobOptions,
  type JobRequest,
  MAX_TEXT_BYTES,
  newJobId,
  REQUEST_VERSION,
} from '../jobs/request.js';
import {JobStore} from '../jobs/store.js';
import {paneLockFor} from '../locks/pane-lock.js';
import {paneRefOf, resolvePane} from '../pane/target.js';
import type {ProcessId} from '../process/identity.js';
import {launchWorker} from '../process/launch-worker.js';
import {resolveServerSpec} from '../tmux/server.js';
import {findUntypable} from '../tmux/typing.js';
import {visibleText} from '../tmux/view.js';
import type {CommandContext} from './context.js';

/** Options of `nudge submit`, as the CLI (or any front end) hands them over. Durations are
 * strings such as "3s" or numbers of milliseconds. */
export interface SubmitOptions {
  text: string;
  pane?: string | undefined;
  socketName?: string | undefined;
  socketPath?: string | undefined;
  delay?: string | number | undefined;
  typeDelay?: string | number | undefined;
  enterDelay?: string | number | undefined;
  interval?: string | number | undefined;
  stableChecks?: string | number | undefined;
  timeout?: string | number | undefined;
  lockTimeout?: string | number | undefined;
  clear?: boolean | undefined;
  enter?: boolean | undefined;
  /** A template, or false for --no-notice. */
  notice?: string | false | undefined;
  wait?: boolean | undefined;
  /** The "done" condition: stable, exit, regex:PATTERN, prompt[:NAME|:REGEX]. */
  until?: string | undefined;
  /** Regexes masked before screens are compared (`--until stable`). */
  ignore?: readonly string[] | undefined;
  /** Lines of output searched by `--until regex:`. */
  lines?: string | number | undefined;
  /** Type the notice into this pane instead. */
  notifyPane?: string | undefined;
  /** auto | claude | gemini | codex | shell | raw. */
  profile?: string | undefined;
  /** Wait until the pane is idle before typing. */
  whenIdle?: boolean | undefined;
  idleTimeout?: string | number | undefined;
  /** Clear a draft left in the input line instead of waiting for it. */
  clearDraft?: boolean | undefined;
  draftWait?: string | number | undefined;
}

/** Defaults of the contract (DESIGN.md, issue #2). */
export const SUBMIT_DEFAULTS = {
  delay: '3s',
  typeDelay: '20ms',
  enterDelay: '500ms',
  interval: '1s',
  stableChecks: 3,
  timeout: '5m',
  lockTimeout: '10m',
  until: 'stable',
  lines: 100,
  profile: 'auto',
  idleTimeout: '10m',
  draftWait: '30s',
} as const;

/** Turn raw options into validated job options; throws NudgeError (exit 2). */
export function resolveJobOptions(o: SubmitOptions): JobOptions {
  const duration = (v: string | number | undefined, d: string, flag: string) =>
    parseDuration(v ?? d, flag);
  const intervalMs = duration(o.interval, SUBMIT_DEFAULTS.interval, '--interval');
  if (intervalMs < 10)
    throw new NudgeError(
      'bad-duration',
      `--interval must be at least 10ms, got ${JSON.stringify(o.interval)}.`,
    );
  const timeoutMs = duration(o.timeout, SUBMIT_DEFAULTS.timeout, '--timeout');
  if (timeoutMs <= 0)
    throw new NudgeError(
      'bad-duration',
      `--timeout must be more than 0, got ${JSON.stringify(o.timeout)}.`,
    );
  if (typeof o.notice === 'string') validateNoticeTemplate(o.notice);
  const until = parseUntil(o.until ?? SUBMIT_DEFAULTS.until);
  const ignore = [...(o.ignore ?? [])];
  for (const i of ignore) compileRegex(i, '--ignore');
  const enter = o.enter ?? true;
  if (until.kind === 'exit' && !enter) {
    throw new NudgeError(
      'bad-usage',
      '--until exit runs the command, so it cannot be combined with --no-enter.',
    );
  }
  return {
    delayMs: duration(o.delay, SUBMIT_DEFAULTS.delay, '--delay'),
    typeDelayMs: duration(o.typeDelay, SUBMIT_DEFAULTS.typeDelay, '--type-delay'),
    enterDelayMs: duration(o.enterDelay, SUBMIT_DEFAULTS.enterDelay, '--enter-delay'),
    intervalMs,
    stableChecks: parseInteger(
      o.stableChecks ?? SUBMIT_DEFAULTS.stableChecks,
      '--stable-checks',
      1,
      1000,
    ),
    timeoutMs,
    lockTimeoutMs: duration(o.lockTimeout, SUBMIT_DEFAULTS.lockTimeout, '--lock-timeout'),
    clear: o.clear ?? true,
    enter,
    notify: o.notice !== false,
    noticeTemplate: typeof o.notice === 'string' ? o.notice : null,
    notifyPane: null,
    until,
    ignore,
    lines: parseInteger(o.lines ?? SUBMIT_DEFAULTS.lines, '--lines', 1, 100_000),
    profile: parseProfile(o.profile ?? SUBMIT_DEFAULTS.profile),
    whenIdle: o.whenIdle ?? false,
    idleTimeoutMs: duration(o.idleTimeout, SUBMIT_DEFAULTS.idleTimeout, '--idle-timeout'),
    clearDraft: o.clearDraft ?? false,
    draftWaitMs: duration(o.draftWait, SUBMIT_DEFAULTS.draftWait, '--draft-wait'),
  };
}

/** Check `--profile`; throws NudgeError (exit 2). */
export function parseProfile(value: string): ProfileName | 'auto' {
  if (value === 'auto' || (PROFILE_NAMES as readonly string[]).includes(value))
    return value as ProfileName | 'auto';
  throw new NudgeError(
    'bad-profile',
    `--profile must be auto, ${PROFILE_NAMES.join(', ')}; got ${JSON.stringify(value)}.`,
  );
}

/** Check the text to type; throws NudgeError (exit 2). */
export function validateText(text: string): void {
  if (text.trim() === '') {
    throw new NudgeError(
      'empty-text',
      'Nothing to type: give the text after "--", e.g. nudge submit -- \'npm test\'.',
    );
  }
  const bad = findUntypable(text);
  if (bad)
    throw new NudgeError(
      'untypable-text',
      `The text contains ${bad}, which tmux cannot type; remove it.`,
    );
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_TEXT_BYTES) {
    throw new NudgeError(
      'text-too-long',
      `The text is ${bytes} bytes, more than the ${MAX_TEXT_BYTES}-byte limit; put it in a file and type a command that reads it.`,
    );
  }
}

/** What `nudge submit` did: handed the job to a detached worker, or (--wait) ran it. */
export type SubmitResult =
  | {kind: 'queued'; job: string; pane: string; pid: number; log: string}
  | {kind: 'ran'; job: string; pane: string; outcome: JobOutcome};

/**
 * `nudge submit`: validate everything, record the job, hand it to a detached worker (or run
 * it here with --wait).
 */
export async function submit(o: SubmitOptions, ctx: CommandContext): Promise<SubmitResult> {
  validateText(o.text);
  const options = resolveJobOptions(o);
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  const tmux = ctx.tmux(spec);
  // tmux answers while the state directory is checked.
  const [{info, target}] = await Promise.all([
    resolvePane(tmux, spec, o.pane, ctx.env),
    ensureStateDir(stateDir),
  ]);
  if (options.until.kind === 'prompt') {
    // Which program is it? The worker decides again when it types; here it only has to
    // know whether a prompt can be recognised at all.
    const screen = visibleText(await tmux.view(info.paneId, 0));
    checkUntilFits(
      options.until,
      info,
      chooseProfile(options.profile, info.currentCommand, screen).profile,
    );
  } else {
    checkUntilFits(options.until, info);
  }
  if (o.notifyPane !== undefined) {
    const notify = await resolvePane(tmux, spec, o.notifyPane, ctx.env, '--notify-pane');
    if (notify.info.serverPid !== info.serverPid) {
      throw new NudgeError('bad-pane', '--notify-pane must be on the same tmux server as --pane.');
    }
    if (notify.info.paneId !== info.paneId) options.notifyPane = notify.info.paneId;
  }

  const now = ctx.clock.now();
  const request: JobRequest = {
    version: REQUEST_VERSION,
    jobId: newJobId(now),
    createdAt: new Date(now).toISOString(),
    server: {socketPath: info.socketPath, pid: info.serverPid},
    pane: info.paneId,
    paneTarget: target,
    text: o.text,
    options,
  };
  const store = new JobStore(stateDir);
  // Record the job and take its place in the pane's queue (so jobs run in submission order
  // even if their workers start in another order), both at once. Until a worker runs, a
  // failure leaves no job behind (it would only show as "lost" later): the user gets one
  // sentence and exit 1, and nothing was typed.
  const lock = paneLockFor(stateDir, paneRefOf(info));
  const [created, queued] = await Promise.allSettled([
    store.create(request, o.wait ? 'foreground' : 'detached'),
    lock.enqueue(request.jobId),
  ]);
  const abandon = async (error: unknown): Promise<never> => {
    await lock.dequeue(request.jobId).catch(() => {});
    if (created.status === 'fulfilled') await store.discard(created.value);
    throw error;
  };
  if (created.status === 'rejected') return abandon(created.reason);
  if (queued.status === 'rejected') return abandon(queued.reason);
  const handle = created.value;

  if (!o.wait) {
    let worker: ProcessId;
    try {
      worker = launchWorker({
        entry: ctx.workerEntry,
        jobId: request.jobId,
        stateDir,
        encodedRequest: encodeRequest(request),
        logPath: handle.logPath,
        env: ctx.env,
      });
    } catch (error) {
      return abandon(error);
    }
    // Record the worker at once, so `status` can tell a dead worker (lost) and `cancel` can
    // reach it even before the worker writes anything. The worker is running by now and
    // records itself when it starts, so a failure here does not fail the submit.
    await handle.recordWorkerPid(worker).catch(() => {});
    return {
      kind: 'queued',
      job: request.jobId,
      pane: info.paneId,
      pid: worker.pid,
      log: handle.logPath,
    };
  }

  // Loaded only for --wait: the detached path must stay light (pino, proper-lockfile).
  const {executeJob} = await import('../jobs/execute.js');
  const transport = ctx.env.NUDGE_TRANSPORT;
  const outcome = await executeJob(request, {
    stateDir,
    pid: ctx.pid,
    signal: ctx.signal,
    transport: transport === 'spawn' || transport === 'control' ? transport : 'auto',
  });
  return {kind: 'ran', job: request.jobId, pane: info.paneId, outcome};
}
