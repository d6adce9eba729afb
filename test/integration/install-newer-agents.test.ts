/**
 * `nudge install` proven with the real CLIs nudge reads through a profile file alone — Qwen
 * Code, opencode, GitHub Copilot CLI, Pi — in a throwaway HOME with nothing allowed (Copilot:
 * nudge allowed on its command line, as the install's note says), talking to the scripted
 * model server: after `nudge install AGENT` the CLI lists nudge's MCP server (where it takes
 * one) and has the command; running it queues a job whose notice reaches the model once; the
 * turn-end hook records its mark; `--uninstall` leaves the files as they were.
 */
import {describe, expect, test} from 'vitest';
import {
  agentCli,
  expectHookMark,
  expectNoticeAtModel,
  FILES,
  NUDGE,
  setup,
  slashNudge,
  slashNudgeToShell,
  snapshot,
  theJob,
  type,
  uninstall,
} from '../helpers/install-world.js';
import {agentAvailable} from '../helpers/real-agents.js';
import {nudgeBinDir} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';

describe.skipIf(!agentAvailable('qwen'))('nudge install qwen, with the real Qwen Code', () => {
  test('/nudge and the MCP server are listed; /nudge queues a job whose text and notice reach the model; the Stop hook marks the turn; --uninstall', async () => {
    const w = await setup('qwen');
    const listed = await agentCli('qwen', w.agent, w.model, ['mcp', 'list']);
    expect(listed).toMatch(/nudge: .*mcp.*Connected/);

    await slashNudge(w, {
      menu: /nudge \[Custom\]\s+Queue text for a tmux pane with nudge/,
      text: 'hello from qwen',
      hook: 'qwen-stop',
    });

    await uninstall(w, 'qwen');
    const after = snapshot(w.agent.home, FILES.qwen);
    expect(after['.qwen/commands/nudge.md']).toBeUndefined();
    // Qwen Code rewrites settings.json as it starts (formatted, its `$version` added): nudge's
    // entries are gone, the rest is as it was.
    const {$version, ...settings} = JSON.parse(after['.qwen/settings.json'] ?? '{}');
    expect($version).toBeDefined();
    expect(settings).toEqual(JSON.parse(w.before['.qwen/settings.json'] ?? '{}'));
    expect(await agentCli('qwen', w.agent, w.model, ['mcp', 'list'])).not.toContain('nudge');
  }, 300_000);
});

describe.skipIf(!agentAvailable('opencode'))(
  'nudge install opencode, with the real opencode',
  () => {
    test('/nudge and the MCP server are listed; /nudge queues a job in another pane whose notice reaches the model; the plugin marks the turn; --uninstall', async () => {
      const w = await setup('opencode');
      const listed = await agentCli('opencode', w.agent, w.model, ['mcp', 'list']);
      expect(listed).toMatch(/nudge.*connected/i);

      // The command is taken from the list with Enter (a space there empties the input), then
      // its arguments are typed.
      await slashNudgeToShell(w, {
        menu: /nudge\s+Queue text for a tmux pane with nudge/,
        pick: /^(?![\s\S]*Queue text for a tmux pane)[\s\S]*┃ {2}\/nudge *\n/,
        word: 'opencode-installed',
        hook: 'opencode-idle',
      });

      await uninstall(w, 'opencode');
      expect(snapshot(w.agent.home, FILES.opencode)).toEqual(w.before);
    }, 300_000);
  },
);

describe.skipIf(!agentAvailable('copilot'))(
  'nudge install copilot, with the real Copilot CLI',
  () => {
    test('the skill and the MCP server are listed; the model asks to run nudge submit and the person approves it; its notice reaches the model; the agentStop hook marks the turn; --uninstall', async () => {
      // nudge on the PATH, as `npm install -g` puts it; nothing allowed: Copilot approves shell
      // commands by name (by subcommand only for git and gh), so nudge writes no rule for it
      // and the person approves each nudge command its model runs.
      const w = await setup('copilot', [nudgeBinDir(useTempDir('nudge-bin-'))], 'none');
      expect(w.installOut).toContain('Copilot approves shell commands by their name');
      const listed = await agentCli('copilot', w.agent, w.model, ['mcp', 'list']);
      expect(listed).toMatch(/nudge/);
      const skills = await agentCli('copilot', w.agent, w.model, ['skill', 'list']);
      expect(skills).toMatch(/nudge/);

      w.model.script(
        {
          shell: `nudge submit --json --pane ${w.shell} --notify-pane self --until exit -- 'echo copilot-installed'`,
        },
        {text: 'Queued.'},
      );
      const started = Date.now();
      await type(w, 'run echo copilot-installed in the shell pane');
      // The person's approval prompt shows the nudge command; they answer Yes.
      await w.server.waitForScreen(
        w.agent.pane,
        /nudge submit --json[\s\S]*Do you want to run this command\?/,
        90_000,
      );
      await w.server.tmux('send-keys', '-t', w.agent.pane, 'Enter');
      const id = await theJob(w);
      await expectNoticeAtModel(w, id, started);
      await w.server.waitForScreen(w.shell, /^copilot-installed$/m, 10_000);
      await expectHookMark(w, 'copilot-agent-stop');

      await uninstall(w, 'copilot');
      expect(snapshot(w.agent.home, FILES.copilot)).toEqual(w.before);
    }, 300_000);
  },
);

describe.skipIf(!agentAvailable('pi'))('nudge install pi, with the real Pi', () => {
  test('/nudge expands to the template the model receives; the model queues the job; its notice reaches the model; the extension marks the turn; --uninstall', async () => {
    const w = await setup('pi');
    const args = `--pane ${w.shell} --notify-pane self --until exit -- 'echo pi-installed'`;
    w.model.script({shell: `${NUDGE} submit --json ${args}`}, {text: 'Queued.'});
    const started = Date.now();
    await type(w, `/nudge ${args}`);
    const template = await w.model.waitForPrompt(/^Run this once with your bash tool/, {
      timeoutMs: 90_000,
    });
    // Pi splits the arguments as a shell would and joins them with spaces (the quotes go; the
    // words after `--` are joined by nudge submit the same way).
    expect(template.text).toContain(`${NUDGE} submit --json ${args.replace(/'/g, '')}`);
    const id = await theJob(w);
    await expectNoticeAtModel(w, id, started);
    await w.server.waitForScreen(w.shell, /^pi-installed$/m, 10_000);
    await expectHookMark(w, 'pi-agent-end');

    await uninstall(w, 'pi');
    expect(snapshot(w.agent.home, FILES.pi)).toEqual(w.before);
  }, 300_000);
});
