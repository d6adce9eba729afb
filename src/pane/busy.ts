import {isAgent, type Profile, type ProfileName} from '../agents/profile.js';
import {agentProfiles} from '../agents/registry.js';
import {isShellPane, programAhead} from '../agents/shell.js';
import {type IdleFacts, idleNow} from '../detect/idle.js';
import type {PaneInfo} from '../tmux/tmux.js';
import type {PaneView} from '../tmux/view.js';
import {type RecognizeDeps, recognize} from './profile.js';

/** What the checks of a submit read of a pane, once: its screen, its program's profile
 * (recognised as the worker recognises it), and for a shell pane what its foreground waits
 * on. The checks below are functions of these alone. */
export interface PaneFacts {
  info: PaneInfo;
  /** The profile as `--profile` gave it, or `auto`. */
  choice: ProfileName | 'auto';
  profile: Profile;
  /** Why it is that profile (`--profile`, its screen, what it was recognised as earlier). */
  reason: string;
  view: PaneView;
  input: IdleFacts['input'];
}

/** Read a pane's facts: one look at its screen and its foreground. */
export async function readPaneFacts(
  deps: RecognizeDeps,
  info: PaneInfo,
  choice: ProfileName | 'auto',
): Promise<PaneFacts> {
  const {profile, reason, view} = await recognize(deps, info.paneId, info, choice);
  const input = isShellPane(info) ? await deps.foreground.inputState(info.panePid) : undefined;
  return {info, choice, profile, reason, view, input};
}

/** What a busy pane's program is busy with, for `--if-busy refuse`'s sentence; undefined
 * when idle. (Jobs of nudge on the pane make it busy before its program is looked at:
 * src/pane/submit-target.ts.) */
export function busyWith(facts: PaneFacts): string | undefined {
  const {profile, info} = facts;
  const ahead = facts.choice === 'auto' ? programAhead(info, profile) : undefined;
  if (ahead) return `still running: ${ahead}`;
  const now = idleNowOf(facts);
  if ('idle' in now) return undefined;
  // What nothing can tell (a quiet program the process view cannot see) is not typed into.
  const why = 'busy' in now ? now.busy : now.unknown;
  return isAgent(profile) ? `${profile.name}: ${why}` : why;
}

/** Whether the pane's program waits for input now: the screen by its profile, a shell
 * pane's foreground by /proc or ps. */
export function idleNowOf(facts: Omit<PaneFacts, 'choice'>): ReturnType<typeof idleNow> {
  const {profile} = facts;
  return idleNow({
    view: facts.view,
    agent: isAgent(profile) ? profile : undefined,
    shellPane: isShellPane(facts.info),
    input: facts.input,
    freshMark: false,
  });
}

/** Why a text cannot go to the pane's program through a door of its own (`--if-busy now`,
 * `--via native`); undefined when it has one. */
export function noDoor(profile: Profile, paneId: string): string | undefined {
  if ((profile.doors ?? []).length > 0) return undefined;
  const withDoors = agentProfiles()
    .filter((p) => (p.doors ?? []).length > 0)
    .map((p) => p.name);
  return `Pane ${paneId} runs ${profile.name}, which has no door of its own to take a message mid-turn (${withDoors.join(', ')} have one: docs/agents.md)`;
}
