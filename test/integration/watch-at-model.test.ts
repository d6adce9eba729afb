/**
 * The watcher end to end, proven at the model: a real agent CLI with `nudge mcp` registered as
 * a user registers it, talking to the scripted model server. The model calls `watch_me`, then
 * `look_ma` with a `bash_wait`; the watcher's cycle runs the wait, lets the agent's pane go
 * idle, and asks its assessor — the same scripted server's `/v1/chat/completions` — which
 * answers `continue` with a line. The line must reach the model as the agent's next prompt,
 * once; and the assessor must have been asked with the plan, the transcript, the wait's
 * output and the pane.
 */
import {describe, expect, test} from 'vitest';
import {describePrompts, startModelServer} from '../helpers/model-server.js';
import {agentAvailable, type CoreAgentName, startAgent} from '../helpers/real-agents.js';
import {CLI, nudgeBinDir, runNudge} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';
import {ONE_CYCLE_ROLES} from '../helpers/watch-cycle.js';

const NEXT = 'Now add a test for the empty input case.';
const PLAN = 'Make the parser handle every input; done when npm test passes.';

/** How each CLI names the tools of the MCP server `nudge`. */
const TOOL_NAME: Record<Exclude<CoreAgentName, 'codex'>, (tool: string) => string> = {
  claude: (t) => `mcp__nudge__${t}`,
  gemini: (t) => `mcp_nudge_${t}`,
};

// Codex 0.169 is left out: with `nudge mcp` registered (`[mcp_servers.nudge]`), its turn
// requests list no MCP tool — neither with its app-server daemon off (as the test homes run it:
// the daemon outlives the test) nor on — so its model cannot call one here.
const agents = (['claude', 'gemini'] as const).filter((n) => agentAvailable(n));

describe.each(agents)('%s with nudge mcp registered', (name) => {
  test('watch_me, then look_ma with a bash_wait: the assessor is asked, and its line reaches the model as the next prompt', async () => {
    const model = await startModelServer();
    const server = await startTmuxServer();
    const home = useTempDir('nudge-home-');
    const bin = nudgeBinDir(server.dir);
    const tool = TOOL_NAME[name];
    model.script(
      {tool: tool('watch_me'), input: {name: 'parser', plan: PLAN}},
      {
        tool: tool('look_ma'),
        input: {name: 'parser', status_report: 'Fixed the parser.', bash_wait: 'echo tests-ran-42'},
      },
      {text: 'Reported; waiting for the watcher.'},
      {text: 'Adding that test.'},
    );
    model.scriptChat({json: {action: 'continue', injection_prompt: NEXT}});
    const agent = await startAgent(server, name, {
      modelUrl: model.url,
      // Claude Code in its default approvals (the MCP tools allowed as `mcp__nudge`), Gemini
      // CLI with the server trusted.
      approvals: name === 'claude' ? 'default' : 'all',
      path: [bin],
      env: {NUDGE_HOME: home},
      mcpServer: {
        command: process.execPath,
        args: [
          CLI,
          'mcp',
          '--assess-url',
          `${model.url}/v1`,
          '--assess-model',
          'scripted-assessor',
          // look_ma's bash_wait runs a command: taken only with --allow-exec (docs/security.md).
          '--allow-exec',
        ],
        env: {NUDGE_HOME: home},
      },
    });
    await server.tmux('send-keys', '-t', agent.pane, '-l', 'watch yourself on the parser plan');
    await new Promise((r) => setTimeout(r, 400));
    await server.tmux('send-keys', '-t', agent.pane, 'Enter');
    // On a loaded machine Gemini CLI once took the Enter for a line of the same paste and kept
    // the prompt in its composer (CI, 2026-12-02): a person presses Enter again.
    const sent = await model
      .waitForPrompt(/watch yourself on the parser plan/, {timeoutMs: 20_000})
      .catch(() => undefined);
    if (!sent) await server.tmux('send-keys', '-t', agent.pane, 'Enter');

    // The assessor's request: the plan, the transcript (newest first), the wait's output.
    const asked = await waitFor(
      'the assessor request at the model server',
      async () => model.journal().find((e) => e.format === 'chat'),
      {
        timeoutMs: 120_000,
        describe: async () =>
          `${await agent.capture()}\n--- watcher:\n${(await runNudge(['watch', 'show', 'parser'], {NUDGE_HOME: home})).stdout}`,
      },
    );
    const body = asked.body as {
      messages: Array<{role: string; content: string}>;
      response_format: {type: string};
    };
    const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(body.response_format.type).toBe('json_schema');
    expect(user).toContain(PLAN);
    expect(user).toMatch(/\[-\d\d:\d\d:\d\d status\] Fixed the parser\./);
    expect(user).toMatch(/Wait output:\ntests-ran-42/);

    // The line reached the model as a prompt, exactly once.
    const next = await model.waitForPrompt(new RegExp(`^${NEXT.replace(/\./g, '\\.')}$`), {
      timeoutMs: 60_000,
    });
    expect(next.at).toBeGreaterThan(asked.at);
    await waitFor(
      'the watcher to record the injection',
      async () => {
        const show = await runNudge(['watch', 'show', 'parser', '--json'], {NUDGE_HOME: home});
        const w = JSON.parse(show.stdout || '{}') as {
          state?: string;
          transcript?: Array<{role: string; text: string}>;
        };
        return w.state === 'standby' ? w : undefined;
      },
      {timeoutMs: 30_000},
    );
    const show = JSON.parse(
      (await runNudge(['watch', 'show', 'parser', '--json'], {NUDGE_HOME: home})).stdout,
    ) as {pane: string; transcript: Array<{role: string; text: string}>};
    expect(show.pane).toBe(agent.pane);
    expect(show.transcript.map((e) => e.role)).toEqual(ONE_CYCLE_ROLES);
    expect(show.transcript.at(-1)?.text).toMatch(/^Now add a test .* \((submitted|queued)/);
    expect(
      model.prompts().filter((p) => p.text === NEXT),
      describePrompts(model.prompts()),
    ).toHaveLength(1);
  }, 240_000);
});
