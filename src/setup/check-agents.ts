import {NudgeError} from '../base/errors.js';
import {type InstallAgent, piecesFor} from './agents.js';
import {type Check, fail, ok, warn} from './check.js';
import {planInstall} from './install.js';
import {broadRules} from './legacy.js';
import {
  defaultHome,
  type InstallPlace,
  isAllowRule,
  projectRoot,
  type Scope,
  type SelfCommand,
} from './place.js';

/** What of nudge's an agent has at one scope: its wiring present, missing or another's, its
 * allow rules, and broad rules an older install left. */
interface ScopeState {
  scope: Scope;
  present: string[];
  missing: string[];
  other: string[];
  allowed: string[];
  broad: string[];
}

/** An agent's state at `place`'s scope, read from its files (a file nudge cannot read
 * throws NudgeError). */
async function scopeState(
  agent: InstallAgent,
  place: InstallPlace,
  self: SelfCommand,
): Promise<ScopeState> {
  const plan = await planInstall(piecesFor(agent, place, self), undefined);
  const wiring = plan.pieces.filter((p) => !isAllowRule(p));
  const broad = await planInstall(broadRules(agent, place, self), undefined);
  const ids = (action: string) => wiring.filter((p) => p.action === action).map((p) => p.id);
  return {
    scope: place.scope,
    present: ids('present'),
    missing: ids('add'),
    other: ids('conflict'),
    allowed: plan.pieces.filter((p) => isAllowRule(p) && p.action === 'present').map((p) => p.what),
    broad: broad.pieces.filter((p) => p.action === 'present').map((p) => `${p.what} in ${p.file}`),
  };
}

/** `nudge doctor`'s check of an agent nudge installs for: whether nudge is installed for it
 * (user or project scope), its allow rules, a broad rule an older install left; `absent` for
 * an agent not on the PATH with nothing of nudge's for it (doctor folds those into one line). */
export async function checkAgent(
  agent: InstallAgent,
  found: string | undefined,
  ctx: {env: Record<string, string | undefined>; cwd: string; self: SelfCommand},
): Promise<Check[] | 'absent'> {
  const home = defaultHome(ctx.env);
  const states: ScopeState[] = [];
  for (const scope of ['user', 'project'] as const) {
    const root = scope === 'project' ? projectRoot(ctx.cwd) : home;
    const place = {scope, home, root, env: ctx.env, allow: true};
    try {
      states.push(await scopeState(agent, place, ctx.self));
    } catch (error) {
      if (!(error instanceof NudgeError)) throw error;
      return [fail(agent, error.message, `Fix the file, then run nudge install ${agent}.`)];
    }
  }
  // A broad rule of an older install lets the model run any nudge command without asking.
  const broad = states.flatMap((s) =>
    s.broad.map((b) =>
      warn(
        `${agent} rule`,
        `${b} lets the model run every nudge command (run, schedule, install …) without asking you.`,
        `Run nudge install ${agent}${s.scope === 'project' ? ' --scope project' : ''} again: it takes the rule out (add --allow for the narrow one).`,
      ),
    ),
  );
  const full = states.find((s) => s.missing.length === 0 && s.other.length === 0);
  const where = found ? `${agent} is ${found}` : `${agent} is not on the PATH`;
  if (full) {
    const rules =
      full.allowed.length > 0
        ? `allowed without asking: ${full.allowed.join('; ')}`
        : 'no allow rule: the agent asks you before each nudge command its model runs';
    return [
      ok(
        agent,
        `${where}; nudge is installed for it (${full.scope} scope: ${full.present.join(', ')}; ${rules}).`,
      ),
      ...broad,
    ];
  }
  const user = states[0]!;
  const has = user.present;
  // Not installed and nothing of nudge's for it: one of doctor's folded line (runDoctor).
  if (!found && has.length === 0 && user.other.length === 0 && broad.length === 0) return 'absent';
  const detail =
    user.other.length > 0
      ? `${where}; ${user.other.join(', ')} ${user.other.length > 1 ? 'are' : 'is'} set to something else than this nudge.`
      : `${where}; nudge is not installed for it${has.length ? ` (only: ${has.join(', ')})` : ''}.`;
  return [
    warn(
      agent,
      detail,
      found
        ? `nudge install ${agent}`
        : `Install ${agent} if you use it, then nudge install ${agent}.`,
    ),
    ...broad,
  ];
}

/** The agents not on the PATH that nudge has nothing installed for, in one line: ok beside an
 * agent that is installed, a warning when none is. */
export function absentAgents(absent: readonly string[], of: number): Check {
  const list = absent.join(', ');
  return absent.length === of
    ? warn(
        'agents',
        `No agent CLI is on the PATH (${list}); nudge works with the shells in your panes.`,
        'Install the agent you use, then nudge install AGENT.',
      )
    : ok('agents', `Not on the PATH, and nudge not installed for: ${list}.`);
}
