// The data path, through the real worker: an agent whose update changed one screen marker
// (test/fixtures/drifted-agent.mjs: Claude Code's composer, but a sent prompt echoed as
// `▶ text`) is delivered but not confirmed by the built-in profile (`unconfirmed`: the input
// line emptied, no echo seen); a user's profile file that mends that one field makes the same
// delivery confirmed (`submitted`) — no release in between.
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {FIXTURES, runNudge, submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';

const TEXT = 'summarise the build log';

async function deliverTo(withFile: boolean) {
  const {server, home} = await serverWorld();
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
    submitArgs(server.socket, pane, {profile: 'claude', notice: false}, TEXT),
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

/** A profile file for the drifted agent as a program of its own (no built-in knows it). */
const DRIFTED_PROFILE = [
  "name = 'drifted'",
  "kind = 'agent'",
  "clearKeys = [['C-u']]",
  'minEnterDelayMs = 100',
  "composerLine = '^(❯) ?(.*)$'",
  "ruleLine = '^─{20,}$'",
  "promptEcho = '^▶ (.*)$'",
  "busy = ['esc to interrupt']",
  "programs = ['(^|/)drifted-agent\\.mjs$']",
].join('\n');

describe('a program nudge never saw', () => {
  it("added by a project's .nudge/agents file, once trusted: recognised by its command line in the worker, the delivery confirmed once", async () => {
    const {server, home} = await serverWorld();
    const project = useTempDir('nudge-project-');
    mkdirSync(join(project, '.nudge', 'agents'), {recursive: true});
    writeFileSync(join(project, '.nudge', 'agents', 'drifted.toml'), DRIFTED_PROFILE);
    const pane = await server.newPane([process.execPath, join(FIXTURES, 'drifted-agent.mjs')]);
    await server.waitForScreen(pane, /Drifted Code v9/);
    // Submitted from the project's folder, with --profile auto: the worker (which runs in the
    // state folder) reads the files the command read.
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    // A project's file is read once the person trusts it (test/integration/project-trust.test.ts).
    const trust = await runNudge(['agents', 'trust'], env, 60_000, project);
    expect(trust.exitCode, trust.stderr).toBe(0);
    const r = await runNudge(
      submitArgs(server.socket, pane, {notice: false}, TEXT),
      env,
      60_000,
      project,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim().split(/\s+/)[0] ?? '';
    const end = await waitForJobEnd(home, id, 60_000);
    const screen = await server.capture(pane);
    const seen = `${JSON.stringify(await readJobEvents(home, id))}\n${screen}`;
    expect(end.profile, seen).toBe('drifted');
    expect(end.state, seen).toBe('done');
    expect(end.delivery, seen).toBe('submitted');
    expect(screen.split('\n').filter((l) => l === `▶ ${TEXT}`)).toHaveLength(1);
    // Listed, with the file it came from.
    const list = await runNudge(['agents', 'list', '--json'], env, 60_000, project);
    const listed = (JSON.parse(list.stdout) as {agents: Array<{name: string; source: string}>})
      .agents;
    expect(listed.find((a) => a.name === 'drifted')?.source).toBe(
      join(project, '.nudge', 'agents', 'drifted.toml'),
    );
  }, 90_000);

  it('with no profile (raw): typed exactly as given and Enter, never cleared, never sent Escape; the delivery is not claimed', async () => {
    const {server, home} = await serverWorld();
    const out = join(useTempDir('nudge-recorded-'), 'keys');
    const pane = await server.newPane([process.execPath, join(FIXTURES, 'recorder.mjs'), out]);
    await server.waitForScreen(pane, /RECORDER READY/);
    const r = await runNudge(submitArgs(server.socket, pane, {notice: false}, TEXT), {
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    const id = r.stdout.trim().split(/\s+/)[0] ?? '';
    const end = await waitForJobEnd(home, id, 60_000);
    expect(end.profile).toBe('raw');
    expect(end.profileReason).toBe('nothing known about node');
    expect(end.delivery).toBe('unconfirmed');
    // Byte for byte: the text and Enter, no C-u (0x15), no Escape (0x1b) before or after.
    expect(readFileSync(out).toString('hex')).toBe(Buffer.from(`${TEXT}\r`).toString('hex'));
    const status = await runNudge(['status', id], {NUDGE_HOME: home});
    expect(status.stdout).toContain('nudge explain');
  }, 60_000);
});

describe('nudge explain', () => {
  it('names the rule that no longer matches, and the same rule matched once a user file mends it', async () => {
    const {server, home} = await serverWorld();
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
    const {server, home} = await serverWorld();
    const r = await runNudge(['explain', '-S', server.socket, '%0'], {NUDGE_HOME: home});
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^profile {2}shell: the pane runs the shell \w+$/m);
    expect(r.stdout).toMatch(/^verdict {2}idle/m);
    const bad = await runNudge(['explain', '-S', server.socket, '%99'], {NUDGE_HOME: home});
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
