import type {Profile, ProfileName} from '../agents/profile.js';
import {isAgent} from '../agents/profile.js';
import {
  agentOfCommandLine,
  chooseProfile,
  type Detection,
  profileNamed,
} from '../agents/registry.js';
import {isShellCommand} from '../agents/shell.js';
import type {Foreground} from '../process/foreground.js';
import type {PaneInfo, Tmux} from '../tmux/tmux.js';
import {type PaneView, visibleText} from '../tmux/view.js';
import type {PaneMemory} from './memory.js';

/** What recognising a pane's program needs. */
export interface RecognizeDeps {
  tmux: Tmux;
  /** What runs in the foreground of a pane's terminal (by the pane's pid), where the system
   * can tell: its command line names an agent whose screen does not. */
  foreground: Foreground;
  /** Which agent each pane was last recognised as (kept when its screen shows no marker). */
  paneMemory: PaneMemory;
}

/** The agent a pane runs now, from its foreground program (where the system can tell), its
 * command and `view` — one look, nothing remembered (`nudge wait`, `nudge expect`). */
export async function agentInPane(
  deps: Pick<RecognizeDeps, 'foreground'>,
  info: PaneInfo,
  view: PaneView,
): Promise<Profile | undefined> {
  const argv = isShellCommand(info.currentCommand)
    ? undefined
    : await deps.foreground.commandLine(info.panePid);
  const {profile} = chooseProfile(
    'auto',
    info.currentCommand,
    visibleText(view),
    argv ? agentOfCommandLine(argv) : undefined,
  );
  return isAgent(profile) ? profile : undefined;
}

/** The pane's profile: `choice` (--profile), or recognised from its foreground program
 * (where the system can tell), its command and its screen — and, for an agent whose screen
 * shows no marker right now, what it was recognised as earlier. */
export async function recognize(
  deps: RecognizeDeps,
  pane: string,
  info: PaneInfo,
  choice: ProfileName | 'auto',
): Promise<Detection & {view: PaneView}> {
  const view = await deps.tmux.view(pane, 0);
  const argv = await deps.foreground.commandLine(info.panePid);
  const program = argv ? agentOfCommandLine(argv) : undefined;
  const found = {...chooseProfile(choice, info.currentCommand, visibleText(view), program), view};
  if (choice !== 'auto') return found;
  if (isAgent(found.profile)) {
    await deps.paneMemory.remember(pane, info.panePid, found.profile.name);
    return found;
  }
  // An agent recognised earlier whose screen shows none of its markers now (not a shell:
  // the agent has exited back to one).
  const earlier = isShellCommand(info.currentCommand)
    ? undefined
    : await deps.paneMemory.recall(pane, info.panePid);
  const known = earlier === undefined ? undefined : profileNamed(earlier);
  if (known && earlier !== found.profile.name) {
    return {
      profile: known,
      reason: `recognised as ${earlier} earlier; its screen shows no marker of it now`,
      view,
    };
  }
  return found;
}
