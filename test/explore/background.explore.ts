import {setTimeout as sleep} from 'node:timers/promises';
import {test} from 'vitest';
import {startModelServer} from '../helpers/model-server.js';
import {type AgentName, startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {agentsToExplore, snap} from './lib.js';

// A command an agent leaves running after its turn, and what its screen shows meanwhile:
// Codex's `exec_command` past its yield (a "background terminal"), Gemini CLI's and Qwen
// Code's `run_shell_command` with `is_background: true`. Saved as
// test/fixtures/screens/<agent>-<state>.txt once the turn ended with it running (the rows
// src/agents/idle-screen.ts reads through each profile's `working`); whether a turn follows
// when it ends is printed. (Claude Code's: claude-bg-shell.explore.ts.)
// NUDGE_EXPLORE_AGENTS=codex,gemini,qwen; SNAP_SUFFIX=-0.171.0 for a newer release's screens.
const CASES: Partial<
  Record<AgentName, {state: string; call: (cmd: string) => object; shows: RegExp}>
> = {
  codex: {
    state: 'background-terminal',
    call: (cmd) => ({tool: 'exec_command', input: {cmd, yield_time_ms: 1000}}),
    shows: /background terminal running · \/ps/,
  },
  gemini: {
    state: 'background-process',
    call: (command) => ({
      tool: 'run_shell_command',
      input: {command, description: 'bg', is_background: true},
    }),
    shows: /\d+ Background process/,
  },
  qwen: {
    state: 'background-shell',
    call: (command) => ({
      tool: 'run_shell_command',
      input: {command, description: 'bg', is_background: true},
    }),
    shows: /· \d+ shell/,
  },
};

test.each(agentsToExplore().filter((a) => CASES[a]))(
  '%s: a command left running after the turn',
  async (name) => {
    const c = CASES[name]!;
    const model = await startModelServer();
    const server = await startTmuxServer();
    const agent = await startAgent(server, name, {modelUrl: model.url, approvals: 'all'});
    model.script(
      c.call('sleep 15; echo BGDONE') as never,
      {text: 'It runs in the background.'},
      {text: 'More.'},
    );
    await server.tmux('send-keys', '-t', agent.pane, '-l', 'go');
    await sleep(400);
    await server.tmux('send-keys', '-t', agent.pane, 'Enter');
    const t0 = Date.now();
    let last = '';
    let snapped = false;
    for (let i = 0; i < 160; i++) {
      const s = (await agent.capture())
        .split('\n')
        .filter((l) => l.trim())
        .slice(-10)
        .join('\n');
      if (!snapped && c.shows.test(s) && !/esc to (interrupt|cancel)/.test(s)) {
        snapped = true;
        await snap(
          agent,
          `${c.state}${process.env.SNAP_SUFFIX ?? ''}`,
          'a command left running; the turn ended',
        );
      }
      if (s !== last) console.log(`--- +${Date.now() - t0}\n${s}`);
      last = s;
      await sleep(150);
    }
    console.log('turns at the model:', model.journal().filter((e) => !e.side).length);
  },
  120_000,
);
