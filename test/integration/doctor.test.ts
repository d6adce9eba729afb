/**
 * `nudge doctor` through the built CLI against a private tmux server: each check's status and
 * the exit code (0 unless a check failed), in the situations a user meets.
 */
import {chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {readVerifiedTable} from '../../src/agents/verified.js';
import {installTargets} from '../../src/setup/agents.js';
import {CLI, runNudge} from '../helpers/run-nudge.js';
import {type InsidePane, runFromPane} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

async function doctor(args: string[], env: Record<string, string>, from?: InsidePane) {
  const r = await (from ?? {nudge: runNudge}).nudge(['doctor', '--json', ...args], env);
  const out = JSON.parse(r.stdout) as {checks: Check[]; ok: boolean};
  const by = Object.fromEntries(out.checks.map((c) => [c.name, c]));
  return {exitCode: r.exitCode, ok: out.ok, by, checks: out.checks};
}

/** A home whose PATH has these agents first, each a shell script of `body`. */
function withAgents(agents: Record<string, string>) {
  const home = useTempDir('nudge-doctor-');
  const bin = join(home, 'bin');
  mkdirSync(bin);
  for (const [name, body] of Object.entries(agents))
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`, {mode: 0o755});
  const env = {HOME: home, NUDGE_HOME: join(home, 'state'), PATH: `${bin}:${process.env.PATH}`};
  return {home, bin, env};
}

describe('nudge doctor', () => {
  test('inside a pane: tmux, the server from $TMUX, this pane, control mode, node, the state dir all ok; exit 0', async () => {
    const server = await startTmuxServer();
    const pid = (await server.tmux('display-message', '-p', '#{pid}')).trim();
    const pane = (await server.tmux('display-message', '-p', '#{pane_id}')).trim();
    await server.waitForScreen(pane, /^\$/m);
    const inside = await runFromPane(server, pane);
    const home = useTempDir('nudge-doctor-');
    mkdirSync(join(home, 'state'), {mode: 0o700});
    const r = await doctor(
      [],
      {HOME: home, NUDGE_HOME: join(home, 'state'), PATH: process.env.PATH ?? ''},
      inside,
    );
    expect(r.exitCode).toBe(0);
    const names = r.checks.map((c) => c.name);
    expect(names.slice(0, 9)).toEqual([
      'nudge',
      'tmux',
      'server',
      'pane',
      'control-mode',
      'node',
      'platform',
      'state-dir',
      'profiles',
    ]);
    // Then each agent on the PATH (or with nudge's files), in the installers' order, and the
    // others on one line; last: whether a server nudge worked with is gone, with things to
    // recover.
    const agents = names.slice(9, -1);
    const shown = installTargets().filter((a) => agents.includes(a));
    expect(agents.filter((n) => !n.endsWith(' version') && n !== 'agents')).toEqual(shown);
    if (shown.length < installTargets().length) expect(agents.at(-1)).toBe('agents');
    expect(names.at(-1)).toBe('recover');
    expect(r.by.recover).toMatchObject({status: 'ok'});
    // Which nudge answers, as a bug report names it (issue 65).
    expect(r.by.nudge?.detail).toMatch(/^nudge \d+\.\d+\.\d+\S* \(\/.+\/cli\.js\)\.$/);
    expect(r.by.platform?.detail).toMatch(
      process.platform === 'linux'
        ? /^Linux \(linux \w+\); processes are read from \/proc/
        : /processes are read with ps/,
    );
    expect(r.by.profiles?.detail).toBe('built-in (no file of yours mends one).');
    for (const name of ['server', 'pane', 'control-mode', 'node', 'state-dir', 'profiles'])
      expect(r.by[name]?.status, JSON.stringify(r.by[name])).toBe('ok');
    // tmux: ok when the shipped table verified this version, else a warning that says so.
    const version = /\d+\.\d+[a-z]?/.exec(await server.tmux('-V'))?.[0] ?? '';
    const table = readVerifiedTable(join(import.meta.dirname, '..', '..', 'data'));
    const verified = table.entries.some(
      (e) => e.program === 'tmux' && e.version === version && e.failed === 0,
    );
    expect(r.by.tmux, JSON.stringify(r.by.tmux)).toMatchObject(
      verified
        ? {
            status: 'ok',
            detail: expect.stringMatching(new RegExp(`^tmux ${version}, verified on `)),
          }
        : {status: 'warn', detail: expect.stringMatching(/was never verified by nudge's tests/)},
    );
    expect(r.by.server?.detail).toBe(
      `${server.socket} (from $TMUX: this shell runs inside it), server pid ${pid}.`,
    );
    expect(r.by.pane?.detail).toMatch(
      new RegExp(
        `^This shell is in pane ${pane} \\(the pane runs bash\\); calls from here are identified by the process tree: ${pane}, proven: nudge descends from the pane's first process \\(pid \\d+\\)\\.$`,
      ),
    );
    expect(r.by['state-dir']?.detail).toBe(
      `${join(home, 'state')}, private (700) and writable (a 64 KiB probe written, synced and removed).`,
    );
  });

  test('install writes the node on PATH (a link to this node), not its versioned path; once that link is gone, doctor fails naming the file and the fix', async () => {
    const home = useTempDir('nudge-doctor-');
    // As Homebrew's /opt/homebrew/bin/node links to Cellar/node/<version>/bin/node.
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const env = {
      HOME: home,
      NUDGE_HOME: join(home, 'state'),
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    };
    const installed = await runNudge(['install', 'claude'], env);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const settings = readFileSync(join(home, '.claude', 'settings.json'), 'utf8');
    expect(settings).toContain(`${join(bin, 'node')} ${CLI}`);
    expect(settings).not.toContain(process.execPath);
    const before = await doctor([], env);
    expect(before.by['written paths']).toMatchObject({status: 'ok'});
    // `brew upgrade node` (or a node moved): the path written is gone.
    rmSync(join(bin, 'node'));
    const after = await doctor([], env);
    expect(after.exitCode).toBe(1);
    const broken = after.checks.filter((c) => c.name === 'written paths');
    expect(broken).toContainEqual({
      name: 'written paths',
      status: 'fail',
      detail: `${join(home, '.claude', 'settings.json')} runs nudge with ${join(bin, 'node')}, which no longer exists (node upgraded or moved?).`,
      fix: "Run nudge install claude: it writes this node's and nudge's paths.",
    });
  });

  test('a stale $TMUX_PANE fails (exit 1); an open state dir warns with the chmod', async () => {
    const server = await startTmuxServer();
    const pid = (await server.tmux('display-message', '-p', '#{pid}')).trim();
    const home = useTempDir('nudge-doctor-');
    mkdirSync(join(home, 'state'));
    chmodSync(join(home, 'state'), 0o755);
    const r = await doctor([], {
      HOME: home,
      NUDGE_HOME: join(home, 'state'),
      TMUX: `${server.socket},${pid},0`,
      TMUX_PANE: '%99',
    });
    expect(r.exitCode).toBe(1);
    expect(r.ok).toBe(false);
    expect(r.by.pane).toMatchObject({
      status: 'fail',
      detail: '$TMUX_PANE is %99, but that pane is not on this server.',
    });
    expect(r.by['state-dir']).toMatchObject({
      status: 'warn',
      fix: `chmod 700 ${join(home, 'state')}`,
    });
  });

  test('outside tmux, a server named with -S that is not there: fail, saying which socket and why; exit 1', async () => {
    const home = useTempDir('nudge-doctor-');
    const r = await doctor(['-S', join(home, 'no-such-sock')], {
      HOME: home,
      NUDGE_HOME: join(home, 'state'),
    });
    expect(r.exitCode).toBe(1);
    expect(r.by.server?.status).toBe('fail');
    expect(r.by.server?.detail).toContain(
      `the tmux server at ${join(home, 'no-such-sock')} (from -S) cannot be reached`,
    );
    expect(r.by['control-mode']).toBeUndefined();
  });

  test('profile files: the profiles they mend, and a warning naming a refused file and its field', async () => {
    const home = useTempDir('nudge-doctor-');
    const agents = join(home, '.config', 'nudge', 'agents');
    mkdirSync(agents, {recursive: true});
    writeFileSync(join(agents, 'a.toml'), "name = 'codex'\nminEnterDelayMs = 300\n");
    writeFileSync(join(agents, 'b.toml'), "name = 'gemini'\nbusy = 'esc'\n");
    const r = await doctor(['-S', join(home, 'no-such-sock')], {
      HOME: home,
      NUDGE_HOME: join(home, 'state'),
    });
    // The server -S names is not there (a fail of its own); the profile lines are the point.
    expect(r.by.server?.status).toBe('fail');
    expect(r.by.profiles?.detail).toBe(
      `built-in, mended by your files: codex (${join(agents, 'a.toml')}).`,
    );
    expect(r.by['profile file']).toEqual({
      name: 'profile file',
      status: 'warn',
      detail: `${join(agents, 'b.toml')}: busy is not valid: expected array.`,
      fix: 'Mend the field (nudge agents check FILE), or remove the file.',
    });
  });

  test('no tmux on the PATH, a state dir that is a file: both fail, exit 1', async () => {
    const home = useTempDir('nudge-doctor-');
    writeFileSync(join(home, 'state'), '');
    const r = await doctor([], {HOME: home, NUDGE_HOME: join(home, 'state'), PATH: '/nonexistent'});
    expect(r.exitCode).toBe(1);
    expect(r.by.tmux).toMatchObject({status: 'fail', detail: 'tmux is not on the PATH.'});
    expect(r.by['state-dir']).toMatchObject({
      status: 'fail',
      detail: `${join(home, 'state')} is not a plain directory.`,
    });
  });

  test('an agent: ok once nudge install ran; warn when its entries belong to another nudge', async () => {
    const {home, bin, env} = withAgents({codex: ''});
    expect((await doctor([], env)).by.codex).toMatchObject({
      status: 'warn',
      detail: `codex is ${join(bin, 'codex')}; nudge is not installed for it.`,
      fix: 'nudge install codex',
    });
    expect((await runNudge(['install', 'codex'], env)).exitCode).toBe(0);
    expect((await doctor([], env)).by.codex).toMatchObject({
      status: 'ok',
      detail: `codex is ${join(bin, 'codex')}; nudge is installed for it (user scope: skill, hook, title, mcp; no allow rule: the agent asks you before each nudge command its model runs).`,
    });
    // The rules in force: --allow's, by what they allow.
    expect((await runNudge(['install', 'codex', '--allow'], env)).exitCode).toBe(0);
    expect((await doctor([], env)).by.codex?.detail).toBe(
      `codex is ${join(bin, 'codex')}; nudge is installed for it (user scope: skill, hook, title, mcp; allowed without asking: nudge submit, status, jobs, wait allowed outside the sandbox (a prefix rule: nudge must reach the tmux socket)).`,
    );
    // A broad rule an older nudge wrote (the whole CLI outside the sandbox) is named.
    writeFileSync(
      join(home, '.codex', 'rules', 'nudge.rules'),
      `prefix_rule(pattern = ${JSON.stringify([process.execPath, CLI])}, decision = "allow")\n`,
    );
    const broad = (await doctor([], env)).checks.find((c) => c.name === 'codex rule');
    expect(broad).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(
        /^a prefix rule allowing every nudge command outside the sandbox in .*nudge\.rules lets the model run every nudge command/,
      ),
      fix: 'Run nudge install codex again: it takes the rule out (add --allow for the narrow one).',
    });
    // another nudge (an older install elsewhere) registered its own paths
    writeFileSync(
      join(home, '.codex', 'config.toml'),
      '[mcp_servers.nudge]\ncommand = "/old/node"\nargs = ["/old/cli.js", "mcp"]\n',
    );
    const other = (await doctor([], env)).by.codex;
    expect(other?.status).toBe('warn');
    expect(other?.detail).toContain('mcp is set to something else than this nudge');
  });

  test("each agent's version against the verified-versions table: ok, warn (never verified), fail (below the minimum)", async () => {
    const table = readVerifiedTable(join(import.meta.dirname, '..', '..', 'data'));
    const verified = table.entries.find((e) => e.program === 'claude' && e.failed === 0);
    const home = useTempDir('nudge-doctor-');
    const bin = join(home, 'bin');
    mkdirSync(bin);
    const fake = (name: string, says: string) =>
      writeFileSync(join(bin, name), `#!/bin/sh\necho '${says}'\n`, {mode: 0o755});
    fake('claude', `${verified?.version ?? '0.0.0'} (Claude Code)`);
    fake('gemini', '0.1.0');
    // The "newer than" case needs an agent the last run verified; which one is the table's say.
    const newer = table.entries.find(
      (e) =>
        e.failed === 0 &&
        e.passed > 0 &&
        ['codex', 'qwen', 'copilot', 'opencode'].includes(e.program),
    );
    const later = newer?.program ?? 'codex';
    fake(later, `${later} 99.0.0`);
    // Pi says its version on stderr.
    const pi = table.entries.find((e) => e.program === 'pi' && e.failed === 0);
    writeFileSync(join(bin, 'pi'), `#!/bin/sh\necho '${pi?.version ?? '0.0.0'}' >&2\n`, {
      mode: 0o755,
    });
    const env = {HOME: home, NUDGE_HOME: join(home, 'state'), PATH: `${bin}:${process.env.PATH}`};
    const r = await doctor([], env);
    expect(verified, 'a verified Claude Code in data/verified-versions.json').toBeDefined();
    expect(r.by['claude version']).toMatchObject({status: 'ok'});
    expect(r.by['claude version']?.detail).toMatch(
      new RegExp(
        `^claude ${verified?.version.replace(/\./g, '\\.')}, verified on \\d{4}-\\d\\d-\\d\\d`,
      ),
    );
    expect(r.by['gemini version']).toMatchObject({status: 'fail'});
    expect(r.by['gemini version']?.detail).toMatch(/^gemini 0\.1\.0 is older than /);
    expect(newer, 'a verified codex, qwen, copilot or opencode in the table').toBeDefined();
    expect(r.by[`${later} version`]).toMatchObject({status: 'warn'});
    expect(r.by[`${later} version`]?.detail).toMatch(
      new RegExp(`^${later} 99\\.0\\.0 was never verified by nudge's tests \\(newer than: `),
    );
    expect(pi, 'a verified Pi in data/verified-versions.json').toBeDefined();
    expect(r.by['pi version']).toMatchObject({status: 'ok'});
    expect(r.exitCode).toBe(1);
  });

  test('as a person reads it: every line within the width (wrapped at words), agents not installed on one line; 80 columns into a pipe', async () => {
    // One agent on the PATH, the others not: they fold into one line.
    const {env} = withAgents({gemini: 'echo 0.1.0'});
    // Laid out to $COLUMNS, as a person piping to less gets it (a terminal's own width alike).
    const r = await runNudge(['doctor'], {...env, COLUMNS: '80'});
    const lines = r.stdout.split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
    // A long detail goes on under its check, indented, broken between words.
    const agents = lines.findIndex((l) => /^ok {4}agents {2,}Not on the PATH/.test(l));
    expect(agents, r.stdout).toBeGreaterThan(-1);
    const folded = lines
      .slice(agents)
      .join(' ')
      .replace(/\s+/g, ' ')
      .match(/Not on the PATH, and nudge not installed for: ([a-z, ]+)\./)?.[1];
    const others = installTargets().filter(
      (a) =>
        a !== 'gemini' &&
        !lines.some((l) => l.startsWith(`ok    ${a} `) || l.startsWith(`warn  ${a} `)),
    );
    expect(folded?.split(', ')).toEqual(others);
    expect(lines.some((l) => /^warn {2}gemini /.test(l))).toBe(true);
    // Into a pipe with no $COLUMNS (an agent's tool, a script): 80 columns, the same lines
    // (issue 65: a pipe once had them whole, 181 columns); --json has every field whole.
    const piped = (await runNudge(['doctor'], env)).stdout;
    expect(piped).toBe(r.stdout);
    const json = await runNudge(['doctor', '--json'], env);
    expect(JSON.stringify(JSON.parse(json.stdout))).toMatch(
      /Not on the PATH, and nudge not installed for: [a-z, ]+\./,
    );
  });
});
