import {type LoadedProfiles, loadProfiles} from './builtin.js';
import {claudeStopTurn} from './claude.js';
import {codexNotifyTurn} from './codex.js';
import {geminiAfterAgentTurn} from './gemini.js';
import {
  type AgentName,
  PROFILE_NAMES,
  type Profile,
  type ProfileName,
  type TurnEnd,
} from './profile.js';
import {isShellCommand} from './shell.js';

/**
 * Every program nudge knows, by name, and the questions asked of them as a group: is this an
 * agent, which program does a pane run, which hook is whose. What is true of one program lives
 * in its own file.
 */
export const PROFILES: Readonly<Record<ProfileName, Profile>> = lazyProfiles();

/** The folders of the user's profile files this process reads (set by its entry). */
let userDirs: readonly string[] = [];
let loaded: LoadedProfiles | undefined;

/**
 * Read the user's profile files from `dirs` (src/agents/builtin.ts, userProfileDirs) on top
 * of the built-ins, from the next time a profile is asked for. Called by the entries (the
 * CLI, the workers), which know the environment; without it, the built-ins alone.
 */
export function useProfileDirs(dirs: readonly string[]): void {
  userDirs = dirs;
  loaded = undefined;
}

/** The profiles in force, where each came from, and the user files that were refused. */
export function loadedProfiles(): LoadedProfiles {
  loaded ??= loadProfiles(userDirs);
  return loaded;
}

/** The profiles, read from their data files the first time one is asked for (not at
 * import: `nudge submit` returns without reading them). */
function lazyProfiles(): Readonly<Record<ProfileName, Profile>> {
  const out = {} as Record<ProfileName, Profile>;
  for (const name of PROFILE_NAMES) {
    Object.defineProperty(out, name, {
      get: () => loadedProfiles().profiles[name],
      enumerable: true,
    });
  }
  return Object.freeze(out);
}

/** The agent CLI a command line runs, by its executable or script path (`node
 * …/bin/codex`, `…/@google/gemini-cli/dist/index.js`, `claude`), if any. */
export function agentOfCommandLine(argv: readonly string[]): AgentName | undefined {
  // The interpreter, then its script (skipping interpreter options such as
  // --max-old-space-size=…).
  const words = argv.slice(0, 4).filter((w, i) => i === 0 || !w.startsWith('-'));
  for (const word of words.slice(0, 2)) {
    for (const name of ['claude', 'codex', 'gemini'] as const) {
      if (PROFILES[name].programs?.some((p) => p.test(word))) return name;
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
 * then what the screen shows (Gemini CLI runs as `node`), else `raw`.
 */
export function detectProfile(command: string, screenText: string, program?: AgentName): Detection {
  // The foreground program's command line (Linux /proc) names the agent whatever its screen
  // shows at the moment (a Codex composer holding a draft shows none of its markers).
  if (program)
    return {profile: PROFILES[program], reason: `the pane's foreground program is ${program}`};
  const {claude, codex, gemini, shell, raw} = PROFILES;
  for (const p of [claude, codex, gemini]) {
    if (p.commands?.test(command)) return {profile: p, reason: `the pane runs ${command}`};
  }
  if (isShellCommand(command))
    return {profile: shell, reason: `the pane runs the shell ${command}`};
  for (const p of [claude, gemini, codex]) {
    if (p.screen?.test(screenText))
      return {profile: p, reason: `the screen of ${command} shows ${p.name}'s composer`};
  }
  return {profile: raw, reason: `nothing known about ${command || 'the program'}`};
}

/** The profile for a name, or detected. */
export function chooseProfile(
  name: ProfileName | 'auto',
  command: string,
  screenText: string,
  program?: AgentName,
): Detection {
  if (name === 'auto') return detectProfile(command, screenText, program);
  return {profile: PROFILES[name], reason: '--profile'};
}

/** The turn-end hooks nudge understands (`nudge hook KIND`), and how each reads its payload:
 * undefined when the call is not a finished turn. */
export const TURN_END_HOOKS = {
  'claude-stop': claudeStopTurn,
  'codex-notify': codexNotifyTurn,
  'gemini-after-agent': geminiAfterAgentTurn,
} as const satisfies Record<
  string,
  (input: Record<string, unknown> | undefined) => TurnEnd | undefined
>;

export type HookKind = keyof typeof TURN_END_HOOKS;
export const HOOK_KINDS = Object.keys(TURN_END_HOOKS) as HookKind[];
