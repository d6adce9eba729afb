import {existsSync} from 'node:fs';
import {homedir} from 'node:os';
import {dirname, join, resolve} from 'node:path';
import {shellWord} from '../base/shell.js';
import type {Format, KeyPath} from './edit.js';

/**
 * Where `nudge install` puts things and what it puts: the scope, the place (home, project
 * root), how to run this nudge again, and a piece — one thing added to one file. Shared by
 * the agents' pieces (agents.ts, newer-agents.ts) and the planner (install.ts).
 */

export type Scope = 'user' | 'project';

/** How to run this nudge again, whatever the agent's PATH: absolute node and CLI script. */
export interface SelfCommand {
  node: string;
  cli: string;
}

export interface InstallPlace {
  scope: Scope;
  /** The user's home directory. */
  home: string;
  /** The project's root (the git work tree around the working directory, else it). */
  root: string;
  env: Record<string, string | undefined>;
  /** `--allow`: add the agent's rule that lets its model run ALLOWED_CALLS without asking. */
  allow: boolean;
}

/** The nudge commands `install --allow` lets an agent's model run without asking the person:
 * submit, and the read-only status, jobs and wait. Nothing else (run, watch, schedule,
 * install, cancel …) is ever allowed by a rule nudge writes. */
export const ALLOWED_CALLS = ['submit', 'status', 'jobs', 'wait'] as const;

/** What `install --allow` grants, in one paragraph (printed with the plan; docs/security.md). */
export const ALLOW_GRANTS =
  "--allow lets the agent's model run `nudge submit`, `nudge status`, `nudge jobs` and `nudge wait` without asking you. submit types text into a tmux pane of the agent's own session (config.toml's [submit] panes widens it): text typed into a shell pane, or into an agent's shell mode (`!cmd`), runs as a command, so this rule is consent to the model running commands that way. It never allows a cmd: notification (those come only from your config.toml), nudge run, watch, schedule or install.";

/** One thing install adds to one file. */
export type Piece =
  | {id: string; what: string; file: string; kind: 'file'; content: string}
  | {
      id: string;
      what: string;
      file: string;
      kind: 'key';
      format: Format;
      path: KeyPath;
      value: unknown;
    }
  | {
      id: string;
      what: string;
      file: string;
      kind: 'item';
      path: KeyPath;
      value: unknown;
      /** A regex that finds an item of nudge's written by another install (another path). */
      like?: string;
    };

/** `nudge mcp` registered in an agent's file: under `path` (`mcpServers.nudge` and the like),
 * as `value` says the agent takes a server (its own keys beside the command). */
export function mcpServer(
  file: string,
  value: Record<string, unknown>,
  path: KeyPath = ['mcpServers', 'nudge'],
  format: Format = 'json',
): Piece {
  return {id: 'mcp', what: 'nudge mcp registered', file, kind: 'key', format, path, value};
}

/** A hook in a settings.json of Claude Code's shape (Claude Code, Gemini CLI, Qwen Code): on
 * `event`, the command `nudge hook <name>`; `why` says what it is for. */
export function settingsHook(
  id: string,
  file: string,
  event: string,
  hook: {nudge: string; name: string; why?: string},
): Piece {
  const why = hook.why ? `: ${hook.why}` : '';
  return {
    id,
    what: `the ${event} hook (nudge hook ${hook.name}${why})`,
    file,
    kind: 'item',
    path: ['hooks', event],
    value: {hooks: [{type: 'command', command: `${hook.nudge} hook ${hook.name}`}]},
    like: ` hook ${hook.name}"`,
  };
}

/** `node cli.js` as a command line. */
export function selfLine(self: SelfCommand): string {
  return `${shellWord(self.node)} ${shellWord(self.cli)}`;
}

export function defaultHome(env: Record<string, string | undefined>): string {
  return env.HOME || homedir();
}

/** What the model is told once a command has queued a job. */
export const WHEN_QUEUED =
  'Tell the user the job id in one line and end your turn; do not wait for it. When the work is done, a notice arrives as your next prompt.';

/** How nudge's `/nudge` commands describe themselves. */
export const COMMAND_DESCRIPTION =
  'Queue text for a tmux pane with nudge; its notice comes back as a prompt (returns at once)';

/** `/nudge` as a markdown command (Claude Code, Qwen Code, opencode, Pi's prompt template):
 * front matter (the description, then `front`), then `body`, then what the model does once
 * the job is queued. */
export function markdownCommand(
  what: string,
  file: string,
  front: string[],
  body: string[],
): Piece {
  const content = ['---', `description: ${COMMAND_DESCRIPTION}`, ...front, '---', ...body];
  return {
    id: 'command',
    what,
    file,
    kind: 'file',
    content: [...content, WHEN_QUEUED, ''].join('\n'),
  };
}

/** `/nudge` as a TOML command whose shell output is the queued job (Gemini CLI, Qwen Code). */
export function geminiStyleCommand(nudge: string): string {
  return [
    'description = "Queue text for this pane with nudge; its notice comes back as a prompt (returns at once)"',
    'prompt = """',
    `Queued: !{${nudge} submit --json {{args}}}`,
    WHEN_QUEUED,
    '"""',
    '',
  ].join('\n');
}

/** The text of a skill telling the model how to queue a job with nudge (Codex's and Copilot's);
 * with `absolute`, the command to use when `nudge` is not on the PATH. */
export function skillText(nudge: string, absolute?: string): string {
  return [
    '---',
    'name: nudge',
    'description: Hand a long job to a tmux pane without blocking, and be woken by a notice when it is done (tmux-nudge).',
    '---',
    '',
    '# nudge',
    '',
    'Queue the job with your shell tool; it returns at once with a job id:',
    '',
    '```sh',
    `${nudge} submit --json --pane %N --notify-pane self --until exit -- 'COMMAND'`,
    '```',
    '',
    '- `--pane %N`: the tmux pane to type into (default: this pane). `--until exit` waits for the',
    "  command's exit status in a shell pane; without it nudge waits until the screen settles.",
    '- Tell the user the job id in one line and end your turn; do not poll. When the work is done, a',
    '  notice such as `[SYSTEM COMMAND] Command complete. Resume.` arrives as your next prompt.',
    `- \`${nudge} status JOB\` shows a job; \`${nudge} jobs\` lists them.`,
    ...(absolute ? [`- If \`nudge\` is not on the PATH, it is \`${absolute}\`.`] : []),
    '',
  ].join('\n');
}

/** With `--allow`, rule items per allowed call in a list of the agent's settings: for the
 * absolute command install writes (`nudge`), and for `nudge CMD` as a model types it with
 * nudge on the PATH (issue 63: Gemini CLI asked for `nudge submit` though the absolute form
 * was allowed). */
export function allowItems(
  p: InstallPlace,
  file: string,
  path: string[],
  nudge: string,
  rule: (nudge: string, cmd: (typeof ALLOWED_CALLS)[number]) => string,
): Piece[] {
  if (!p.allow) return [];
  return ALLOWED_CALLS.flatMap((cmd) =>
    [
      {id: `allow-${cmd}`, value: rule(nudge, cmd)},
      {id: `allow-${cmd}-plain`, value: rule('nudge', cmd)},
    ].map(
      ({id, value}): Piece => ({
        id,
        what: `${value} allowed (${path.join('.')})`,
        file,
        kind: 'item',
        path,
        value,
      }),
    ),
  );
}

/** Whether a piece is an allow rule (what `--allow` adds) rather than nudge's own wiring. */
export function isAllowRule(piece: Pick<Piece, 'id'>): boolean {
  return piece.id.startsWith('allow') || piece.id === 'rule';
}

/** The git work tree around `cwd` (a `.git` folder or file above it), else `cwd`. */
export function projectRoot(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(cwd);
    dir = up;
  }
}
