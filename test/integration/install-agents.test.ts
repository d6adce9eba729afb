/**
 * `nudge install` proven with the real CLIs (Claude Code, Gemini CLI, Codex) in a throwaway
 * HOME with nothing allowed, talking to the scripted model server: after `nudge install AGENT`
 * the CLI lists nudge's MCP server and shows the command or skill; running it queues a job
 * whose notice reaches the model (asserted at the model, each prompt once); the turn-end hook
 * records its mark; `--uninstall` takes it all out again.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {parse as parseToml} from '@decimalturn/toml-patch';
import {describe, expect, test} from 'vitest';
import {
  agentCli,
  expectHookMark,
  expectNoticeAtModel,
  FILES,
  NOTICE,
  NUDGE,
  setup,
  slashNudge,
  slashNudgeToShell,
  snapshot,
  theJob,
  type,
  uninstall,
} from '../helpers/install-world.js';
import {expectJobEnd, waitForJobState} from '../helpers/job-files.js';
import {
  agentAvailable,
  agentVersion,
  claudeHasAutoMode,
  killProcessesOfHome,
} from '../helpers/real-agents.js';
import {CLI, nudgeBinDir} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {waitFor} from '../helpers/wait-for.js';

describe.skipIf(!agentAvailable('claude'))(
  'nudge install claude, with the real Claude Code',
  () => {
    test('/nudge and the MCP server are listed; /nudge queues a job whose notice reaches the model; the Stop hook marks the turn; --uninstall', async () => {
      const w = await setup('claude');
      expect(w.installOut).toContain('+ the /nudge slash command: add');
      const listed = await agentCli('claude', w.agent, w.model, ['mcp', 'list']);
      expect(listed).toMatch(
        new RegExp(`nudge: ${NUDGE.replace(/[/.]/g, '\\$&')} mcp - [✓✔] Connected`),
      );

      await slashNudgeToShell(w, {
        menu: /\/nudge\s+Queue text for a tmux pane with nudge/,
        word: 'claude-installed',
        hook: 'claude-stop',
      });

      // Quit Claude Code first, as the README says: it rewrites ~/.claude.json as it runs, and
      // 2.1.331 wrote nudge's server back after an uninstall done under it.
      await killProcessesOfHome(w.agent.home);
      await uninstall(w, 'claude');
      const after = snapshot(w.agent.home, FILES.claude);
      expect(after['.claude/commands/nudge.md']).toBeUndefined();
      expect(after['.claude/settings.json']).toBe(w.before['.claude/settings.json']);
      // ~/.claude.json is Claude Code's own, rewritten as it runs: nudge's entry is gone from it
      expect(JSON.parse(after['.claude.json']!).mcpServers ?? {}).toEqual(
        JSON.parse(w.before['.claude.json']!).mcpServers ?? {},
      );
      expect(await agentCli('claude', w.agent, w.model, ['mcp', 'list'])).not.toContain('nudge');
    });

    test(`the model calls nudge submit itself, allowed only by what install added, in Claude Code's default mode (${claudeHasAutoMode(agentVersion('claude')) ? 'auto mode' : 'it asks'}): as \`nudge submit\` on the PATH and as the absolute command`, async () => {
      const w = await setup('claude', [nudgeBinDir(useTempDir('nudge-bin-'))]);
      for (const [nudge, word] of [
        ['nudge', 'via-path'],
        [NUDGE, 'via-absolute'],
      ] as const) {
        for (const f of existsSync(join(w.state, 'jobs')) ? readdirSync(join(w.state, 'jobs')) : [])
          await waitForJobState(w.state, f, ['done'], 60_000);
        w.model.script(
          {
            shell: `${nudge} submit --pane ${w.shell} --notify-pane self --until exit -- 'echo ${word}'`,
          },
          {text: 'Queued; I will wait for the notice.'},
        );
        const started = Date.now();
        await type(w, `run echo ${word} in the other pane`);
        const id = await waitFor(
          `the job the model queued with ${nudge} submit`,
          async () =>
            (existsSync(join(w.state, 'jobs')) ? readdirSync(join(w.state, 'jobs')) : []).find(
              // A job's folder is made before its request is written in it.
              (j) => {
                const file = join(w.state, 'jobs', j, 'request.json');
                return existsSync(file) && readFileSync(file, 'utf8').includes(word);
              },
            ),
          {timeoutMs: 90_000, describe: () => w.agent.capture()},
        );
        await expectJobEnd(w.state, id, 'done', 150_000);
        await w.server.waitForScreen(w.shell, new RegExp(`^${word}$`, 'm'), 10_000);
        await w.model.waitForPrompt(/^\[SYSTEM COMMAND\] Command complete\. Resume\.$/, {
          timeoutMs: 90_000,
          since: started,
        });
        await w.agent.waitForIdle(90_000);
      }
      expect(w.model.prompts().filter((p) => p.text === NOTICE)).toHaveLength(2);
    });
  },
);

describe.skipIf(!agentAvailable('gemini'))('nudge install gemini, with the real Gemini CLI', () => {
  test('/nudge and the MCP server are listed; /nudge queues a job whose text and notice reach the model; the AfterAgent hook marks the turn; --uninstall', async () => {
    const w = await setup('gemini');
    const listed = await agentCli('gemini', w.agent, w.model, ['mcp', 'list']);
    expect(listed).toMatch(/nudge: .*mcp \(stdio\) - Connected/);

    await slashNudge(w, {
      menu: /nudge\s+Queue text for this pane with nudge/,
      text: 'hello from gemini',
      hook: 'gemini-after-agent',
    });

    await uninstall(w, 'gemini');
    expect(snapshot(w.agent.home, FILES.gemini)).toEqual(w.before);
    expect(await agentCli('gemini', w.agent, w.model, ['mcp', 'list'])).not.toContain('nudge');
  }, 300_000);
});

describe.skipIf(!agentAvailable('codex'))('nudge install codex, with the real Codex', () => {
  test('the $nudge skill and the MCP server are listed; the skill reaches the model, which queues a job outside the sandbox; its notice reaches the model; notify marks the turn; --uninstall', async () => {
    const w = await setup('codex');
    const listed = await agentCli('codex', w.agent, w.model, ['mcp', 'list']);
    expect(listed).toMatch(/nudge\s+\S*node\s+\S*cli\.js mcp/);

    await type(w, '$nudg', false);
    await w.server.waitForScreen(w.agent.pane, /nudge\s+.*Hand a long job to a tmux pane/, 30_000);
    await w.server.tmux('send-keys', '-t', w.agent.pane, 'C-u');
    w.model.script(
      {
        shell: `${NUDGE} submit --json --pane ${w.shell} --notify-pane self --until exit -- 'echo codex-installed'`,
      },
      {text: 'Queued.'},
    );
    const started = Date.now();
    await type(w, '$nudge run echo codex-installed in the shell pane');
    // Codex sends the skill after the typed text, as a user message of its own
    const skill = readFileSync(join(w.agent.home, '.codex/skills/nudge/SKILL.md'), 'utf8');
    const first = await w.model.waitForTurns(1, 90_000);
    const messages = JSON.stringify((first.body as {input: unknown[]}).input);
    expect(messages).toContain(JSON.stringify(`<skill>\n<name>nudge</name>`).slice(1, -1));
    expect(messages).toContain(JSON.stringify(skill.trim()).slice(1, -1));
    const id = await theJob(w);
    await expectNoticeAtModel(w, id, started);
    await w.server.waitForScreen(w.shell, /^codex-installed$/m, 10_000);
    await expectHookMark(w, 'codex-notify');

    await uninstall(w, 'codex');
    const after = snapshot(w.agent.home, FILES.codex);
    expect(after['.codex/skills/nudge/SKILL.md']).toBeUndefined();
    expect(after['.codex/rules/nudge.rules']).toBeUndefined();
    // Codex adds its own tables to config.toml as it runs: nudge's are gone, the rest is kept
    const config = parseToml(after['.codex/config.toml']!) as Record<string, unknown>;
    expect(config.notify).toBeUndefined();
    expect(config.mcp_servers).toBeUndefined();
    for (const [key, value] of Object.entries(parseToml(w.before['.codex/config.toml']!) as object))
      expect(config[key], key).toEqual(value);
    expect(after['.codex/config.toml']).not.toContain(CLI);
    expect(await agentCli('codex', w.agent, w.model, ['mcp', 'list'])).not.toMatch(/\bnudge\b/);
  }, 300_000);
});
