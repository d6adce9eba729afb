import {describeSource} from '../agents/builtin.js';
import {findDialog} from '../agents/dialogs.js';
import {explainScreen, programVersion, type RuleMatch} from '../agents/explain.js';
import {isAgent, type ProfileName} from '../agents/profile.js';
import {loadedProfiles} from '../agents/registry.js';
import {judgeVersion, readVerifiedTable} from '../agents/verified.js';
import {backgroundWorkSeen} from '../agents/work.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {readableStateDir} from '../base/paths.js';
import {type DoorPlan, planDoors} from '../doors/ladder.js';
import {parseProfile} from '../job-options/stored.js';
import {idleNowOf, readPaneFacts} from '../pane/busy.js';
import {paneMemory} from '../pane/memory.js';
import {reachablePane} from '../pane/target.js';
import {recordEnvironment} from '../process/environ.js';
import {listenersOf} from '../process/listeners.js';
import {systemTree} from '../process/tree.js';
import type {PaneInfo} from '../tmux/tmux.js';
import type {CommandContext} from './context.js';
import type {EXPLAIN_OPTIONS} from './options/explain.js';

/** Options of `nudge explain [PANE]`. */
/** What `nudge explain` takes: its table (and the server's flags), and the pane. */
export type ExplainOptions = OptionsOf<typeof EXPLAIN_OPTIONS & typeof SERVER_OPTIONS> & {
  pane?: string | undefined;
};

/** What `nudge explain` found: what a user pastes into a bug report. */
export interface ExplainResult {
  pane: string;
  /** tmux's pane_current_command, and the foreground's command line where the system tells. */
  command: string;
  commandLine?: string[] | undefined;
  profile: ProfileName;
  /** Why this profile: recognised how, or `--profile`. */
  why: string;
  /** Where its data came from: `built-in`, or `built-in, mended by FILE`. */
  source: string;
  /** The program's version (from its package), and what the verified-versions table says. */
  version?: {installed: string; status: 'ok' | 'warn' | 'fail'; detail: string} | undefined;
  /** Every rule of the profile on the current screen, and the text it matched. */
  rules: RuleMatch[];
  /** The verdict `nudge wait` gives this one look (before the screen has held still). */
  verdict: {
    idle: boolean;
    why: string;
    /** A dialog on the screen (what `wait` answers `blocked` for, exit 3). */
    blocked?: {kind: string; question: string} | undefined;
  };
  /** User profile files that were refused (one sentence each). */
  problems: string[];
  /** What tmux says of the pane that changes what submit does: dead, in a mode,
   * synchronized, input off — each with what submit would do about it. */
  conditions: Array<{state: string; submit: string}>;
  /** The doors a notice would try, in order, ending with typing: the one used says yes. */
  doors: DoorPlan[];
  /** Where nudge learns what the agent left running after a turn, or that it cannot. */
  background?: string | undefined;
  /** The pane's Claude Code session, as its record says (a signal beside the screen). */
  session?: {pid: number; status: string; waitingFor?: string | undefined} | undefined;
}

/** What tmux says of `info` that changes what submit does, and what it would do. */
export function paneConditions(info: PaneInfo): ExplainResult['conditions'] {
  const all: Array<[on: boolean | undefined, state: string, submit: string]> = [
    [
      info.dead,
      'dead: its program exited (the pane is kept by remain-on-exit)',
      'fails at once; nothing is typed',
    ],
    [
      info.inMode,
      `in ${info.mode || 'a mode'} (a person scrolled up, or pressed prefix [)`,
      'leaves the mode before typing; a mode entered while it types stops the typing until the mode ends (--draft-wait)',
    ],
    [
      info.synchronized,
      'synchronize-panes is on: keys reach every pane of its window',
      'refuses it (exit 1); turn synchronize-panes off',
    ],
    [
      info.inputOff,
      'input is off (select-pane -d)',
      `refuses it (exit 1); run "tmux select-pane -e -t ${info.paneId}"`,
    ],
  ];
  return all.filter(([on]) => on).map(([, state, submit]) => ({state, submit}));
}

/** `nudge explain [PANE]`: which program runs there, why it was recognised, which rules of
 * its profile match the screen now, and the verdict `wait` would give. */
export async function explainPane(o: ExplainOptions, ctx: CommandContext): Promise<ExplainResult> {
  const choice = parseProfile(o.profile ?? 'auto');
  // Reading a pane's screen is reached as typing is.
  const {tmux, info} = await reachablePane(o, ctx, 'PANE');
  const server = {socketPath: info.socketPath, serverPid: info.serverPid};
  const memory = paneMemory(readableStateDir(ctx.env), server);
  const detection = await readPaneFacts(
    {tmux, foreground: ctx.foreground, paneMemory: memory},
    info,
    choice,
  );
  const {profile, view} = detection;
  const now = idleNowOf(detection);
  const argv = await ctx.foreground.commandLine(info.panePid);
  const installed = argv ? programVersion(profile, argv) : undefined;
  const judged = installed
    ? judgeVersion(readVerifiedTable(ctx.dataDir), profile.name, installed)
    : undefined;
  const loaded = loadedProfiles();
  const source = loaded.sources[profile.name];
  // The agent's own HOME and config folders (its inbox and session records are there), not the
  // caller's: a person's shell may have another HOME than the agent it asks about.
  const leader = await ctx.foreground.group(info.panePid);
  const own = leader === undefined ? undefined : await recordEnvironment(leader, ctx.env);
  const {plans, session} = await planDoors(
    {
      tree: systemTree,
      env: {...ctx.env, ...own},
      stateDir: readableStateDir(ctx.env),
      commandLine: (pid) => ctx.foreground.commandLine(pid),
      listeners: listenersOf,
      confirmMs: 2_000,
    },
    profile.doors ?? [],
    info.panePid,
  );
  const said = session?.status;
  // As wait decides: a dialog on the screen is blocked before idle or busy is asked.
  const dialog = info.dead ? undefined : findDialog(profile, view, ctx.clock.wall());
  const verdict: ExplainResult['verdict'] = info.dead
    ? {idle: false, why: 'dead: its program exited'}
    : dialog
      ? {
          idle: false,
          blocked: {kind: dialog.kind, question: dialog.question},
          why: `blocked: it waits for a person (${dialog.kind}: ${dialog.question}); wait and expect exit 3`,
        }
      : 'idle' in now
        ? {idle: true, why: now.idle}
        : {idle: false, why: 'busy' in now ? now.busy : now.unknown};
  // The record and the screen are two witnesses: when they disagree, say so.
  if (said === 'waiting' || (said === 'busy' && verdict.idle) || (said === 'idle' && !verdict.idle))
    verdict.why += `; its session record says ${said}${session?.waitingFor ? ` (${session.waitingFor})` : ''}`;
  return {
    pane: info.paneId,
    command: info.dead
      ? `(dead; it ran ${info.startCommand || 'the default shell'})`
      : info.currentCommand,
    commandLine: argv ? [...argv] : undefined,
    profile: profile.name,
    why: detection.reason,
    source: source ? describeSource(source) : 'unknown',
    version:
      installed && judged ? {installed, status: judged.status, detail: judged.detail} : undefined,
    rules: explainScreen(profile, view),
    // A dead pane runs nothing, whatever its last screen looks like.
    verdict,
    problems: loaded.problems,
    conditions: paneConditions(info),
    ...(isAgent(profile) ? {background: backgroundWorkSeen(profile)} : {}),
    doors: plans,
    session: session
      ? {pid: session.pid, status: session.status ?? 'unknown', waitingFor: session.waitingFor}
      : undefined,
  };
}
