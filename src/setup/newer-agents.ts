import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {packageDir} from '../base/version.js';
import type {InstallPlace, Piece, SelfCommand} from './place.js';
import {
  ALLOWED_CALLS,
  allowItems,
  markdownCommand,
  mcpServer,
  selfLine,
  settingsHook,
  skillText,
} from './place.js';

/**
 * What `nudge install` puts in the files of the agents nudge reads through a profile file
 * alone: Qwen Code, opencode, GitHub Copilot CLI and Pi — each one's command (or template or
 * skill), its turn-end hook, and `nudge mcp` registered where the agent takes MCP servers.
 * Facts verified by running the CLIs: test/integration/install-newer-agents.test.ts.
 */

/** Qwen Code (a fork of Gemini CLI): `/nudge` as a markdown command whose `!{…}` is the queued
 * job, nudge allowed by a permission rule, the Stop hook (Claude Code's format), `nudge mcp` in
 * settings.json. */
export function qwenPieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const dir = p.scope === 'project' ? join(p.root, '.qwen') : join(p.home, '.qwen');
  const nudge = selfLine(self);
  const settings = join(dir, 'settings.json');
  return [
    // Markdown: Qwen Code 0.24 offers to migrate a TOML command at every start.
    markdownCommand(
      'the /nudge command',
      join(dir, 'commands', 'nudge.md'),
      [],
      ['', `Queued: !{${nudge} submit --json {{args}}}`],
    ),
    ...allowItems(
      p,
      settings,
      ['permissions', 'allow'],
      nudge,
      (line, cmd) => `Bash(${line} ${cmd} *)`,
    ),
    settingsHook('hook', settings, 'Stop', {nudge, name: 'qwen-stop'}),
    mcpServer(settings, {command: self.node, args: [self.cli, 'mcp']}),
  ];
}

/** opencode: `/nudge` as a markdown command whose shell output is the queued job, a plugin
 * that runs `nudge hook opencode-idle` when a session goes idle, `nudge mcp` in opencode.json;
 * with --allow, `permission.bash` rules for the allowed calls (opencode runs shell commands
 * without asking by default; the rules matter where the person set it to ask). */
export function opencodePieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const config = p.env.XDG_CONFIG_HOME || join(p.home, '.config');
  const dir = p.scope === 'project' ? join(p.root, '.opencode') : join(config, 'opencode');
  const nudge = selfLine(self);
  const json = p.scope === 'project' ? join(p.root, 'opencode.json') : join(dir, 'opencode.json');
  return [
    markdownCommand(
      'the /nudge command',
      join(dir, 'commands', 'nudge.md'),
      [],
      [`Job queued: !\`${nudge} submit --json $ARGUMENTS\``, ''],
    ),
    {
      id: 'hook',
      what: 'the session.idle plugin (nudge hook opencode-idle)',
      file: join(dir, 'plugins', 'nudge.js'),
      kind: 'file',
      content: hookProgram('opencode-plugin.js', self),
    },
    {
      id: 'mcp',
      what: 'nudge mcp registered (mcp.nudge)',
      file: json,
      kind: 'key',
      format: 'json',
      path: ['mcp', 'nudge'],
      value: {type: 'local', command: [self.node, self.cli, 'mcp'], enabled: true},
    },
    // The absolute command install writes, and `nudge CMD` as a model types it.
    ...(p.allow
      ? ALLOWED_CALLS.flatMap((cmd) =>
          [
            {id: `allow-${cmd}`, rule: `${nudge} ${cmd} *`},
            {id: `allow-${cmd}-plain`, rule: `nudge ${cmd} *`},
          ].map(
            ({id, rule}): Piece => ({
              id,
              what: `${rule} allowed (permission.bash)`,
              file: json,
              kind: 'key',
              format: 'json',
              path: ['permission', 'bash', rule],
              value: 'allow',
            }),
          ),
        )
      : []),
  ];
}

/** GitHub Copilot CLI: the nudge skill (`/nudge`), a hook file whose agentStop runs `nudge hook
 * copilot-agent-stop`, `nudge mcp` in its MCP configuration. Copilot keeps no allowed commands
 * in a file: `copilot --allow-tool 'shell(nudge submit)' …` (one per allowed call) allows them
 * for nudge on the PATH (docs/install-and-scheduling.md). */
export function copilotPieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const home = p.env.COPILOT_HOME || join(p.home, '.copilot');
  const project = p.scope === 'project';
  const nudge = selfLine(self);
  return [
    {
      id: 'skill',
      what: 'the nudge skill (/nudge)',
      file: project
        ? join(p.root, '.github', 'skills', 'nudge', 'SKILL.md')
        : join(home, 'skills', 'nudge', 'SKILL.md'),
      kind: 'file',
      // `nudge` on the PATH: what `--allow-tool 'shell(nudge submit)'` allows (an absolute
      // `node …/cli.js` is another command, and its paths ask for access).
      content: skillText('nudge', nudge),
    },
    {
      id: 'hook',
      what: 'the agentStop hook (nudge hook copilot-agent-stop)',
      file: project
        ? join(p.root, '.github', 'hooks', 'nudge.json')
        : join(home, 'hooks', 'nudge.json'),
      kind: 'file',
      content: `${JSON.stringify(
        {
          version: 1,
          hooks: {
            agentStop: [
              {type: 'command', bash: `${nudge} hook copilot-agent-stop`, timeoutSec: 10},
            ],
          },
        },
        null,
        2,
      )}\n`,
    },
    {
      id: 'mcp',
      what: 'nudge mcp registered (mcpServers.nudge)',
      file: project ? join(p.root, '.github', 'mcp.json') : join(home, 'mcp-config.json'),
      kind: 'key',
      format: 'json',
      path: ['mcpServers', 'nudge'],
      value: {type: 'local', command: self.node, args: [self.cli, 'mcp'], tools: ['*']},
    },
  ];
}

/** Pi: `/nudge` as a prompt template (the model runs nudge with its bash tool; Pi asks no
 * approvals), and an extension whose agent_end runs `nudge hook pi-agent-end`. Pi takes no MCP
 * servers. */
export function piPieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const dir = p.scope === 'project' ? join(p.root, '.pi') : join(p.home, '.pi', 'agent');
  const nudge = selfLine(self);
  return [
    markdownCommand(
      'the /nudge prompt template',
      join(dir, 'prompts', 'nudge.md'),
      ['argument-hint: "[--pane %N] [--until exit] [--notify-pane self] -- <text>"'],
      [
        `Run this once with your bash tool, exactly as written: \`${nudge} submit --json $ARGUMENTS\``,
        '',
      ],
    ),
    {
      id: 'hook',
      what: 'the agent_end extension (nudge hook pi-agent-end)',
      file: join(dir, 'extensions', 'nudge.ts'),
      kind: 'file',
      content: hookProgram('pi-extension.ts', self),
    },
  ];
}

/**
 * A hook that is a program of the agent's own kind (opencode's plugin, Pi's extension): its
 * text from data/hooks/ in the package, with this nudge's node and CLI written in as JSON
 * strings where it says `NUDGE_NODE` and `NUDGE_CLI`.
 */
function hookProgram(name: string, self: SelfCommand): string {
  return readFileSync(join(packageDir(), 'data', 'hooks', name), 'utf8')
    .replaceAll('NUDGE_NODE', JSON.stringify(self.node))
    .replaceAll('NUDGE_CLI', JSON.stringify(self.cli));
}
