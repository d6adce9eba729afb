import {existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {parse as parseToml} from '@decimalturn/toml-patch';
import {parse as parseJsonc} from 'jsonc-parser';
import {describe, expect, test} from 'vitest';
import {EXIT_CODES, NudgeError} from '../../../src/base/errors.js';
import {renderInstall} from '../../../src/render/setup.js';
import {installTargets} from '../../../src/setup/agents.js';
import {type InstallResult, installAgent} from '../../../src/verbs/install.js';
import {offlineContext} from '../../helpers/offline-context.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const SELF = {node: '/opt/node/bin/node', cli: '/opt/tmux-nudge/dist/src/cli.js'};
const NUDGE = `${SELF.node} ${SELF.cli}`;

function setup(files: Record<string, string>) {
  const home = useTempDir('nudge-install-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), {recursive: true});
    writeFileSync(join(home, path), text);
  }
  const ctx = offlineContext({
    env: {HOME: home, NUDGE_HOME: join(home, '.state')},
    cwd: home,
    self: SELF,
  });
  return {home, ctx};
}

/** Every file under `dir` (but the state dir) → its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, {withFileTypes: true})) {
      const p = join(d, e.name);
      if (e.name === '.state') continue;
      if (e.isDirectory()) walk(p);
      else out[p.slice(dir.length)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const read = (home: string, path: string) => readFileSync(join(home, path), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: settings read back from the files, any shape
type Doc = Record<string, any>;
const json = (home: string, path: string) => parseJsonc(read(home, path)) as Doc;

const CLAUDE_SETTINGS = `{
\t// my settings: tabs, a comment, my own Stop hook
\t"permissions": {"allow": ["Bash(ls:*)"]},
\t"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]},
\t"model": "opus"
}
`;
const CLAUDE_JSON =
  '{"numStartups":3,"mcpServers":{"other":{"command":"x","args":[]}},"projects":{}}';

describe('nudge install claude', () => {
  test('merges into the user files keeping their text; a second install changes nothing; --uninstall restores them byte for byte', async () => {
    const {home, ctx} = setup({
      '.claude/settings.json': CLAUDE_SETTINGS,
      '.claude.json': CLAUDE_JSON,
    });
    const before = snapshot(home);

    const dry = await installAgent({agent: 'claude', dryRun: true, allow: true}, ctx);
    expect(dry.pieces.map((p) => p.action)).toEqual(Array(12).fill('add'));
    expect(snapshot(home)).toEqual(before);
    expect(existsSync(join(home, '.state'))).toBe(false);

    const r = await installAgent({agent: 'claude', allow: true}, ctx);
    expect(r.pieces.map((p) => [p.id, p.action])).toEqual([
      ['command', 'add'],
      ...['submit', 'status', 'jobs', 'wait'].flatMap((c) => [
        [`allow-${c}`, 'add'],
        [`allow-${c}-absolute`, 'add'],
      ]),
      ['hook', 'add'],
      ['needs-hook', 'add'],
      ['mcp', 'add'],
    ]);
    // --allow: narrow rules for submit and the read-only status, jobs and wait, kept by Claude
    // Code's auto mode: nudge on the PATH, and the absolute command.
    expect(r.notes.at(-1)).toMatch(/^--allow lets the agent's model run `nudge submit`/);
    expect(json(home, '.claude/settings.json').permissions.allow).toEqual([
      'Bash(ls:*)',
      ...['submit', 'status', 'jobs', 'wait'].flatMap((c) => [
        `Bash(nudge ${c}:*)`,
        `Bash(${NUDGE} ${c}:*)`,
      ]),
    ]);
    const settings = read(home, '.claude/settings.json');
    // The comment and the tabs stay; the allow list nudge added to is laid out one rule a line.
    for (const line of CLAUDE_SETTINGS.split('\n').slice(0, 2)) expect(settings).toContain(line);
    expect(settings).toContain('\t"permissions": {\n\t\t"allow": [\n\t\t\t"Bash(ls:*)",\n');
    expect(json(home, '.claude/settings.json').hooks.Stop).toEqual([
      {hooks: [{type: 'command', command: 'say done'}]},
      {hooks: [{type: 'command', command: `${NUDGE} hook claude-stop`}]},
    ]);
    expect(json(home, '.claude.json').mcpServers).toEqual({
      other: {command: 'x', args: []},
      nudge: {type: 'stdio', command: SELF.node, args: [SELF.cli, 'mcp'], env: {}},
    });
    expect(json(home, '.claude.json').numStartups).toBe(3);
    const command = read(home, '.claude/commands/nudge.md');
    expect(command.startsWith('---\n')).toBe(true);
    const front = command.split('---\n')[1]!;
    expect(front).not.toMatch(/\n\s*\n/); // no blank line inside the frontmatter
    // The person typed /nudge: that one command, never Bash(nudge:*).
    expect(front).toContain(`allowed-tools: Bash(${NUDGE} submit:*)\n`);
    expect(command).not.toContain('Bash(nudge:*)');
    expect(command).toContain(`!\`${NUDGE} submit --json $ARGUMENTS\``);
    expect(r.backups).toHaveLength(2);
    expect(readFileSync(r.backups[0]!, 'utf8')).toBe(CLAUDE_SETTINGS);
    expect(statSync(r.record).mode & 0o777).toBe(0o600);

    const installed = snapshot(home);
    const again = await installAgent({agent: 'claude', allow: true}, ctx);
    expect(again.pieces.map((p) => p.action)).toEqual(Array(12).fill('present'));
    expect(again.files.every((f) => f.action === 'none')).toBe(true);
    expect(snapshot(home)).toEqual(installed);

    const dryOut = await installAgent({agent: 'claude', uninstall: true, dryRun: true}, ctx);
    expect(dryOut.files.map((f) => f.action).sort()).toEqual(['delete', 'restore', 'restore']);
    expect(snapshot(home)).toEqual(installed);

    const u = await installAgent({agent: 'claude', uninstall: true}, ctx);
    expect(u.pieces.map((p) => p.action)).toEqual(Array(12).fill('remove'));
    expect(snapshot(home)).toEqual(before);
    expect(existsSync(join(home, '.claude', 'commands'))).toBe(false); // the folder it made
    expect(existsSync(r.record)).toBe(false);
    expect(u.backups).toEqual([]);
    const none = await installAgent({agent: 'claude', uninstall: true}, ctx);
    expect(none.notes[0]).toMatch(/not installed for claude/);
  });

  test('a file the agent rewrote since install: --uninstall takes out only what install added', async () => {
    const {home, ctx} = setup({
      '.claude/settings.json': CLAUDE_SETTINGS,
      '.claude.json': CLAUDE_JSON,
    });
    await installAgent({agent: 'claude'}, ctx);
    // Claude Code rewrites ~/.claude.json on every start
    const now = json(home, '.claude.json');
    writeFileSync(join(home, '.claude.json'), JSON.stringify({...now, numStartups: 4}, null, 2));
    writeFileSync(
      join(home, '.claude/settings.json'),
      read(home, '.claude/settings.json').replace('"model": "opus"', '"model": "sonnet"'),
    );
    const u = await installAgent({agent: 'claude', uninstall: true}, ctx);
    expect(u.files.find((f) => f.file.endsWith('.claude.json'))?.action).toBe('edit');
    expect(json(home, '.claude.json')).toEqual({...JSON.parse(CLAUDE_JSON), numStartups: 4});
    const settings = read(home, '.claude/settings.json');
    expect(settings).toContain('// my settings');
    expect(parseJsonc(settings)).toEqual({...parseJsonc(CLAUDE_SETTINGS), model: 'sonnet'});
    expect(u.backups.length).toBeGreaterThan(0); // kept: the restore was not byte for byte
  });

  test("what is already there and not nudge's is left alone (exit 1), and uninstall leaves it", async () => {
    const theirs = {command: 'nudge', args: ['mcp', '--assess-cmd', 'my-assessor']};
    const {home, ctx} = setup({'.claude.json': JSON.stringify({mcpServers: {nudge: theirs}})});
    const r = await installAgent({agent: 'claude'}, ctx);
    const mcp = r.pieces.find((p) => p.id === 'mcp')!;
    expect(mcp.action).toBe('conflict');
    expect(mcp.note).toMatch(/mcpServers\.nudge .* is already set/);
    const lines: string[] = [];
    const code = renderInstall(r, false, {
      stdout: (l) => lines.push(l),
      stderr: (l) => lines.push(l),
      width: 80,
    });
    expect(code).toBe(EXIT_CODES.failure);
    expect(lines.join('\n')).toContain('! nudge mcp registered: left alone');
    await installAgent({agent: 'claude', uninstall: true}, ctx);
    expect(json(home, '.claude.json').mcpServers.nudge).toEqual(theirs);
  });

  test('a file changed by someone else between two installs is never restored from the old backup', async () => {
    const {home, ctx} = setup({'.claude/settings.json': CLAUDE_SETTINGS});
    await installAgent({agent: 'claude'}, ctx);
    // the user edits the file, then nudge moves and is installed again
    writeFileSync(
      join(home, '.claude/settings.json'),
      read(home, '.claude/settings.json').replace('"model": "opus"', '"model": "haiku"'),
    );
    await installAgent(
      {agent: 'claude'},
      {...ctx, self: {node: '/usr/bin/node', cli: '/new/cli.js'}},
    );
    await installAgent({agent: 'claude', uninstall: true}, ctx);
    expect(parseJsonc(read(home, '.claude/settings.json'))).toEqual({
      ...parseJsonc(CLAUDE_SETTINGS),
      model: 'haiku',
    });
  });

  test('after nudge moved, install updates its entries in place (one Stop hook, not two)', async () => {
    const {home, ctx} = setup({});
    await installAgent({agent: 'claude', allow: true}, ctx);
    const moved = {
      ...ctx,
      self: {node: '/usr/bin/node', cli: '/home/me/tmux nudge/dist/src/cli.js'},
    };
    const r = await installAgent({agent: 'claude', allow: true}, moved);
    // The plain `nudge CMD` rules stay as they are; the absolute ones are updated in place.
    expect(r.pieces.map((p) => p.action)).toEqual([
      'update',
      ...Array(4).fill(['present', 'update']).flat(),
      'update',
      'update',
      'update',
    ]);
    expect(json(home, '.claude/settings.json').hooks.Stop).toEqual([
      {
        hooks: [
          {
            type: 'command',
            command: "/usr/bin/node '/home/me/tmux nudge/dist/src/cli.js' hook claude-stop",
          },
        ],
      },
    ]);
    await installAgent({agent: 'claude', uninstall: true}, moved);
    expect(snapshot(home)).toEqual({});
  });

  test('--scope project writes into the repository around the working directory', async () => {
    const {home, ctx} = setup({'repo/.git/HEAD': 'ref: refs/heads/main\n', 'repo/src/x.ts': ''});
    const sub = {...ctx, cwd: join(home, 'repo', 'src')};
    const r = await installAgent({agent: 'claude', scope: 'project'}, sub);
    expect(r.root).toBe(join(home, 'repo'));
    expect(r.files.map((f) => f.file.slice(home.length))).toEqual([
      '/repo/.claude/commands/nudge.md',
      '/repo/.claude/settings.json',
      '/repo/.mcp.json',
    ]);
    expect(json(home, 'repo/.mcp.json').mcpServers.nudge.command).toBe(SELF.node);
    await installAgent({agent: 'claude', scope: 'project', uninstall: true}, sub);
    expect(Object.keys(snapshot(home)).sort()).toEqual(['/repo/.git/HEAD', '/repo/src/x.ts']);
  });

  test('--scope project --allow: the rules go to settings.local.json (never committed); an agent without such a file is refused (issue 42)', async () => {
    const {home, ctx} = setup({'repo/.git/HEAD': 'ref: refs/heads/main\n'});
    const sub = {...ctx, cwd: join(home, 'repo')};
    await installAgent({agent: 'claude', scope: 'project', allow: true}, sub);
    expect(json(home, 'repo/.claude/settings.local.json').permissions.allow).toContain(
      `Bash(${NUDGE} submit:*)`,
    );
    expect(json(home, 'repo/.claude/settings.json').permissions?.allow).toBeUndefined();
    const refused = await installAgent({agent: 'gemini', scope: 'project', allow: true}, sub).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(NudgeError);
    expect((refused as NudgeError).message).toBe(
      `--allow with --scope project would write a permission rule into ${join(home, 'repo', '.gemini', 'settings.json')}, which the repository commits and others clone; install with --allow at user scope, or leave --allow out.`,
    );
    expect(existsSync(join(home, 'repo', '.gemini'))).toBe(false);
  });

  test('two HOMEs sharing one state folder keep a record each: one uninstall leaves the other (issue 42)', async () => {
    const a = setup({});
    const b = setup({});
    const shared = {...b.ctx, env: {...b.ctx.env, NUDGE_HOME: a.ctx.env.NUDGE_HOME}};
    const ra = await installAgent({agent: 'claude'}, a.ctx);
    const rb = await installAgent({agent: 'claude'}, shared);
    expect(ra.record).not.toBe(rb.record);
    await installAgent({agent: 'claude', uninstall: true}, shared);
    expect(existsSync(join(a.home, '.claude', 'commands', 'nudge.md'))).toBe(true);
    expect(existsSync(join(b.home, '.claude', 'commands', 'nudge.md'))).toBe(false);
  });

  test('a settings file that is not valid JSON: one sentence, exit 2, nothing written', async () => {
    const {home, ctx} = setup({'.claude/settings.json': '{"hooks": '});
    const before = snapshot(home);
    const error = await installAgent({agent: 'claude'}, ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NudgeError);
    expect((error as NudgeError).exitCode).toBe(EXIT_CODES.usage);
    expect((error as NudgeError).message).toMatch(
      /settings\.json is not valid JSON .*; fix it and run install again\.$/,
    );
    expect(snapshot(home)).toEqual(before);
  });

  test('an unknown agent or scope: exit 2', async () => {
    const {ctx} = setup({});
    await expect(installAgent({agent: 'cursor'}, ctx)).rejects.toThrow(
      `Unknown agent "cursor"; use ${installTargets().join(', ')}.`,
    );
    await expect(installAgent({agent: 'claude', scope: 'team' as 'user'}, ctx)).rejects.toThrow(
      /Unknown scope/,
    );
  });
});

describe('nudge install gemini', () => {
  test('command, tools.allowed (--allow), AfterAgent hook and mcpServers; an allowance the user had stays after uninstall', async () => {
    const allowed = `run_shell_command(${NUDGE} submit)`;
    const original = `{\n  "theme": "dark",\n  "tools": {"allowed": ["${allowed}"]}\n}\n`;
    const {home, ctx} = setup({'.gemini/settings.json': original});
    const r = await installAgent({agent: 'gemini', allow: true}, ctx);
    expect(r.pieces.map((p) => [p.id, p.action])).toEqual([
      ['command', 'add'],
      ['allow-submit', 'present'],
      ['allow-submit-plain', 'add'],
      ['allow-status', 'add'],
      ['allow-status-plain', 'add'],
      ['allow-jobs', 'add'],
      ['allow-jobs-plain', 'add'],
      ['allow-wait', 'add'],
      ['allow-wait-plain', 'add'],
      ['hook', 'add'],
      ['needs-hook', 'add'],
      ['mcp', 'add'],
    ]);
    const s = json(home, '.gemini/settings.json');
    expect(s.hooks.AfterAgent).toEqual([
      {hooks: [{type: 'command', command: `${NUDGE} hook gemini-after-agent`}]},
    ]);
    expect(s.mcpServers.nudge).toEqual({command: SELF.node, args: [SELF.cli, 'mcp']});
    const toml = parseToml(read(home, '.gemini/commands/nudge.toml')) as {prompt: string};
    expect(toml.prompt).toContain(`!{${NUDGE} submit --json {{args}}}`);
    // the agent rewrote the file: the structural path, which must keep the user's allowance
    writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify({...s, theme: 'light'}));
    await installAgent({agent: 'gemini', uninstall: true}, ctx);
    expect(json(home, '.gemini/settings.json')).toEqual({
      theme: 'light',
      tools: {allowed: [allowed]},
    });
  });
});

describe('nudge install codex', () => {
  const CONFIG = `# my codex config\nmodel = "o3"   # the best one\n\n[features]\n# keep\nweb_search = true\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n`;

  test('skill, rule, notify and [mcp_servers.nudge] in config.toml keeping its comments; uninstall byte for byte', async () => {
    const {home, ctx} = setup({'.codex/config.toml': CONFIG});
    const before = snapshot(home);
    const r: InstallResult = await installAgent({agent: 'codex', allow: true}, ctx);
    expect(r.pieces.map((p) => [p.id, p.action])).toEqual([
      ['skill', 'add'],
      ['rule', 'add'],
      ['hook', 'add'],
      ['title', 'add'],
      ['mcp', 'add'],
    ]);
    const text = read(home, '.codex/config.toml');
    for (const line of CONFIG.split('\n')) expect(text).toContain(line);
    const config = parseToml(text) as Doc;
    expect(config.notify).toEqual([SELF.node, SELF.cli, 'hook', 'codex-notify']);
    // The thread id in its title: which pane a call from its shared app-server is from.
    expect(config.tui).toEqual({terminal_title: ['spinner', 'project', 'session-id']});
    expect(config.mcp_servers).toEqual({
      docs: {command: 'docs-mcp'},
      nudge: {command: SELF.node, args: [SELF.cli, 'mcp']},
    });
    expect(read(home, '.codex/rules/nudge.rules')).toBe(
      `prefix_rule(pattern = ["${SELF.node}","${SELF.cli}",["submit","status","jobs","wait"]], decision = "allow")\n`,
    );
    const skill = read(home, '.codex/skills/nudge/SKILL.md');
    expect(skill).toMatch(/^---\nname: nudge\ndescription: .+\n---\n/);
    await installAgent({agent: 'codex', uninstall: true}, ctx);
    expect(snapshot(home)).toEqual(before);
  });

  test("the user's own notify program is left alone (codex runs one)", async () => {
    const {home, ctx} = setup({'.codex/config.toml': 'notify = ["notify-send", "codex"]\n'});
    const r = await installAgent({agent: 'codex'}, ctx);
    expect(r.pieces.find((p) => p.id === 'hook')?.action).toBe('conflict');
    expect((parseToml(read(home, '.codex/config.toml')) as {notify: string[]}).notify).toEqual([
      'notify-send',
      'codex',
    ]);
  });

  test('CODEX_HOME is where Codex keeps its files', async () => {
    const {home, ctx} = setup({});
    const r = await installAgent(
      {agent: 'codex', allow: true},
      {...ctx, env: {...ctx.env, CODEX_HOME: join(home, 'cx')}},
    );
    expect(r.files.map((f) => f.file.slice(home.length)).sort()).toEqual([
      '/cx/config.toml',
      '/cx/rules/nudge.rules',
      '/cx/skills/nudge/SKILL.md',
    ]);
  });
});

/** Every string of a parsed settings document, anywhere in it. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}

describe('install grants the least (docs/security.md)', () => {
  /** The allow rules of each agent's files, read back by parsing them. */
  const rulesOf = (home: string) => {
    const maybe = (path: string) => (existsSync(join(home, path)) ? read(home, path) : undefined);
    const claude = maybe('.claude/settings.json');
    const gemini = maybe('.gemini/settings.json');
    const qwen = maybe('.qwen/settings.json');
    const opencode = maybe('.config/opencode/opencode.json');
    return {
      claude: strings(claude ? (parseJsonc(claude) as Doc).permissions?.allow : []),
      gemini: strings(gemini ? (parseJsonc(gemini) as Doc).tools?.allowed : []),
      qwen: strings(qwen ? (parseJsonc(qwen) as Doc).permissions?.allow : []),
      opencode: Object.keys(opencode ? ((parseJsonc(opencode) as Doc).permission?.bash ?? {}) : {}),
      codex: maybe('.codex/rules/nudge.rules'),
      claudeCommand: maybe('.claude/commands/nudge.md'),
    };
  };
  const AGENTS = installTargets();

  test('by default no file holds a rule that lets the model run a command unasked', async () => {
    const {home, ctx} = setup({});
    for (const agent of AGENTS) {
      const r = await installAgent({agent}, ctx);
      expect(r.notes.join(' ')).toMatch(
        agent === 'pi'
          ? /Pi asks no approvals/
          : agent === 'copilot'
            ? /Copilot approves shell commands by their name/
            : /No allow rule was added/,
      );
    }
    const rules = rulesOf(home);
    expect(rules).toMatchObject({claude: [], gemini: [], qwen: [], opencode: [], codex: undefined});
    expect(rules.claudeCommand).toContain(`allowed-tools: Bash(${NUDGE} submit:*)\n`);
  });

  test('--allow: submit, status, jobs and wait, and no other command, in each format', async () => {
    const {home, ctx} = setup({});
    for (const agent of AGENTS) await installAgent({agent, allow: true}, ctx);
    const rules = rulesOf(home);
    const CALLS = ['submit', 'status', 'jobs', 'wait'];
    expect(rules.claude).toEqual(
      CALLS.flatMap((c) => [`Bash(nudge ${c}:*)`, `Bash(${NUDGE} ${c}:*)`]),
    );
    // Each as install writes nudge, and as a model types it with nudge on the PATH (issue 63).
    expect(rules.gemini).toEqual(
      CALLS.flatMap((c) => [`run_shell_command(${NUDGE} ${c})`, `run_shell_command(nudge ${c})`]),
    );
    expect(rules.qwen).toEqual(
      CALLS.flatMap((c) => [`Bash(${NUDGE} ${c} *)`, `Bash(nudge ${c} *)`]),
    );
    expect(rules.opencode).toEqual(CALLS.flatMap((c) => [`${NUDGE} ${c} *`, `nudge ${c} *`]));
    // Codex: never the whole CLI outside its sandbox; the subcommand is part of the prefix.
    expect(rules.codex).toBe(
      `prefix_rule(pattern = ["${SELF.node}","${SELF.cli}",["submit","status","jobs","wait"]], decision = "allow")\n`,
    );
    for (const rule of [...rules.claude, ...rules.gemini, ...rules.qwen, ...rules.opencode])
      expect(rule).toMatch(/ (submit|status|jobs|wait)(:\*\)| \*\)?|\))$/);
  });

  test('installed again without --allow, the rules an earlier install added are taken out; uninstall still restores byte for byte', async () => {
    const original = '{"permissions": {"allow": ["Bash(ls:*)"]}}\n';
    const {home, ctx} = setup({
      '.claude/settings.json': original,
      '.codex/config.toml': 'model = "o3"\n',
    });
    const before = snapshot(home);
    await installAgent({agent: 'claude', allow: true}, ctx);
    await installAgent({agent: 'codex', allow: true}, ctx);
    const again = await installAgent({agent: 'claude'}, ctx);
    expect(again.pieces.filter((p) => p.action === 'remove').map((p) => p.id)).toHaveLength(8);
    await installAgent({agent: 'codex'}, ctx);
    expect(rulesOf(home)).toMatchObject({claude: ['Bash(ls:*)'], codex: undefined});
    await installAgent({agent: 'claude', uninstall: true}, ctx);
    await installAgent({agent: 'codex', uninstall: true}, ctx);
    expect(snapshot(home)).toEqual(before);
  });
});
