/**
 * The real agent CLIs (Claude Code, Gemini CLI, Codex CLI) as test and benchmark targets:
 * where scripts/install-agents.sh put them, a throwaway HOME preseeded so no first-run dialog
 * appears, the environment and argv that start one in a tmux pane (offline, or talking to a
 * scripted model server), and stopping every process it left. No test runner needed: the
 * tests (test/helpers/real-agents.ts) and `npm run bench` both use it.
 *
 * What each CLI's screen looks like, and why each seed file and variable below is there:
 * docs/agent-screens.md.
 */
import {execFileSync} from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import {homedir, tmpdir} from 'node:os';
import {dirname, join, relative, resolve} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';

/** The three agents every real-agent test runs (hooks, MCP, install, run). */
export type CoreAgentName = 'claude' | 'gemini' | 'codex';
export type AgentName = CoreAgentName | 'opencode' | 'qwen' | 'pi' | 'copilot';

interface AgentPackage {
  pkg: string;
  bin: string;
  /** One of the three every real-agent test runs (their turn-end hooks are code). */
  core?: true;
}

/** The CLIs the tests install (scripts/install-agents.sh), by the name of nudge's profile. */
const PACKAGES: Record<AgentName, AgentPackage> = {
  claude: {pkg: '@anthropic-ai/claude-code', bin: 'claude', core: true},
  gemini: {pkg: '@google/gemini-cli', bin: 'gemini', core: true},
  codex: {pkg: '@openai/codex', bin: 'codex', core: true},
  opencode: {pkg: 'opencode-ai', bin: 'opencode'},
  qwen: {pkg: '@qwen-code/qwen-code', bin: 'qwen'},
  pi: {pkg: '@mariozechner/pi-coding-agent', bin: 'pi'},
  copilot: {pkg: '@github/copilot', bin: 'copilot'},
};

const HARNESS_AGENTS = Object.keys(PACKAGES) as AgentName[];
export const AGENT_NAMES = HARNESS_AGENTS.filter((n): n is CoreAgentName => !!PACKAGES[n].core);
/** The agents nudge supports through a profile file alone, proven at the model
 * (test/integration/agents-at-model.test.ts). */
export const DATA_AGENT_NAMES: readonly AgentName[] = HARNESS_AGENTS.filter(
  (n) => !PACKAGES[n].core,
);

/** A port nothing listens on: connections are refused at once. */
const DEAD_ENDPOINT = 'http://127.0.0.1:9';

/**
 * What the tests need to recognise on each CLI's screen (plain `capture-pane -p` text).
 * Measured on the versions in scripts/install-agents.sh; docs/agent-screens.md has the
 * details. These are for test set-up; nudge's own profiles live in src/.
 */
export const AGENT_SCREENS: Record<AgentName, {emptyComposer: RegExp; busy: RegExp}> = {
  // `❯` + U+00A0 on a line of its own, between two rules. The same glyph starts every
  // submitted prompt in the transcript, so "empty" means nothing after it — or the dim
  // placeholder it shows while messages are queued.
  claude: {
    emptyComposer: /^─{20,}\n❯[\u00a0 ]*(Press up to edit queued messages)?\n─{20,}$/m,
    busy: /esc to interrupt/,
  },
  // The placeholder (grey) is shown only while the composer is empty.
  gemini: {emptyComposer: /^ [>*] {3}Type your message or @path\/to\/file/m, busy: /esc to cancel/},
  // The placeholder is dim text — a person who typed the same words looks the same in a
  // plain capture, so the cursor column (2 when empty) is the tie-breaker; see docs.
  codex: {emptyComposer: /^› Ask Codex to do anything\s*$/m, busy: /esc to interrupt/},
  // The input box: a blank `┃` row, the text row (the placeholder before the first prompt),
  // a blank row, then the agent and model row.
  opencode: {
    emptyComposer: /^\s*┃\n\s*┃(?: {2}Ask anything….*)?\n\s*┃\n\s*┃ {2}\S+ · /m,
    busy: /esc interrupt/,
  },
  // Gemini CLI's composer at column 0; after a turn the model's follow-up suggestion shows
  // in it (dim), the cursor on its first character.
  qwen: {emptyComposer: /^[>*] {1,3}\S/m, busy: /esc to cancel/},
  // The editor: one blank row between two rules.
  pi: {emptyComposer: /^─{20,}\n\s*\n─{20,}$/m, busy: /Working\.\.\./},
  // `❯` on a row of its own between two rules; the footer says `Working` while a turn runs.
  copilot: {emptyComposer: /^─{20,}\n❯\s*\n─{20,}$/m, busy: /\S Working\b.* esc esc /},
};

/** The cache folder scripts/install-agents.sh installs into. */
export function agentsDir(): string {
  return process.env.NUDGE_AGENTS_DIR || join(homedir(), '.cache', 'tmux-nudge-agents');
}

/** The executable of `name` in the cache folder (it may not exist). */
export function agentBin(name: AgentName): string {
  return join(agentsDir(), name, 'node_modules', '.bin', PACKAGES[name].bin);
}

/** The installed package version of `name`, or undefined when it is not installed. */
export function agentVersion(name: AgentName): string | undefined {
  const manifest = join(agentsDir(), name, 'node_modules', PACKAGES[name].pkg, 'package.json');
  try {
    const version = (JSON.parse(readFileSync(manifest, 'utf8')) as {version?: unknown}).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

const availability = new Map<AgentName, boolean>();

/**
 * Whether `name` is installed (scripts/install-agents.sh) and tmux is on PATH. Set
 * NUDGE_SKIP_REAL_AGENTS=1 to skip every real-agent test.
 */
export function agentAvailable(name: AgentName): boolean {
  const known = availability.get(name);
  if (known !== undefined) return known;
  let ok = process.env.NUDGE_SKIP_REAL_AGENTS !== '1';
  if (ok) {
    try {
      accessSync(agentBin(name), constants.X_OK);
      execFileSync('tmux', ['-V'], {stdio: 'ignore'});
    } catch {
      ok = false;
    }
  }
  availability.set(name, ok);
  return ok;
}

export interface AgentHome {
  /** The folder holding both, removed after the test. */
  root: string;
  /** The throwaway HOME, preseeded so that no first-run dialog appears. */
  home: string;
  /** The agent's working directory (trusted), with a few files for `@` pickers to find. */
  workdir: string;
}

export interface AgentOptions {
  /**
   * How many times the agent retries the unreachable API before it gives up (Claude Code
   * CLAUDE_CODE_MAX_RETRIES, Gemini general.maxAttempts; Codex request/stream retries).
   * 0: the error shows at once; 1: ~1 s (Gemini ~80 s). Default: the CLI's own — busy for
   * ~3 min (Claude), ~4.5 min (Gemini), until Escape (Codex).
   */
  maxRetries?: number;
  /** Files to create in the working directory, path → content (default: a small tree). */
  files?: Record<string, string>;
  /** Extra arguments for the CLI. */
  args?: string[];
  /** Extra environment for the CLI. */
  env?: Record<string, string>;
  /** Variables taken out of the CLI's environment (`env -u`), as a launcher that strips them
   * does (`TMUX_PANE`). */
  unset?: string[];
  /** How long to wait for the idle composer (default 60 s). */
  readyTimeoutMs?: number;
  /** Preseed trust for the working directory (default true). With false the CLI opens on its
   * trust dialog; combine with `wait: false`. */
  trusted?: boolean;
  /** Wait for the idle composer before resolving (default true). */
  wait?: boolean;
  /** Keep the home folder after the test (also NUDGE_KEEP_AGENT_HOMES=1), for a post-mortem. */
  keepHome?: boolean;
  /** The model API to talk to (a scripted model server, `http://127.0.0.1:PORT`); default a
   * closed port (offline). With a server, retries default to 0. */
  modelUrl?: string;
  /**
   * How tool calls are approved. `default`: the CLI's own approval mode, with the `nudge`
   * command allowed wholesale, as a person may allow it (Claude `Bash(nudge:*)`, Gemini
   * `run_shell_command(nudge)`, Codex a prefix rule; what `nudge install --allow` writes is
   * narrower: test/integration/install-*.test.ts); `all`: the "approve everything" mode
   * users run (Claude Bash allowed, Gemini `--yolo`, Codex `approval_policy = "never"`);
   * `none`: the CLI's own approval mode with nothing allowed (what `nudge install` adds is
   * then all there is).
   */
  approvals?: 'default' | 'all' | 'none';
  /** Claude Code: the permission rules to allow instead of those `approvals` picks. */
  allow?: string[];
  /** Claude Code: its permission mode (`defaultMode` in settings.json: `default` is the one
   * that asks, called "manual" here; `auto` is the default of 2.1.283 and newer). Unset: the
   * CLI's own default. */
  permissionMode?: 'default' | 'auto' | 'acceptEdits';
  /** Claude Code 2.1.283+ in another mode than auto: leave its one-time "Make auto mode your
   * default permission mode?" dialog to show at start (a person who never answered it). */
  autoDefaultDialog?: boolean;
  /** Folders put in front of PATH (a `nudge` wrapper for the model's shell calls). */
  path?: string[];
  /** Register an MCP server named `nudge` as a user would (`claude mcp add -s user`,
   * `gemini mcp add -s user`, `codex mcp add`), its tools allowed in the agent's settings. */
  mcpServer?: {command: string; args: string[]; env?: Record<string, string>};
  /** Codex: leave its shared app-server daemon on, as it is by default since 0.157 (the test
   * homes turn it off otherwise: it outlives the pane; killProcessesOfHome ends it). */
  codexDaemon?: boolean;
  /** Configure the turn-end hooks as a user would: Claude Code's Stop hook runs
   * `<nudge> hook claude-stop`, Codex's `notify` runs `<nudge> hook codex-notify`. */
  hookCommand?: string[];
}

const DEFAULT_FILES: Record<string, string> = {
  'notes.txt': 'hello from the test workdir\n',
  'README.md': '# scratch project\n',
  'src/main.ts': 'export const answer = 42;\n',
};

/**
 * Where throwaway homes go: `$NUDGE_AGENTS_DIR/homes`. Not under the system temp dir, because
 * Codex refuses to create its helper binaries below it (and says so on screen).
 */
export function agentHomesDir(): string {
  const dir = process.env.NUDGE_AGENT_HOMES || join(agentsDir(), 'homes');
  const rel = relative(resolve(tmpdir()), resolve(dir));
  if (!rel.startsWith('..') && !rel.startsWith('/')) {
    throw new Error(`${dir} is under the system temp dir ${tmpdir()}; Codex refuses to run there`);
  }
  return dir;
}

/** Create a home + workdir for `name` with the seed files that skip every first-run dialog
 * (trust, onboarding, API-key approval, auth choice). Needs no vitest; the caller removes it
 * (or use startAgent, which does). */
export function createAgentHome(name: AgentName, opts: AgentOptions = {}): AgentHome {
  const parent = agentHomesDir();
  mkdirSync(parent, {recursive: true});
  const root = mkdtempSync(join(parent, `${name}-`));
  const home = join(root, 'home');
  const workdir = join(root, 'work');
  mkdirSync(home, {recursive: true});
  mkdirSync(workdir, {recursive: true});
  for (const [path, content] of Object.entries(opts.files ?? DEFAULT_FILES)) {
    const file = join(workdir, path);
    mkdirSync(dirname(file), {recursive: true});
    writeFileSync(file, content);
  }
  const write = (path: string, content: string) => {
    const file = join(home, path);
    mkdirSync(dirname(file), {recursive: true});
    writeFileSync(file, content);
  };
  // Agents run tool commands under a login shell (Codex: `bash -lc`), which resets PATH from
  // /etc/profile; a user's own profile puts their tools back in front, and so does this one.
  if (opts.path?.length) {
    write('.bash_profile', `export PATH=${opts.path.map(shellQuote).join(':')}:"$PATH"\n`);
  }
  const endpoint = opts.modelUrl ?? DEAD_ENDPOINT;
  const retriesOf = opts.maxRetries ?? (opts.modelUrl ? 0 : undefined);
  const all = opts.approvals === 'all';
  const none = opts.approvals === 'none';
  // Claude Code 2.1.283 and newer start in auto mode, which sets broad rules such as `Bash`
  // aside; its "approve everything" is then accept-edits mode, where they hold again.
  const permissionMode =
    opts.permissionMode ??
    (name === 'claude' && all && claudeHasAutoMode(agentVersion('claude'))
      ? 'acceptEdits'
      : undefined);
  switch (name) {
    case 'claude':
      write(
        '.claude/settings.json',
        JSON.stringify({
          permissions: {
            allow: [
              ...(opts.allow ?? (none ? [] : [all ? 'Bash' : 'Bash(nudge:*)'])),
              ...(opts.mcpServer ? ['mcp__nudge'] : []),
            ],
            ...(permissionMode ? {defaultMode: permissionMode} : {}),
          },
          ...(opts.hookCommand
            ? {
                hooks: {
                  Stop: [
                    {
                      hooks: [
                        {
                          type: 'command',
                          command: [...opts.hookCommand, 'hook', 'claude-stop']
                            .map(shellQuote)
                            .join(' '),
                        },
                      ],
                    },
                  ],
                },
              }
            : {}),
        }),
      );
      write(
        '.claude.json',
        JSON.stringify({
          hasCompletedOnboarding: true,
          // 2.1.283+: in any other mode than auto it would first ask "Make auto mode your
          // default permission mode?" (a person who keeps another mode has answered it).
          ...(permissionMode && permissionMode !== 'auto' && !opts.autoDefaultDialog
            ? {hasSeenAutoDefaultNudge: true}
            : {}),
          theme: 'dark',
          customApiKeyResponses: {approved: [FAKE_KEYS.claude.slice(-20)], rejected: []},
          projects: {[workdir]: {hasTrustDialogAccepted: opts.trusted !== false}},
          ...(opts.mcpServer
            ? {mcpServers: {nudge: {type: 'stdio', env: {}, ...opts.mcpServer}}}
            : {}),
        }),
      );
      break;
    case 'gemini':
      write(
        '.gemini/settings.json',
        JSON.stringify({
          security: {auth: {selectedType: 'gemini-api-key'}},
          general: {
            enableAutoUpdate: false,
            enableAutoUpdateNotification: false,
            // maxAttempts alone still leaves ~70 s of fetch retries; retryFetchErrors: false
            // makes a refused connection fail at once
            ...(retriesOf === undefined
              ? {}
              : {maxAttempts: retriesOf + 1, retryFetchErrors: retriesOf > 0}),
          },
          privacy: {usageStatisticsEnabled: false},
          ...(all || none ? {} : {tools: {allowed: ['run_shell_command(nudge)']}}),
          // `trust`: its tools run without a confirmation (as `gemini mcp add --trust`).
          ...(opts.mcpServer ? {mcpServers: {nudge: {...opts.mcpServer, trust: true}}} : {}),
        }),
      );
      if (opts.trusted !== false) {
        write('.gemini/trustedFolders.json', JSON.stringify({[workdir]: 'TRUST_FOLDER'}));
      } else {
        // Gemini asks about folder trust only when the feature is on
        write('.gemini/trustedFolders.json', '{}');
      }
      break;
    case 'codex': {
      // Default approvals: nudge runs outside the sandbox without asking (Codex's default
      // sandbox denies connecting to the tmux socket), as `nudge install codex` sets it up.
      if (!all && !none)
        write('.codex/rules/nudge.rules', 'prefix_rule(pattern = ["nudge"], decision = "allow")\n');
      write(
        '.codex/auth.json',
        JSON.stringify({auth_mode: 'apikey', OPENAI_API_KEY: FAKE_KEYS.codex}),
      );
      const retries =
        retriesOf === undefined
          ? []
          : [
              `[model_providers.offline]`,
              `name = "offline"`,
              `base_url = "${endpoint}/v1"`,
              `env_key = "OPENAI_API_KEY"`,
              'wire_api = "responses"',
              `request_max_retries = ${retriesOf}`,
              `stream_max_retries = ${retriesOf}`,
              '',
            ];
      write(
        '.codex/config.toml',
        [
          `openai_base_url = "${endpoint}/v1"`,
          ...(retriesOf === undefined ? [] : ['model_provider = "offline"']),
          ...(opts.modelUrl
            ? all
              ? ['approval_policy = "never"', 'sandbox_mode = "danger-full-access"']
              : ['approval_policy = "on-request"']
            : []),
          ...(opts.hookCommand
            ? [`notify = ${JSON.stringify([...opts.hookCommand, 'hook', 'codex-notify'])}`]
            : []),
          'check_for_update_on_startup = false',
          '',
          '[analytics]',
          'enabled = false',
          '',
          '[features]',
          // 0.169 starts an app-server daemon (setsid, outlives the pane) by default.
          `daemon_auto_start = ${opts.codexDaemon === true}`,
          ...(retriesOf === undefined ? [] : ['unbounded_connection_retries = false']),
          '',
          ...retries,
          ...(opts.trusted === false
            ? []
            : [`[projects.${JSON.stringify(workdir)}]`, 'trust_level = "trusted"', '']),
          ...(opts.mcpServer
            ? [
                '[mcp_servers.nudge]',
                `command = ${JSON.stringify(opts.mcpServer.command)}`,
                `args = ${JSON.stringify(opts.mcpServer.args)}`,
                ...(opts.mcpServer.env
                  ? [
                      `env = { ${Object.entries(opts.mcpServer.env)
                        .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
                        .join(', ')} }`,
                    ]
                  : []),
                '',
              ]
            : []),
        ].join('\n'),
      );
      break;
    }
    case 'opencode':
      // A provider pointed at the endpoint (the Anthropic Messages format), no update check,
      // no sharing. Approvals: opencode's own default (it runs shell commands without asking),
      // everything allowed, or every shell command asked about.
      write(
        '.config/opencode/opencode.json',
        JSON.stringify({
          $schema: 'https://opencode.ai/config.json',
          autoupdate: false,
          share: 'disabled',
          provider: {
            anthropic: {options: {baseURL: `${endpoint}/v1`, apiKey: FAKE_KEYS.opencode}},
          },
          model: 'anthropic/claude-sonnet-4-5',
          ...(all ? {permission: 'allow'} : none ? {permission: {bash: 'ask'}} : {}),
          ...(opts.mcpServer
            ? {
                mcp: {
                  nudge: {type: 'local', command: [opts.mcpServer.command, ...opts.mcpServer.args]},
                },
              }
            : {}),
        }),
      );
      break;
    case 'qwen':
      // The Anthropic Messages format (auth type `anthropic`, ANTHROPIC_* in agentEnv), no
      // update check or statistics. Approvals: its own default (auto mode: a classifier — a
      // side question to the model — approves each tool call), YOLO (`--yolo`), or the mode
      // that asks about every call (`--approval-mode default`).
      write(
        '.qwen/settings.json',
        JSON.stringify({
          security: {auth: {selectedType: 'anthropic'}},
          general: {enableAutoUpdate: false, enableAutoUpdateNotification: false},
          privacy: {usageStatisticsEnabled: false},
          telemetry: {enabled: false},
        }),
      );
      write(
        '.qwen/trustedFolders.json',
        JSON.stringify(opts.trusted !== false ? {[workdir]: 'TRUST_FOLDER'} : {}),
      );
      break;
    case 'pi':
      // A provider of its own pointed at the endpoint (the Anthropic Messages format). Pi asks
      // no approvals: every mode is "everything approved".
      write(
        '.pi/agent/models.json',
        JSON.stringify({
          providers: {
            scripted: {
              baseUrl: endpoint,
              api: 'anthropic-messages',
              apiKey: FAKE_KEYS.pi,
              models: [{id: 'claude-sonnet-4-5', name: 'Scripted'}],
            },
          },
        }),
      );
      break;
    case 'copilot':
      // The folder trusted (config.json is Copilot's own record of it), no tips or update
      // check. Approvals are command-line flags (agentArgv); an MCP server goes in
      // mcp-config.json, as `copilot mcp add` writes it.
      write(
        '.copilot/config.json',
        JSON.stringify({
          firstLaunchAt: '2026-01-01T00:00:00.000Z',
          appTipShown: true,
          trustedFolders: opts.trusted !== false ? [workdir] : [],
        }),
      );
      write(
        '.copilot/settings.json',
        JSON.stringify({autoUpdate: false, showTipsOnStartup: false, banner: 'never'}),
      );
      if (opts.mcpServer)
        write(
          '.copilot/mcp-config.json',
          JSON.stringify({
            mcpServers: {nudge: {type: 'local', tools: ['*'], env: {}, ...opts.mcpServer}},
          }),
        );
      break;
  }
  return {root, home, workdir};
}

/** Whether a Claude Code version starts in auto mode (2.1.283 and newer). */
/** Whether this Claude Code has its inbox (a socket per session, 2.1.224 and newer): nudge's
 * notices then go through it (src/doors/). */
export function claudeHasInbox(version: string | undefined): boolean {
  const [a = 0, b = 0, c = 0] = (version ?? '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  return a > 2 || (a === 2 && (b > 1 || (b === 1 && c >= 224)));
}

export function claudeHasAutoMode(version: string | undefined): boolean {
  const [a = 0, b = 0, c = 0] = (version ?? '').split('.').map((n) => Number.parseInt(n, 10) || 0);
  return a > 2 || (a === 2 && (b > 1 || (b === 1 && c >= 283)));
}

/** A word for a POSIX shell command line (hook commands are run by a shell). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

const FAKE_KEYS: Record<AgentName, string> = {
  claude: 'sk-ant-api03-fake-key-for-offline-tests-0000000000000000',
  gemini: 'fake-gemini-key-for-offline-tests',
  codex: 'sk-fake-key-for-offline-tests',
  opencode: 'sk-ant-api03-fake-key-for-offline-tests-opencode',
  qwen: 'sk-ant-api03-fake-key-for-offline-tests-qwen',
  pi: 'sk-ant-api03-fake-key-for-offline-tests-pi',
  copilot: 'sk-ant-api03-fake-key-for-offline-tests-copilot',
};

/** Variables of the caller that could reach a real account, a real config, or route the
 * loopback endpoint through a proxy. */
const UNSET = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_MODEL',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_CODE_USE_BEDROCK',
  'CLAUDE_CODE_USE_VERTEX',
  'CLAUDECODE',
  'GEMINI_API_KEY',
  'GEMINI_MODEL',
  'GOOGLE_API_KEY',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_GEMINI_BASE_URL',
  'GEMINI_SANDBOX',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'CODEX_HOME',
  'COPILOT_HOME',
  'COPILOT_GITHUB_TOKEN',
  'COPILOT_MODEL',
  'COPILOT_ALLOW_ALL',
  'COPILOT_PROVIDER_BASE_URL',
  'COPILOT_PROVIDER_API_KEY',
  'GH_TOKEN',
  'GITHUB_TOKEN',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'NODE_OPTIONS',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
];

/**
 * The caller's variables that make Ink-based CLIs (Gemini CLI, Claude Code) think they run
 * in CI, where they do not start their interactive screen at all (the `is-in-ci` rule: `CI`,
 * `CONTINUOUS_INTEGRATION`, or any `CI_*`). `.ci/run` runs with CI=true, and the tmux server
 * passes its environment on to the panes.
 */
function ciVariables(): string[] {
  return Object.keys(process.env).filter(
    (k) => k === 'CI' || k === 'CONTINUOUS_INTEGRATION' || k.startsWith('CI_'),
  );
}

/** The variables an agent must not see (see UNSET and ciVariables). */
export function agentUnsetVariables(): string[] {
  return [...UNSET, ...ciVariables()];
}

/** The environment the agent runs with (on top of the tmux server's, minus UNSET). */
export function agentEnv(
  name: AgentName,
  where: AgentHome,
  opts: AgentOptions = {},
): Record<string, string> {
  const endpoint = opts.modelUrl ?? DEAD_ENDPOINT;
  const retries = opts.maxRetries ?? (opts.modelUrl ? 0 : undefined);
  const common = {
    HOME: where.home,
    NO_UPDATE_NOTIFIER: '1',
    NO_PROXY: '127.0.0.1,localhost',
    ...(opts.path?.length ? {PATH: [...opts.path, process.env.PATH ?? ''].join(':')} : {}),
  };
  switch (name) {
    case 'claude':
      return {
        ...common,
        ANTHROPIC_API_KEY: FAKE_KEYS.claude,
        ANTHROPIC_BASE_URL: endpoint,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_ERROR_REPORTING: '1',
        ...(retries === undefined ? {} : {CLAUDE_CODE_MAX_RETRIES: String(retries)}),
        ...opts.env,
      };
    case 'gemini':
      return {
        ...common,
        GEMINI_API_KEY: FAKE_KEYS.gemini,
        GOOGLE_GEMINI_BASE_URL: endpoint,
        GEMINI_TELEMETRY_ENABLED: 'false',
        ...opts.env,
      };
    case 'codex':
      return {...common, OPENAI_API_KEY: FAKE_KEYS.codex, ...opts.env};
    case 'opencode':
      return {
        ...common,
        OPENCODE_DISABLE_AUTOUPDATE: '1',
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
        OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
        OPENCODE_DISABLE_CLAUDE_CODE: '1',
        ...opts.env,
      };
    case 'qwen':
      return {
        ...common,
        ANTHROPIC_API_KEY: FAKE_KEYS.qwen,
        ANTHROPIC_BASE_URL: endpoint,
        ANTHROPIC_MODEL: 'claude-sonnet-4-5',
        ...opts.env,
      };
    case 'pi':
      // No download of fd and ripgrep, no update check.
      return {...common, PI_OFFLINE: '1', ...opts.env};
    case 'copilot':
      // Its own model provider (BYOK) at the endpoint, in the Anthropic Messages format;
      // offline: no GitHub sign-in, telemetry or update.
      return {
        ...common,
        COPILOT_OFFLINE: 'true',
        COPILOT_PROVIDER_BASE_URL: endpoint,
        COPILOT_PROVIDER_TYPE: 'anthropic',
        COPILOT_PROVIDER_API_KEY: FAKE_KEYS.copilot,
        COPILOT_MODEL: 'claude-sonnet-4.5',
        COPILOT_AUTO_UPDATE: 'false',
        ...opts.env,
      };
  }
}

/** The argv that starts `name` in a pane: `env -u …` drops the caller's risky variables
 * (tmux's `-e` can set but not unset), sets `env`, then runs the CLI. */
export function agentArgv(
  name: AgentName,
  env: Record<string, string>,
  opts: AgentOptions = {},
): string[] {
  return [
    'env',
    ...[...UNSET, ...ciVariables(), ...(opts.unset ?? [])].flatMap((v) => ['-u', v]),
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    agentBin(name),
    ...((name === 'gemini' || name === 'qwen') && opts.approvals === 'all' ? ['--yolo'] : []),
    ...(name === 'qwen' && opts.approvals === 'none' ? ['--approval-mode', 'default'] : []),
    ...(name === 'pi' ? ['--provider', 'scripted', '--model', 'claude-sonnet-4-5'] : []),
    // Copilot CLI keeps no allowed commands in its settings: they are flags. Its default mode
    // asks ("Manual Approval"), with `nudge` allowed wholesale as a person may allow it;
    // "approve everything" is --allow-all (--yolo).
    ...(name === 'copilot'
      ? opts.approvals === 'all'
        ? ['--allow-all']
        : opts.approvals === 'none'
          ? []
          : ['--allow-tool', 'shell(nudge:*)']
      : []),
    ...(opts.args ?? []),
  ];
}

/**
 * Stop every process whose environment says HOME=<home> — only agents started by this
 * helper have that (unique, freshly made) HOME: the CLI, its relaunched child, Codex's
 * daemons, shells run from `!` mode. SIGTERM, then SIGKILL for whatever is left.
 */
export async function killProcessesOfHome(home: string): Promise<void> {
  const marker = `HOME=${home}\0`;
  const find = () => {
    const pids: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        if (readFileSync(`/proc/${entry}/environ`, 'latin1').includes(marker)) {
          pids.push(Number(entry));
        }
      } catch {
        // gone, or not ours
      }
    }
    return pids;
  };
  if (!existsSync('/proc/self/environ')) return;
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    const pids = find();
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
    await sleep(signal === 'SIGTERM' ? 1_000 : 200);
  }
}

/** The `tmux new-window` arguments that start `name` in a new window of a server, detached,
 * in its working directory, printing the new pane's id. */
export function agentWindowArgs(
  name: AgentName,
  where: AgentHome,
  opts: AgentOptions = {},
): string[] {
  return [
    'new-window',
    '-d',
    '-P',
    '-F',
    '#{pane_id}',
    '-c',
    where.workdir,
    ...agentArgv(name, agentEnv(name, where, opts), opts),
  ];
}
