import {isAgent, type Profile} from '../agents/profile.js';
import {agentProfiles} from '../agents/registry.js';
import {isShellPane, programAhead} from '../agents/shell.js';
import {idleNow} from '../detect/idle.js';
import type {PaneInfo} from '../tmux/tmux.js';
import type {PaneView} from '../tmux/view.js';
import {type RecognizeDeps, recognize} from './profile.js';

/** What a busy pane is busy with, for `--if-busy refuse`'s sentence; undefined when idle. */
export async function busyWith(
  deps: RecognizeDeps,
  info: PaneInfo,
  profileChoice: Parameters<typeof recognize>[3],
  /** Jobs already waiting for the pane's lock (ids, in order). */
  queued: readonly string[],
): Promise<string | undefined> {
  if (queued.length > 0)
    return `nudge has ${queued.length === 1 ? 'a job' : `${queued.length} jobs`} on it or waiting for it (${queued.join(', ')})`;
  const {profile} = await recognize(deps, info.paneId, info, profileChoice);
  const ahead = profileChoice === 'auto' ? programAhead(info, profile) : undefined;
  if (ahead) return `still running: ${ahead}`;
  const {now} = await idleOnScreen(deps, info, profile);
  if ('idle' in now) return undefined;
  // What nothing can tell (a quiet program the process view cannot see) is not typed into.
  const why = 'busy' in now ? now.busy : now.unknown;
  return isAgent(profile) ? `${profile.name}: ${why}` : why;
}

/** The pane's screen as it is, and whether its program waits for input now (the screen by
 * its profile; a shell pane's foreground by /proc or ps): what `--if-busy refuse` and `nudge
 * explain` read. */
export async function idleOnScreen(
  deps: Pick<RecognizeDeps, 'tmux' | 'foreground'>,
  info: PaneInfo,
  profile: Profile,
): Promise<{view: PaneView; now: ReturnType<typeof idleNow>}> {
  const view = await deps.tmux.view(info.paneId, 0);
  const shellPane = isShellPane(info);
  const input = shellPane ? await deps.foreground.inputState(info.panePid) : undefined;
  const now = idleNow({
    view,
    agent: isAgent(profile) ? profile : undefined,
    shellPane,
    input,
    freshMark: false,
  });
  return {view, now};
}

/** Why a text cannot go to the pane's program through a door of its own (`--if-busy now`):
 * its profile lists none. Undefined when it has one (whether the door takes it is seen when
 * the worker posts). */
export async function doorsOf(
  deps: RecognizeDeps,
  info: PaneInfo,
  profileChoice: Parameters<typeof recognize>[3],
): Promise<string | undefined> {
  const {profile} = await recognize(deps, info.paneId, info, profileChoice);
  if ((profile.doors ?? []).length > 0) return undefined;
  const withDoors = agentProfiles()
    .filter((p) => (p.doors ?? []).length > 0)
    .map((p) => p.name);
  return `Pane ${info.paneId} runs ${profile.name}, which has no door of its own to take a message mid-turn (${withDoors.join(', ')} have one: docs/agents.md)`;
}
