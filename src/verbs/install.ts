import {createHash} from 'node:crypto';
import {existsSync} from 'node:fs';
import {rm} from 'node:fs/promises';
import {join} from 'node:path';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf} from '../base/option-table.js';
import {ensureStateDir, resolveStateDir} from '../base/paths.js';
import {
  INSTALLERS,
  type InstallAgent,
  installTargets,
  isInstallAgent,
  piecesFor,
} from '../setup/agents.js';
import {
  applyInstall,
  type FilePlan,
  type PiecePlan,
  planInstall,
  readManifest,
} from '../setup/install.js';
import {
  ALLOW_GRANTS,
  defaultHome,
  type InstallPlace,
  isAllowRule,
  projectRoot,
  type Scope,
} from '../setup/place.js';
import {applyUninstall, planUninstall} from '../setup/uninstall.js';
import type {CommandContext} from './context.js';
import type {INSTALL_OPTIONS} from './options/setup.js';

/** What `nudge install` takes: its table, and the agent. */
export type InstallOptions = OptionsOf<typeof INSTALL_OPTIONS> & {agent: string};

export interface InstallResult {
  agent: InstallAgent;
  scope: Scope;
  /** The project root (project scope). */
  root?: string;
  mode: 'install' | 'uninstall';
  dryRun: boolean;
  pieces: PiecePlan[];
  files: FilePlan[];
  /** Copies of the files as they were before install first changed them. */
  backups: string[];
  /** Where the install is recorded (what uninstall takes out). */
  record: string;
  /** What to do next (restart the agent …). */
  notes: string[];
}

/** What the install lets the agent's model do without asking, in words. */
function grantsNote(agent: InstallAgent, allow: boolean): string {
  if (agent === 'pi')
    return 'Pi asks no approvals: its model runs any command, nudge included (nudge adds no rule).';
  if (agent === 'copilot')
    return "Copilot approves shell commands by their name (by subcommand only for git and gh: copilot help permissions), so a rule could only allow every nudge command; nudge writes none and Copilot asks you before each nudge command its model runs (--allow-tool 'shell(nudge)' would allow them all, run and schedule included).";
  if (!allow)
    return `No allow rule was added: ${agent} asks you before each nudge command its model runs. nudge install ${agent} --allow adds one for submit, status, jobs and wait (docs/security.md).`;
  return ALLOW_GRANTS;
}

/** The agent, the scope and the pieces an install would write, checked before anything is
 * read or written; throws NudgeError (exit 2). */
function installWords(o: InstallOptions, ctx: CommandContext) {
  const agent = o.agent;
  if (!isInstallAgent(agent)) {
    throw new NudgeError(
      'bad-usage',
      `Unknown agent ${JSON.stringify(agent)}; use ${installTargets().join(', ')}.`,
    );
  }
  const scope = (o.scope ?? 'user') as Scope;
  if (scope !== 'user' && scope !== 'project') {
    throw new NudgeError(
      'bad-usage',
      `Unknown scope ${JSON.stringify(o.scope)}; use user or project.`,
    );
  }
  const home = defaultHome(ctx.env);
  const root = scope === 'project' ? projectRoot(ctx.cwd) : home;
  const place: InstallPlace = {scope, home, root, env: ctx.env, allow: o.allow ?? false};
  const pieces = piecesFor(agent, place, ctx.self);
  // A grant is the person's: never written into a file a repository commits (issue 42).
  const committed = pieces.find(
    (piece) => scope === 'project' && isAllowRule(piece) && !/\.local\.json$/.test(piece.file),
  );
  if (committed)
    throw new NudgeError(
      'bad-usage',
      `--allow with --scope project would write a permission rule into ${committed.file}, which the repository commits and others clone; install with --allow at user scope, or leave --allow out.`,
    );
  return {agent, scope, home, root, place, pieces};
}

/**
 * `nudge install AGENT [--scope user|project] [--dry-run] [--uninstall] [--allow]`: wire nudge into an
 * agent CLI — its command or skill, its turn-end hook, `nudge mcp` registered, nudge allowed —
 * merged into the agent's own files without clobbering them, with absolute paths to the node
 * and the nudge that ran install.
 */
export async function installAgent(o: InstallOptions, ctx: CommandContext): Promise<InstallResult> {
  const {agent, scope, home, root, place, pieces} = installWords(o, ctx);
  const stateDir = resolveStateDir(ctx.env);
  // Keyed by the folder it wrote into: a project's root, or the HOME of a user install (two
  // HOMEs sharing one state folder never take each other's record).
  const key = `${agent}-${scope}-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`;
  const record = join(stateDir, 'install', `${key}.json`);
  const backupDir = join(stateDir, 'install', 'backups', key);
  const current = await readManifest(record);
  const manifest = current ?? (await legacyUserManifest(stateDir, agent, scope, home));
  // Once this install writes its record, the unkeyed one it came from goes.
  const dropLegacy = async () => {
    if (!current && manifest)
      await rm(join(stateDir, 'install', `${agent}-user.json`), {force: true});
  };
  const dryRun = o.dryRun ?? false;
  const base = {agent, scope, ...(scope === 'project' ? {root} : {}), dryRun, record};
  if (o.uninstall) {
    if (!manifest) {
      return {
        ...base,
        mode: 'uninstall',
        pieces: [],
        files: [],
        backups: [],
        notes: [`nudge is not installed for ${agent} (${scope} scope); nothing to remove.`],
      };
    }
    const plan = await planUninstall(manifest);
    if (!dryRun) {
      await applyUninstall(plan, record);
      await dropLegacy();
    }
    const kept = dryRun
      ? []
      : Object.values(manifest.files).flatMap((f) =>
          f.backup && existsSync(f.backup) ? [f.backup] : [],
        );
    return {
      ...base,
      mode: 'uninstall',
      pieces: plan.pieces,
      files: plan.files,
      backups: kept,
      notes: [],
    };
  }
  const plan = await planInstall(pieces, manifest);
  let backups: string[] = [];
  if (!dryRun && plan.texts.size > 0) {
    await ensureStateDir(stateDir, ctx.env);
    backups = (
      await applyInstall(plan, pieces, {manifestPath: record, backupDir, agent, scope, root})
    ).backups;
    await dropLegacy();
  }
  const changed = plan.pieces.some((p) => p.action === 'add' || p.action === 'update');
  return {
    ...base,
    mode: 'install',
    pieces: plan.pieces,
    files: plan.files,
    backups,
    notes: [...(changed ? [INSTALLERS[agent].next] : []), grantsNote(agent, place.allow)],
  };
}

/** A user install recorded before records were keyed by HOME (`AGENT-user.json`): taken only
 * when every file it names is under this HOME. */
async function legacyUserManifest(
  stateDir: string,
  agent: string,
  scope: Scope,
  home: string,
): Promise<Awaited<ReturnType<typeof readManifest>>> {
  if (scope !== 'user') return undefined;
  const legacy = await readManifest(join(stateDir, 'install', `${agent}-user.json`));
  if (!legacy) return undefined;
  const inside = Object.keys(legacy.files).every((f) => f.startsWith(`${home}/`));
  return inside ? legacy : undefined;
}
