import {Buffer} from 'node:buffer';
import {PROFILE_NAMES, type Profile, type ProfileName} from '../agents/profile.js';
import {chooseProfile} from '../agents/registry.js';
import {isPosixShell} from '../agents/shell.js';
import {formatDuration, parseDuration, parseInteger} from '../base/durations.js';
import {EXIT_CODES, type ExitCode, NudgeError} from '../base/errors.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {promptTest} from '../detect/conditions.js';
import {compileRegex, parseUntil, type UntilSpec} from '../detect/until.js';
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
import {launchWorker} from '../process/launch-worker.js';
import {createSpawnRunner, TmuxCommandError} from '../tmux/runner.js';
import {describeServer, resolveServerSpec, type ServerSpec} from '../tmux/server.js';
import {createTmux, type PaneInfo} from '../tmux/tmux.js';
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
  json?: boolean | undefined;
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

/** Where a server was looked for, for messages. */
function whereServer(spec: ServerSpec): string {
  switch (spec.kind) {
    case 'socket-path':
      return `at ${spec.path}`;
    case 'socket-name':
      return `with socket name "${spec.name}"`;
    case 'default':
      return 'on the default socket';
  }
}

/** Refuse conditions that cannot work on this pane (exit 2), before anything is spawned. */
export function checkUntilFits(until: UntilSpec, info: PaneInfo, profile?: Profile): void {
  if (until.kind === 'exit' && !isPosixShell(info.currentCommand)) {
    throw new NudgeError(
      'bad-until',
      `--until exit needs a shell (bash, zsh, sh, dash, ksh) in pane ${info.paneId}, but it runs ${info.currentCommand}; use --until stable or prompt.`,
    );
  }
  if (until.kind === 'prompt') {
    const test = promptTest(until, info.currentCommand, profile);
    if (typeof test === 'string') throw new NudgeError('bad-until', `--until prompt: ${test}.`);
  }
}

/** Find the pane to work on, or throw a NudgeError saying exactly what is wrong. */
export async function resolvePane(
  spec: ServerSpec,
  paneTarget: string | undefined,
  env: Record<string, string | undefined>,
  flag = '--pane',
): Promise<{info: PaneInfo; target: string}> {
  // $TMUX_PANE names a pane of the server in $TMUX only; a -L/-S elsewhere needs --pane.
  const tmuxSocket = env.TMUX?.split(',')[0];
  const sameServer =
    spec.kind === 'default' || (spec.kind === 'socket-path' && spec.path === tmuxSocket);
  // `self`: the pane nudge runs in, as a literal word (an agent's command-approval rules
  // match plain commands, not ones that expand "$TMUX_PANE").
  if (paneTarget === 'self' && !(sameServer && env.TMUX_PANE)) {
    throw new NudgeError(
      'no-pane',
      `${flag} self means the pane nudge runs in, but ${env.TMUX_PANE ? 'that pane is on another tmux server than -L/-S names' : 'nudge is not running inside tmux ($TMUX_PANE is not set)'}; pass the pane as %N.`,
    );
  }
  const target =
    paneTarget === 'self'
      ? env.TMUX_PANE
      : (paneTarget ?? (sameServer ? env.TMUX_PANE : undefined));
  if (!target) {
    throw new NudgeError(
      'no-pane',
      'No target pane: pass --pane %N (or session:window.pane), or run nudge inside tmux so $TMUX_PANE is set.',
    );
  }
  if (target.trim() === '' || /[\0\n]/.test(target)) {
    throw new NudgeError(
      'bad-pane',
      `${flag} ${JSON.stringify(target)} is not a pane; use %N or session:window.pane.`,
    );
  }
  const tmux = createTmux(createSpawnRunner(spec));
  let info: PaneInfo | undefined;
  try {
    info = await tmux.describePane(target);
  } catch (error) {
    if (error instanceof TmuxCommandError) {
      if (error.kind === 'no-tmux') {
        throw new NudgeError(
          'no-tmux',
          'tmux is not installed or not on PATH; install it (e.g. apt-get install tmux) and try again.',
        );
      }
      if (error.kind === 'no-access') {
        throw new NudgeError(
          'no-access',
          `nudge may not connect to the tmux server ${whereServer(spec)} (${/\(([^)]*)\)\s*$/.exec(error.stderr.trim())?.[1] ?? 'access denied'}); if it runs inside an agent's sandbox, let the agent run nudge outside it (Codex: a rule prefix_rule(pattern = ["nudge"], decision = "allow") in ~/.codex/rules/nudge.rules).`,
        );
      }
      if (error.kind === 'no-server') {
        throw new NudgeError(
          'no-server',
          `No tmux server is running ${whereServer(spec)}; start tmux, or point -L/-S/NUDGE_TMUX_SOCKET at the right server.`,
        );
      }
    }
    throw error;
  }
  if (!info) {
    throw new NudgeError(
      'no-such-pane',
      `Pane ${JSON.stringify(target)} (${flag}) was not found on ${describeServer(spec)}; list panes with "tmux list-panes -a".`,
    );
  }
  return {info, target};
}

/**
 * `nudge submit`: validate everything, record the job, hand it to a detached worker (or run
 * it here with --wait), print the job id. Returns the exit code.
 */
export async function submit(o: SubmitOptions, ctx: CommandContext): Promise<ExitCode> {
  validateText(o.text);
  const options = resolveJobOptions(o);
  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const stateDir = resolveStateDir(ctx.env);
  await ensureStateDir(stateDir);
  const {info, target} = await resolvePane(spec, o.pane, ctx.env);
  if (options.until.kind === 'prompt') {
    // Which program is it? The worker decides again when it types; here it only has to
    // know whether a prompt can be recognised at all.
    const screen = visibleText(await createTmux(createSpawnRunner(spec)).view(info.paneId, 0));
    checkUntilFits(
      options.until,
      info,
      chooseProfile(options.profile, info.currentCommand, screen).profile,
    );
  } else {
    checkUntilFits(options.until, info);
  }
  if (o.notifyPane !== undefined) {
    const notify = await resolvePane(spec, o.notifyPane, ctx.env, '--notify-pane');
    if (notify.info.serverPid !== info.serverPid) {
      throw new NudgeError('bad-pane', '--notify-pane must be on the same tmux server as --pane.');
    }
    if (notify.info.paneId !== info.paneId) options.notifyPane = notify.info.paneId;
  }

  const now = Date.now();
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
  const handle = await store.create(request, o.wait ? 'foreground' : 'detached');
  // Take the place in the pane's queue now, so jobs run in submission order even if their
  // workers start in another order.
  const lock = paneLockFor(stateDir, {
    socketPath: info.socketPath,
    serverPid: info.serverPid,
    pane: info.paneId,
  });
  // Until a worker runs, a failure leaves no job behind (it would only show as "lost" later):
  // the user gets one sentence and exit 1, and nothing was typed.
  const abandon = async (error: unknown): Promise<never> => {
    await lock.dequeue(request.jobId).catch(() => {});
    await store.discard(handle);
    throw error;
  };
  await lock.enqueue(request.jobId).catch(abandon);

  if (!o.wait) {
    let pid: number;
    try {
      pid = launchWorker({
        jobId: request.jobId,
        stateDir,
        encodedRequest: encodeRequest(request),
        logPath: handle.logPath,
        env: ctx.env,
      });
    } catch (error) {
      return abandon(error);
    }
    // Record the worker's pid at once, so `status` can tell a dead worker (lost) and `cancel`
    // can reach it even before the worker writes anything. The worker is running by now and
    // records its own pid when it starts, so a failure here does not fail the submit.
    await handle.recordWorkerPid(pid).catch(() => {});
    ctx.stdout(
      o.json
        ? JSON.stringify({
            job: request.jobId,
            state: 'queued',
            pane: info.paneId,
            pid,
            log: handle.logPath,
          })
        : request.jobId,
    );
    return EXIT_CODES.ok;
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
  if (o.json) {
    ctx.stdout(JSON.stringify({job: request.jobId, pane: info.paneId, ...outcome}));
  } else {
    const waited =
      outcome.waitedMs !== undefined ? ` after ${formatDuration(outcome.waitedMs)}` : '';
    const why = outcome.reason ? `: ${outcome.reason}` : '';
    const exit = outcome.exitCode !== undefined ? `, exit ${outcome.exitCode}` : '';
    ctx.stdout(
      `${request.jobId} ${outcome.state}${waited}${exit}${outcome.notified ? ', notice sent' : ''}${why}`,
    );
  }
  switch (outcome.state) {
    case 'done':
      return EXIT_CODES.ok;
    case 'timeout':
      return EXIT_CODES.timeout;
    default:
      return EXIT_CODES.failure;
  }
}
