import {stat} from 'node:fs/promises';
import {basename, dirname, join, relative, resolve} from 'node:path';
import {agentNamed} from '../agents/registry.js';
import {readOnce} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {shellWord} from '../base/shell.js';
import {type Undo, withUndo} from '../base/undo.js';
import {resolveStall} from '../detect/stall-options.js';
import {validateText} from '../job-options/resolve.js';
import {RUN_OPTIONS} from '../job-options/run-table.js';
import {readRows} from '../job-options/stored.js';
import {newJobId} from '../jobs/request.js';
import {JobStore} from '../jobs/store.js';
import {provenPane} from '../pane/own-pane.js';
import {checkReach, ownPane, ownPaneOrRefuse, resolvePane, serverError} from '../pane/target.js';
import {launchWorker} from '../process/launch-worker.js';
import type {RunResult} from '../runs/execute.js';
import {
  addWorktree,
  branchExists,
  headCommit,
  removeWorktree,
  validBranchName,
  workTreeRoot,
} from '../runs/git.js';
import {placeOf} from '../runs/place.js';
import {RUN_REQUEST_VERSION, type RunRequest, type RunWorktree} from '../runs/request.js';
import {resolveServerSpec, type ServerSpec} from '../tmux/server.js';
import type {PaneInfo, PanePlace, Tmux} from '../tmux/tmux.js';
import type {CommandContext} from './context.js';

/** What `nudge run` takes: its table (and the server's flags), and the words. */
export type RunOptions = Omit<OptionsOf<typeof RUN_OPTIONS & typeof SERVER_OPTIONS>, 'worktree'> & {
  /** The command's words (several: each one word for the shell; one: a shell command line),
   * or with `agent` the prompt's. */
  words: readonly string[];
  /** `true`: a new branch `nudge/<job>`; a string: that branch. */
  worktree?: boolean | string | undefined;
};

/** What `nudge run` did. */
export type RunCommandResult = {
  job: string;
  pane: string;
  /** Where the pane went (`new window in session $0`, `split of %3`). */
  place: string;
  cwd: string;
  worktree?: RunWorktree | undefined;
  log: string;
  report: string;
} & ({kind: 'started'; pid: number} | {kind: 'ran'; result: RunResult});

/** The run's text and its options, whatever its pane and folder turn out to be: what its
 * table's rows store (src/job-options/run-table.ts) and its stall watchdog. */
function runOptionsOf(o: RunOptions, given: CommandContext['env']) {
  const env = readOnce(given);
  const read = readRows(RUN_OPTIONS, o, env);
  // The tables do not load the registry; the agent named is checked here (and by the worker).
  if (read.agent !== null) agentNamed(read.agent, '--agent');
  const text = runText(o, read.agent);
  const stall = resolveStall(o, env, 'run', {intervalMs: read.intervalMs, continues: true});
  return {text, given: {...read, stall}};
}

/** The pane a run's notice goes to: --notify-pane (reached), else the caller's; none with
 * --no-notice. */
async function noticePaneOf(
  o: RunOptions,
  caller: {paneId: string} | undefined,
  w: {tmux: Tmux; spec: ServerSpec; ctx: CommandContext},
): Promise<string | null> {
  if (o.notifyPane === undefined) return o.notice === false ? null : (caller?.paneId ?? null);
  const n = await resolvePane(w.tmux, w.spec, o.notifyPane, w.ctx, '--notify-pane');
  await checkReach(w.tmux, n.info, w.ctx, '--notify-pane');
  return n.info.paneId;
}

/**
 * `nudge run`: open a pane (a new window, or a split of the caller's) — in a new git worktree
 * with --worktree — record the job and hand it to a detached run worker (or run it here with
 * --wait). Everything that can be wrong with the request is found before anything is made.
 */
export async function runInPane(o: RunOptions, ctx: CommandContext): Promise<RunCommandResult> {
  const {text, given} = runOptionsOf(o, ctx.env);
  const cwd = await directory(resolve(ctx.cwd, o.cwd ?? '.'));

  const spec = resolveServerSpec({socketName: o.socketName, socketPath: o.socketPath}, ctx.env);
  const tmux = ctx.tmux(spec);
  const stateDir = resolveStateDir(ctx.env);
  // The caller's pane: where a split goes, and who is told (when nudge runs inside tmux, on
  // this server).
  const caller = await callerPane(ctx, spec, o.notice !== false && o.notifyPane === undefined);
  const [place, placeText] = await placeOf(o, caller, () =>
    tmux.recentSession().catch((error: unknown) => {
      throw serverError(error, spec);
    }),
  );
  const notifyPane = await noticePaneOf(o, caller, {tmux, spec, ctx});

  const now = ctx.clock.wall();
  const jobId = newJobId(now);
  const store = new JobStore(stateDir);
  // The steps that make things (a worktree, a pane, the job's record, its worker): if one
  // fails, the ones before it are taken back in reverse.
  const made = await withUndo(async (undo) => {
    const {worktree, runCwd, git} = await worktreeStep(o.worktree, cwd, jobId, undo);
    const {pane, opened} = await paneStep(ctx, tmux, stateDir, place, placeText, runCwd, undo);
    const request: RunRequest = {
      version: RUN_REQUEST_VERSION,
      kind: 'run',
      jobId,
      createdAt: new Date(now).toISOString(),
      server: {socketPath: opened.socketPath, pid: opened.serverPid},
      pane,
      paneTarget: placeText,
      text,
      options: {...given, cwd: runCwd, worktree: worktree ?? null, git, notifyPane},
    };
    const handle = await store.create(request, o.wait ? 'foreground' : 'detached');
    undo.add(() => store.discard(handle));
    await handle.appendEvent('provisioned', {
      pane,
      place: placeText,
      cwd: runCwd,
      ...(worktree ? {worktree: worktree.path, branch: worktree.branch} : {}),
    });
    const worker = o.wait
      ? undefined
      : await launchWorker({
          entry: ctx.runWorkerEntry,
          id: jobId,
          stateDir,
          logPath: handle.logPath,
          env: ctx.env,
          undo,
        });
    return {request, handle, worker, worktree, runCwd};
  });
  const {request, handle, worker, worktree, runCwd} = made;
  const shown = {
    job: jobId,
    pane: request.pane,
    place: placeText,
    cwd: runCwd,
    worktree,
    log: handle.logPath,
    report: handle.reportPath,
  };
  if (worker) {
    await handle.recordWorkerPid(worker).catch(() => {});
    return {...shown, kind: 'started', pid: worker.pid};
  }
  // Loaded only here: the detached path stays light.
  const {executeRun} = await import('../runs/execute.js');
  const result = await executeRun(request, {
    stateDir,
    pid: ctx.pid,
    signal: ctx.signal,
    env: ctx.env,
  });
  return {...shown, kind: 'ran', result};
}

/** The text a run types (the prompt with an agent, else a command line), checked with what
 * else its words and flags alone can get wrong, before anything is made. */
function runText(o: RunOptions, agent: string | null): string {
  const words = [...o.words];
  if (words.length === 0 || words.every((w) => w.trim() === '')) {
    throw new NudgeError(
      'empty-text',
      agent
        ? `Nothing to ask ${agent}: give the prompt after "--", e.g. nudge run --agent ${agent} -- 'fix the failing test'.`
        : 'Nothing to run: give the command after "--", e.g. nudge run -- make test.',
    );
  }
  const text = agent || words.length === 1 ? words.join(' ') : words.map(shellWord).join(' ');
  validateText(text);
  if (o.split !== undefined && o.split !== 'h' && o.split !== 'v') {
    throw new NudgeError(
      'bad-usage',
      `--split is h (side by side) or v (one above the other), not ${JSON.stringify(o.split)}.`,
    );
  }
  if (o.split !== undefined && o.window) {
    throw new NudgeError('bad-usage', '--window and --split exclude each other; give one.');
  }
  if (o.notifyPane !== undefined && o.notice === false) {
    throw new NudgeError(
      'bad-usage',
      '--notify-pane and --no-notice exclude each other; give one.',
    );
  }
  if (o.pr && o.worktree === undefined) {
    throw new NudgeError(
      'bad-usage',
      "--pr opens a pull request for the run's branch: it needs --worktree.",
    );
  }
  return text;
}

/** The worktree step (--worktree): a new branch from HEAD in a folder beside the repository
 * (removed again by `undo`); the folder the run works in, and its git facts. */
async function worktreeStep(
  given: RunOptions['worktree'],
  cwd: string,
  jobId: string,
  undo: Undo,
): Promise<{worktree?: RunWorktree; runCwd: string; git: RunRequest['options']['git']}> {
  const root = await workTreeRoot(cwd);
  if (given === undefined)
    return {runCwd: cwd, git: root ? {root, base: (await headCommit(root)) ?? EMPTY_TREE} : null};
  if (!root) {
    throw new NudgeError(
      'not-a-repo',
      `--worktree needs a git repository, and ${cwd} is not in one.`,
    );
  }
  const base = await headCommit(root);
  if (!base) {
    throw new NudgeError(
      'not-a-repo',
      `--worktree branches from HEAD, and the repository at ${root} has no commit yet.`,
    );
  }
  const branch = typeof given === 'string' && given !== '' ? given : `nudge/${jobId}`;
  if (!(await validBranchName(root, branch))) {
    throw new NudgeError('bad-branch', `${JSON.stringify(branch)} is not a valid git branch name.`);
  }
  if (await branchExists(root, branch)) {
    throw new NudgeError(
      'bad-branch',
      `The branch ${branch} exists already; name a new one (--worktree NAME).`,
    );
  }
  const path = join(dirname(root), `${basename(root)}-nudge-${jobId}`);
  const failed = await addWorktree(root, path, branch, base);
  if (failed)
    throw new NudgeError('provision-failed', `git could not make the worktree ${path}: ${failed}`);
  undo.add(() => removeWorktree(root, path, branch));
  // The same folder inside the worktree as the one asked for in the repository.
  return {
    worktree: {path, branch, repo: root},
    runCwd: join(path, relative(root, cwd)),
    git: {root: path, base},
  };
}

/** The pane step: the state folder, then the run's pane (killed again by `undo`). */
async function paneStep(
  ctx: CommandContext,
  tmux: Tmux,
  stateDir: string,
  place: PanePlace,
  placeText: string,
  runCwd: string,
  undo: Undo,
): Promise<{pane: string; opened: PaneInfo}> {
  try {
    await ensureStateDir(stateDir, ctx.env);
    const pane = await tmux.openPane(place, runCwd);
    undo.add(() => tmux.killPane(pane));
    return {pane, opened: await serverOf(tmux, pane)};
  } catch (error) {
    throw error instanceof NudgeError
      ? error
      : new NudgeError(
          'provision-failed',
          `tmux could not open a pane (${placeText}): ${firstLine(error)}`,
        );
  }
}

/** git's empty tree: the base of changes in a repository without a commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** `--agent NAME`: any agent profile the registry holds (its launch command starts it). */
async function directory(path: string): Promise<string> {
  const s = await stat(path).catch(() => undefined);
  if (!s?.isDirectory()) {
    throw new NudgeError('bad-cwd', `${path} is not a folder; --cwd names the folder to run in.`);
  }
  return path;
}

/** The pane nudge runs in, when it runs inside tmux on the server it works with and the
 * process tree proves which; a claimed pane it cannot prove is refused when the run's notice
 * would go there (`toldThere`), and otherwise not used. */
async function callerPane(
  ctx: CommandContext,
  spec: ReturnType<typeof resolveServerSpec>,
  toldThere: boolean,
): Promise<PaneInfo | undefined> {
  const tmux = ctx.tmux(spec);
  const lead = "The run's notice goes to the pane nudge runs in";
  const own = toldThere
    ? await ownPaneOrRefuse(tmux, spec, ctx, lead, 'pass --notify-pane %N, or --no-notice')
    : provenPane(await ownPane(tmux, spec, ctx).catch(() => ({kind: 'outside'}) as const));
  return own === undefined ? undefined : (await resolvePane(tmux, spec, own, ctx)).info;
}

async function serverOf(tmux: ReturnType<CommandContext['tmux']>, pane: string): Promise<PaneInfo> {
  const info = await tmux.describePane(pane);
  if (!info)
    throw new NudgeError('provision-failed', `The pane ${pane} tmux opened is gone already.`);
  return info;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim().split('\n')[0] ?? text;
}
