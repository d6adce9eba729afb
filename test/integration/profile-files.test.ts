// The data path, through the real worker: an agent whose update changed one screen marker
// (test/fixtures/drifted-agent.mjs: Claude Code's composer, but a sent prompt echoed as
// `▶ text`) is delivered but not confirmed by the built-in profile (`unconfirmed`: the input
// line emptied, no echo seen); a user's profile file that mends that one field makes the same
// delivery confirmed (`submitted`) — no release in between.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {useNudgeHome, waitForJobEnd} from '../helpers/nudge-home.js';
import {FIXTURES, readJobEvents, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

const TEXT = 'summarise the build log';

async function deliverTo(withFile: boolean) {
  const server = await startTmuxServer();
  const home = useNudgeHome();
  const config = useTempDir('nudge-config-');
  if (withFile) {
    const dir = join(config, 'nudge', 'agents');
    mkdirSync(dir, {recursive: true});
    writeFileSync(join(dir, 'claude.toml'), "name = 'claude'\npromptEcho = '^▶ (.*)$'\n");
  }
  const pane = await server.newPane([process.execPath, join(FIXTURES, 'drifted-agent.mjs')]);
  await server.waitForScreen(pane, /Drifted Code v9/);
  const r = await runNudge(
    submitArgs(server.socket, pane, ['--profile', 'claude', '--no-notice', '--', TEXT]),
    {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
  );
  expect(r.exitCode, r.stderr).toBe(0);
  const id = r.stdout.trim().split(/\s+/)[0] ?? '';
  const end = await waitForJobEnd(home, id, 60_000);
  return {end, events: await readJobEvents(home, id), screen: await server.capture(pane)};
}

describe('a profile mended by a user file', () => {
  it('the built-in marker no longer matches: the input line emptied, but no echo confirms the prompt', async () => {
    const {end, events, screen} = await deliverTo(false);
    const seen = `${JSON.stringify(events)}\n${screen}`;
    expect(end.delivery, seen).toBe('unconfirmed');
    expect(screen.split('\n').filter((l) => l === `▶ ${TEXT}`)).toHaveLength(1);
  }, 90_000);

  it('the field mended in ~/.config/nudge/agents/claude.toml: the same delivery is confirmed, once', async () => {
    const {end, events, screen} = await deliverTo(true);
    expect(end.state, `${JSON.stringify(events)}\n${screen}`).toBe('done');
    expect(end.delivery).toBe('submitted');
    expect(events.some((e) => e.event === 'enter-retry')).toBe(false);
    expect(screen.split('\n').filter((l) => l === `▶ ${TEXT}`)).toHaveLength(1);
  }, 90_000);
});
