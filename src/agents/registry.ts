import {NudgeError} from '../base/errors.js';
import {compareText} from '../base/order.js';
import {type LoadedProfiles, loadProfiles, profileDirsOf} from './builtin.js';
import {claudeNeedsPerson, claudeStopTurn} from './claude.js';
import {codexNotifyTurn} from './codex.js';
import {geminiAfterAgentTurn, geminiNeedsPerson} from './gemini.js';
import type {SharedServer, TurnEnd} from './identity.js';
import {
  type DialogKind,
  isAgent,
  type Profile,
  type ProfileName,
  type Profiles,
} from './profile.js';
import {isShellCommand} from './shell.js';
import {type ProfileTrust, readProfileTrust} from './trust.js';

/**
 * Every program nudge knows, by name, and the questions asked of them as a group: is this an
 * agent, which program does a pane run, which hook is whose. What is true of one program is
 * its data file (data/agents/<name>.toml, or a user's).
 */
export const PROFILES: Profiles = lazyProfiles();

/** The folders of the user's profile files this process reads (set by its entry), and which
 * of their files it may read. */
let userDirs: readonly string[] = [];
let userTrust: ProfileTrust = {own: [], files: {}, store: ''};
let loaded: LoadedProfiles | undefined;

/**
 * Read the user's profile files from `dirs` (src/agents/builtin.ts, userProfileDirs) on top
 * of the built-ins, those `trust` lets through (src/agents/trust.ts), from the next time a
 * profile is asked for. Called by the entries (the CLI, the workers), which know the
 * environment; without it, the built-ins alone.
 */
export function useProfileDirs(dirs: readonly string[], trust: ProfileTrust): void {
  userDirs = dirs;
  userTrust = trust;
  loaded = undefined;
}

/** An entry's profiles: the folders `env` names (NUDGE_PROFILE_DIRS, else the person's own
 * folder) with the trust `env`'s state directory records. */
export function useProfilesOf(env: Record<string, string | undefined>): void {
  useProfileDirs(profileDirsOf(env), readProfileTrust(env));
}

/** The profiles in force, where each came from, and the user files that were refused. */
export function loadedProfiles(): LoadedProfiles {
  loaded ??= loadProfiles(userDirs, userTrust);
  return loaded;
}

/** The profile named `name`, if one is loaded. */
export function profileNamed(name: string): Profile | undefined {
  return Object.hasOwn(loadedProfiles().profiles, name)
    ? loadedProfiles().profiles[name]
    : undefined;
}

/** The agent profiles in the order they are recognised by (detectOrder, then name). */
export function agentProfiles(): Profile[] {
  return Object.values(loadedProfiles().profiles)
    .filter((p): p is Profile => p !== undefined && isAgent(p))
    .sort(
      (a, b) =>
        (a.detectOrder ?? DEFAULT_DETECT_ORDER) - (b.detectOrder ?? DEFAULT_DETECT_ORDER) ||
        compareText(a.name, b.name),
    );
}

const DEFAULT_DETECT_ORDER = 100;

/** The profiles, read from their data files the first time one is asked for (not at
 * import: `nudge submit` returns without reading them). */
function lazyProfiles(): Profiles {
  return new Proxy({} as Profiles, {
    get: (_target, key) => (typeof key === 'string' ? profileNamed(key) : undefined),
    has: (_target, key) => typeof key === 'string' && profileNamed(key) !== undefined,
    ownKeys: () => Object.keys(loadedProfiles().profiles),
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && profileNamed(key)
        ? {value: profileNamed(key), enumerable: true, configurable: true, writable: false}
        : undefined,
  });
}

/** The agent CLI a command line runs, by its executable or script path (`node
 * …/bin/codex`, `…/@google/gemini-cli/dist/index.js`, `claude`), if any. */
export function agentOfCommandLine(argv: readonly string[]): ProfileName | undefined {
  // The interpreter, then its script (skipping interpreter options such as
  // --max-old-space-size=…).
  const words = argv.slice(0, 4).filter((w, i) => i === 0 || !w.startsWith('-'));
  const agents = agentProfiles();
  for (const word of words.slice(0, 2)) {
    for (const p of agents) {
      if (p.programs?.some((re) => re.test(word))) return p.name;
    }
  }
  return undefined;
}

/** Which profile `--profile auto` picked, and why. */
export interface Detection {
  profile: Profile;
  reason: string;
}

/**
 * `--profile auto`: the pane's foreground program (where the system can tell), its command,
 * then what the screen shows (Gemini CLI runs as `node`), else `raw`. Agents are tried in
 * their detectOrder.
 */
export function detectProfile(
  command: string,
  screenText: string,
  program?: ProfileName,
): Detection {
  // The foreground program's command line (Linux /proc) names the agent whatever its screen
  // shows at the moment (a Codex composer holding a draft shows none of its markers).
  const named = program === undefined ? undefined : profileNamed(program);
  if (named) return {profile: named, reason: `the pane's foreground program is ${program}`};
  const agents = agentProfiles();
  for (const p of agents) {
    if (p.commands?.test(command)) return {profile: p, reason: `the pane runs ${command}`};
  }
  if (isShellCommand(command))
    return {profile: PROFILES.shell, reason: `the pane runs the shell ${command}`};
  for (const p of agents) {
    if (p.screen?.test(screenText))
      return {profile: p, reason: `the screen of ${command} shows ${p.name}'s composer`};
  }
  return {profile: PROFILES.raw, reason: `nothing known about ${command || 'the program'}`};
}

/** The profile for a name, or detected. A name no profile has is a NudgeError (exit 2). */
export function chooseProfile(
  name: ProfileName | 'auto',
  command: string,
  screenText: string,
  program?: ProfileName,
): Detection {
  if (name === 'auto') return detectProfile(command, screenText, program);
  const profile = profileNamed(name);
  if (!profile) throw unknownProfile(name, '--profile');
  return {profile, reason: '--profile'};
}

/** The agent profile named `name` (`nudge run --agent`, `--until prompt:NAME`): any agent the
 * registry holds, built-in or a user's. A name no agent has is a NudgeError (exit 2). */
export function agentNamed(name: string, option: string): Profile {
  const profile = profileNamed(name);
  if (profile && isAgent(profile)) return profile;
  throw new NudgeError(
    'bad-usage',
    `${option} is an agent's name (${agentProfiles()
      .map((p) => p.name)
      .join(', ')}), not ${JSON.stringify(name)}.`,
  );
}

/** The error for a profile name nothing loaded has. */
export function unknownProfile(name: string, option: string): NudgeError {
  return new NudgeError(
    'bad-profile',
    `${option}: no profile is named ${JSON.stringify(name)}; "nudge agents list" lists them (${Object.keys(loadedProfiles().profiles).join(', ')}).`,
  );
}

/** The turn-end hooks nudge understands (`nudge hook KIND`), and how each reads its payload:
 * undefined when the call is not a finished turn. */
export const TURN_END_HOOKS = {
  'claude-stop': claudeStopTurn,
  'codex-notify': codexNotifyTurn,
  'gemini-after-agent': geminiAfterAgentTurn,
  // Qwen Code's Stop hook is Claude Code's; opencode's plugin and Pi's extension (both written
  // by nudge install) and Copilot CLI's agentStop hook send JSON on stdin, each call a turn.
  'qwen-stop': claudeStopTurn,
  'opencode-idle': sessionTurn,
  'copilot-agent-stop': sessionTurn,
  'pi-agent-end': sessionTurn,
} as const satisfies Record<
  string,
  (input: Record<string, unknown> | undefined) => TurnEnd | undefined
>;

/** The notification hooks nudge understands: "this pane's agent waits for a person". */
export const NEEDS_PERSON_HOOKS = {
  'claude-notification': claudeNeedsPerson,
  'gemini-notification': geminiNeedsPerson,
} as const satisfies Record<
  string,
  (input: Record<string, unknown> | undefined) => {kind: DialogKind; message: string} | undefined
>;

export type HookKind = keyof typeof TURN_END_HOOKS;
export type NeedsHookKind = keyof typeof NEEDS_PERSON_HOOKS;
export const HOOK_KINDS = [
  ...Object.keys(TURN_END_HOOKS),
  ...Object.keys(NEEDS_PERSON_HOOKS),
] as Array<HookKind | NeedsHookKind>;

/** A hook whose every call is a finished turn, with the session id if its JSON names one. */
function sessionTurn(input: Record<string, unknown> | undefined): TurnEnd {
  const id = input?.session_id ?? input?.sessionId;
  return typeof id === 'string' ? {session: id} : {};
}

/** The servers the agent profiles say their sessions share (`[identity] servers`): a call made
 * under one proves no pane (src/pane/own-pane.ts). */
export function sharedServers(): SharedServer[] {
  return agentProfiles().flatMap((p) =>
    (p.identity?.servers ?? []).map((pattern) => ({
      agent: p.name,
      pattern,
      thread: p.identity?.thread,
      titleThread: p.identity?.titleThread,
      programs: p.programs ?? [],
    })),
  );
}
