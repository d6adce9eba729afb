import {join} from 'node:path';
import {agentProfiles} from '../agents/registry.js';
import {copilotPieces, opencodePieces, piPieces, qwenPieces} from './newer-agents.js';
import {
  ALLOWED_CALLS,
  allowItems,
  geminiStyleCommand,
  type InstallPlace,
  markdownCommand,
  mcpServer,
  type Piece,
  type SelfCommand,
  selfLine,
  settingsHook,
  skillText,
} from './place.js';

/**
 * What `nudge install AGENT` puts where: for each agent, its command or skill, its turn-end
 * hook, `nudge mcp` registered and nudge allowed to run — as pieces of the agent's own files.
 * Facts verified by running the CLIs: the tests in test/integration/install-agents.test.ts
 * and test/integration/agents-at-model.test.ts.
 */

function claudeDir(p: InstallPlace): string {
  return p.scope === 'project'
    ? join(p.root, '.claude')
    : p.env.CLAUDE_CONFIG_DIR || join(p.home, '.claude');
}

/**
 * Claude Code's permission rules for the nudge commands `--allow` grants (ALLOWED_CALLS), as
 * `nudge CMD …` (nudge on the PATH, after `npm install -g`) and as the absolute command install
 * writes into the agent's files. Narrow on purpose: auto mode (the default from 2.1.283) sets
 * broad rules such as `Bash` or `Bash(nudge:*)` aside where its safety check cannot run, and
 * keeps these.
 */
export function claudeRules(self: SelfCommand): string[] {
  const nudge = selfLine(self);
  return ALLOWED_CALLS.flatMap((cmd) => [`Bash(nudge ${cmd}:*)`, `Bash(${nudge} ${cmd}:*)`]);
}

function claudePieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const dir = claudeDir(p);
  const nudge = selfLine(self);
  const mcpFile =
    p.scope === 'project'
      ? join(p.root, '.mcp.json')
      : p.env.CLAUDE_CONFIG_DIR
        ? join(p.env.CLAUDE_CONFIG_DIR, '.claude.json')
        : join(p.home, '.claude.json');
  return [
    markdownCommand(
      'the /nudge slash command',
      join(dir, 'commands', 'nudge.md'),
      [
        'argument-hint: [--pane %N] [--until exit] [--notify-pane self] -- <text>',
        // The person typed /nudge: this one command, nothing more.
        `allowed-tools: Bash(${nudge} submit:*)`,
        'disable-model-invocation: true',
      ],
      [`Job queued: !\`${nudge} submit --json $ARGUMENTS\``, ''],
    ),
    ...(p.allow ? claudeRules(self) : []).map(
      (rule, i): Piece => ({
        id: `allow-${ALLOWED_CALLS[Math.floor(i / 2)]}${i % 2 ? '-absolute' : ''}`,
        what: `${rule} allowed (permissions.allow)`,
        // In a project, the rules go to the file Claude Code keeps out of the repository
        // (settings.local.json): a grant is the person's, never committed for others.
        file: join(dir, p.scope === 'project' ? 'settings.local.json' : 'settings.json'),
        kind: 'item',
        path: ['permissions', 'allow'],
        value: rule,
        // The absolute rule of an install from another place (updated in place).
        ...(i % 2 ? {like: `cli.js ${ALLOWED_CALLS[Math.floor(i / 2)]}:*)"`} : {}),
      }),
    ),
    settingsHook('hook', join(dir, 'settings.json'), 'Stop', {nudge, name: 'claude-stop'}),
    settingsHook('needs-hook', join(dir, 'settings.json'), 'Notification', {
      nudge,
      name: 'claude-notification',
      why: 'a permission prompt',
    }),
    mcpServer(mcpFile, {type: 'stdio', command: self.node, args: [self.cli, 'mcp'], env: {}}),
  ];
}

function geminiPieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const dir = p.scope === 'project' ? join(p.root, '.gemini') : join(p.home, '.gemini');
  const nudge = selfLine(self);
  const settings = join(dir, 'settings.json');
  return [
    {
      id: 'command',
      what: 'the /nudge command',
      file: join(dir, 'commands', 'nudge.toml'),
      kind: 'file',
      content: geminiStyleCommand(nudge),
    },
    ...allowItems(
      p,
      settings,
      ['tools', 'allowed'],
      nudge,
      (line, cmd) => `run_shell_command(${line} ${cmd})`,
    ),
    settingsHook('hook', settings, 'AfterAgent', {nudge, name: 'gemini-after-agent'}),
    settingsHook('needs-hook', settings, 'Notification', {
      nudge,
      name: 'gemini-notification',
      why: 'a tool permission',
    }),
    mcpServer(settings, {command: self.node, args: [self.cli, 'mcp']}),
  ];
}

function codexPieces(p: InstallPlace, self: SelfCommand): Piece[] {
  const codexHome = p.env.CODEX_HOME || join(p.home, '.codex');
  const dir = p.scope === 'project' ? join(p.root, '.codex') : codexHome;
  const skillDir =
    p.scope === 'project'
      ? join(p.root, '.agents', 'skills', 'nudge')
      : join(codexHome, 'skills', 'nudge');
  const nudge = selfLine(self);
  const config = join(dir, 'config.toml');
  return [
    {
      id: 'skill',
      what: 'the $nudge skill',
      file: join(skillDir, 'SKILL.md'),
      kind: 'file',
      content: skillText(nudge),
    },
    ...(p.allow
      ? [
          {
            id: 'rule',
            what: `nudge ${ALLOWED_CALLS.join(', ')} allowed outside the sandbox (a prefix rule: nudge must reach the tmux socket)`,
            file: join(dir, 'rules', 'nudge.rules'),
            kind: 'file' as const,
            content: `prefix_rule(pattern = ${JSON.stringify([self.node, self.cli, [...ALLOWED_CALLS]])}, decision = "allow")\n`,
          },
        ]
      : []),
    {
      id: 'hook',
      what: 'the notify program (nudge hook codex-notify)',
      file: config,
      kind: 'key',
      format: 'toml',
      path: ['notify'],
      value: [self.node, self.cli, 'hook', 'codex-notify'],
    },
    {
      // Its sessions share one app-server, which runs their calls outside their panes: the
      // thread id in each TUI's title (`#{pane_title}`) says which pane a call is from
      // (src/pane/thread-pane.ts). Codex's own items first, as it shows them by default.
      id: 'title',
      what: "the session's thread id in Codex's terminal title ([tui] terminal_title), which tells nudge the pane of a call from Codex's shared app-server",
      file: config,
      kind: 'key',
      format: 'toml',
      path: ['tui', 'terminal_title'],
      value: ['spinner', 'project', 'session-id'],
    },
    {
      id: 'mcp',
      what: 'nudge mcp registered ([mcp_servers.nudge])',
      file: config,
      kind: 'key',
      format: 'toml',
      path: ['mcp_servers', 'nudge'],
      value: {command: self.node, args: [self.cli, 'mcp']},
    },
  ];
}

/**
 * The agents `nudge install` wires, each with what it adds (in the order it is added) and
 * what the person does next to load it. The names are the registry's (data/agents/): this
 * table only says which of them have install pieces.
 */
export const INSTALLERS = {
  claude: {
    pieces: claudePieces,
    next: 'Restart Claude Code to load /nudge and the MCP server (project scope: it asks once to approve .mcp.json).',
  },
  gemini: {
    pieces: geminiPieces,
    next: 'Run /commands reload in Gemini CLI, or restart it, to load /nudge; the MCP server and hook load at start.',
  },
  codex: {
    pieces: codexPieces,
    next: 'Restart Codex to load the $nudge skill, the notify hook and the MCP server.',
  },
  qwen: {
    pieces: qwenPieces,
    next: 'Restart Qwen Code to load /nudge, the Stop hook and the MCP server.',
  },
  opencode: {
    pieces: opencodePieces,
    next: 'Restart opencode to load /nudge, the plugin and the MCP server.',
  },
  copilot: {
    pieces: copilotPieces,
    next: 'Restart Copilot CLI to load the nudge skill, the hook and the MCP server.',
  },
  pi: {
    pieces: piPieces,
    next: 'Restart Pi (or /reload) to load /nudge and the extension; Pi takes no MCP servers.',
  },
} as const satisfies Record<
  string,
  {pieces: (p: InstallPlace, self: SelfCommand) => Piece[]; next: string}
>;

export type InstallAgent = keyof typeof INSTALLERS;

/** Whether `name` is an agent `nudge install` wires. */
export function isInstallAgent(name: string): name is InstallAgent {
  return Object.hasOwn(INSTALLERS, name);
}

/** The agents `nudge install` takes (its help, completion, doctor): those of this table the
 * registry holds as agents, in the table's order. */
export function installTargets(): InstallAgent[] {
  const agents = new Set(agentProfiles().map((p) => p.name));
  return (Object.keys(INSTALLERS) as InstallAgent[]).filter((name) => agents.has(name));
}

/** Everything `nudge install AGENT` adds, in the order it is added. */
export function piecesFor(agent: InstallAgent, place: InstallPlace, self: SelfCommand): Piece[] {
  return INSTALLERS[agent].pieces(place, self);
}
