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
    // A second file that does not check: refused, recorded in the job, the rest applies.
    writeFileSync(join(dir, 'zz-broken.toml'), "name = 'claude'\nminEnterDelayMs = -1\n");
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
  const status = await runNudge(['status', id], {NUDGE_HOME: home});
  return {
    end,
    events: await readJobEvents(home, id),
    screen: await server.capture(pane),
    status: status.stdout,
    explain: `nudge explain -S ${server.socket} ${pane}`,
  };
}

describe('a profile mended by a user file', () => {
  it('the built-in marker no longer matches: the input line emptied, but no echo confirms the prompt', async () => {
    const {end, events, screen, status, explain} = await deliverTo(false);
    const seen = `${JSON.stringify(events)}\n${screen}`;
    expect(end.delivery, seen).toBe('unconfirmed');
    // `status` points to what to paste into a bug report.
    expect(status).toContain(`explain ${explain}`);
    expect(screen.split('\n').filter((l) => l === `▶ ${TEXT}`)).toHaveLength(1);
  }, 90_000);

  it('the field mended in ~/.config/nudge/agents/claude.toml: the same delivery is confirmed, once', async () => {
    const {end, events, screen, status} = await deliverTo(true);
    expect(status).not.toContain('nudge explain');
    expect(events.filter((e) => e.event === 'profile-file-refused').map((e) => e.why)).toEqual([
      expect.stringMatching(
        /zz-broken\.toml: minEnterDelayMs is not valid: expected a number at least 0\.$/,
      ),
    ]);
    expect(end.state, `${JSON.stringify(events)}\n${screen}`).toBe('done');
    expect(end.delivery).toBe('submitted');
    expect(events.some((e) => e.event === 'enter-retry')).toBe(false);
    expect(screen.split('\n').filter((l) => l === `▶ ${TEXT}`)).toHaveLength(1);
  }, 90_000);
});

describe('nudge explain', () => {
  it('names the rule that no longer matches, and the same rule matched once a user file mends it', async () => {
    const server = await startTmuxServer();
    const home = useNudgeHome();
    const pane = await server.newPane([process.execPath, join(FIXTURES, 'drifted-agent.mjs')]);
    await server.waitForScreen(pane, /Drifted Code v9/);
    await server.tmux('send-keys', '-t', pane, '-l', TEXT);
    await server.tmux('send-keys', '-t', pane, 'Enter');
    await server.waitForScreen(pane, /● Done/);
    const explain = async (config: string) => {
      const r = await runNudge(
        ['explain', '-S', server.socket, pane, '--profile', 'claude', '--json'],
        {NUDGE_HOME: home, XDG_CONFIG_HOME: config},
      );
      expect(r.exitCode, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as {
        profile: string;
        source: string;
        rules: Array<{rule: string; matched: boolean; text?: string}>;
        verdict: {idle: boolean; why: string};
      };
    };
    const before = await explain(useTempDir('nudge-config-'));
    expect(before.profile).toBe('claude');
    expect(before.source).toBe('built-in');
    expect(before.rules.find((r) => r.rule === 'sent prompt')).toEqual({
      rule: 'sent prompt',
      field: 'promptEcho',
      matched: false,
    });
    expect(before.rules.find((r) => r.rule === 'composer')?.matched).toBe(true);
    expect(before.verdict).toEqual({idle: true, why: 'idle: at its prompt'});

    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
    const file = join(config, 'nudge', 'agents', 'claude.toml');
    writeFileSync(file, "name = 'claude'\npromptEcho = '^▶ (.*)$'\n");
    const after = await explain(config);
    expect(after.source).toBe(`built-in, mended by ${file}`);
    expect(after.rules.find((r) => r.rule === 'sent prompt')).toMatchObject({
      matched: true,
      text: `▶ ${TEXT}`,
    });
  }, 90_000);

  it('a shell pane: the shell profile and why, and the verdict wait would give; a bad pane is exit 2', async () => {
    const server = await startTmuxServer();
    const home = useNudgeHome();
    const r = await runNudge(['explain', '-S', server.socket, '%0'], {NUDGE_HOME: home});
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^profile {2}shell: the pane runs the shell \w+$/m);
    expect(r.stdout).toMatch(/^verdict {2}idle/m);
    const bad = await runNudge(['explain', '-S', server.socket, '%99'], {NUDGE_HOME: home});
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
