import {baseName, isAgent, type Profile} from '../agents/profile.js';
import {isShellCommand, isShellPane} from '../agents/shell.js';
import {shellPromptVisible} from '../detect/idle.js';
import type {PaneInfo} from '../tmux/tmux.js';
import {cursorLine, type PaneView} from '../tmux/view.js';

/** Shells whose interactive input line takes `# …` as a comment out of the box (zsh needs
 * `setopt interactivecomments`, csh and tcsh have none at a prompt). */
const COMMENTING_SHELLS = new Set(['bash', 'sh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);

/** How a line of nudge's own (a notice, a stall's continue line, a watcher's line) goes to
 * a pane: typed as it is (an agent, a program nudge was pointed at), typed as a comment the
 * shell ignores, or shown as a tmux message, never typed. */
export type OwnLineWay =
  | {how: 'keys'; line: string}
  | {how: 'comment'; line: string}
  | {how: 'message'; why: string; passing: boolean};

/**
 * How nudge's own `line` reaches `info`'s pane, so that a shell never runs it as a command:
 *
 * - an agent (its profile), or a program that is the pane's own first process (a REPL the
 *   pane was started with): the line is typed;
 * - a shell at its prompt that takes comments: `# line` (one line; Enter leaves it in the
 *   scrollback, where the person sees it, and the shell runs nothing);
 * - any other shell pane (zsh without interactive comments, a continuation prompt, a command
 *   running in the foreground that would leave the line to the shell when it ends): shown as
 *   a tmux message, nothing typed. `passing` says whether it may change within moments (a
 *   command ending, the prompt coming back), not a shell that never takes comments.
 */
export function ownLineWay(
  info: Pick<PaneInfo, 'currentCommand' | 'startCommand'>,
  profile: Profile,
  view: PaneView,
  line: string,
): OwnLineWay {
  if (isAgent(profile)) return {how: 'keys', line};
  if (profile.kind !== 'shell' && !isShellPane(info)) return {how: 'keys', line};
  const shell = info.currentCommand;
  if (!isShellCommand(shell))
    return {
      how: 'message',
      why: `${shell} runs in the shell's foreground, and the shell would run a typed line when it ends`,
      passing: true,
    };
  if (!COMMENTING_SHELLS.has(baseName(shell)))
    return {how: 'message', why: `${shell} may not take a comment at its prompt`, passing: false};
  if (/^\s*>\s*$/.test(cursorLine(view)) || !shellPromptVisible(view))
    return {how: 'message', why: `${shell} is not at its prompt`, passing: true};
  return {how: 'comment', line: `# ${line.replace(/[\r\n]+/g, ' ')}`};
}
