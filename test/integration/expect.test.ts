import {describe, expect, it} from 'vitest';
import {linearPattern} from '../../src/base/pattern.js';
import {serverWorld, useNudgeHome} from '../helpers/nudge-home.js';
import {fixture, type NudgeRun, runNudge, usageErrorLine} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTmuxCallLog} from '../helpers/tmux-call-log.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const node = process.execPath;
const BASH = ['bash', '--norc', '--noprofile'];

interface ExpectAnswer {
  status: string;
  pattern: string;
  match: string | null;
  line: string | null;
  duration_ms: number;
  output?: string;
  matched_at_entry?: boolean;
  fail_pattern?: string;
  reason?: string;
}

/** The JSON answer on stdout; the assertion shows everything the run printed. */
function answerOf(r: NudgeRun): ExpectAnswer {
  const shown = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
  expect(r.stdout.trim().split('\n'), shown).toHaveLength(1);
  return JSON.parse(r.stdout);
}

/** Type a command line into a shell pane and press Enter. */
async function typeLine(server: TmuxTestServer, pane: string, line: string): Promise<void> {
  await server.tmux('send-keys', '-t', pane, '-l', line);
  await server.tmux('send-keys', '-t', pane, 'Enter');
}

/**
 * Start `nudge expect` on the test server in the background. `polling()` resolves once it has
 * looked at the pane (the pane check, the look at entry, the first poll: three captures), so
 * what the test does next happens after the call started.
 */
async function startExpect(server: TmuxTestServer, args: string[]) {
  const log = await useTmuxCallLog(server.dir);
  const result = runNudge(['expect', '-S', server.socket, '--json', ...args], {
    ...log.env,
    NUDGE_HOME: useNudgeHome(),
  });
  return {result, polling: () => log.waitForCaptures(3)};
}

/** `nudge expect ARGS` started, then `line` typed into `pane` once it polls (so what the line
 * prints comes after the call began): the call's outcome. */
async function expectWhileTyping(
  server: TmuxTestServer,
  args: string[],
  pane: string,
  line: string,
): Promise<NudgeRun> {
  const call = await startExpect(server, args);
  await call.polling();
  await typeLine(server, pane, line);
  return call.result;
}

/** The engine's own message for an invalid regex (RE2's: patterns run in linear time). */
function engineMessage(pattern: string): string {
  try {
    linearPattern(pattern);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${pattern} is a valid regex`);
}

/** A pane whose server printed "Server listening on port 8080" before any expect began. */
async function listeningAlready() {
  const server = await startTmuxServer();
  const pane = await server.newPane([node, fixture('server.mjs'), '0']);
  await server.waitForScreen(pane, /Server listening on port 8080/);
  return {server, pane, home: useNudgeHome()};
}

describe('nudge expect', () => {
  it('matches "Server listening on port 8080" printed by a server a while after the call', async () => {
    const {server} = await shellAtPrompt();
    const r = await expectWhileTyping(
      server,
      ['%0', 'listening on port (\\d+)', '--timeout', '30s'],
      '%0',
      `${node} ${fixture('server.mjs')} 1000`,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    const answer = answerOf(r);
    expect(answer).toMatchObject({
      status: 'matched',
      pattern: 'listening on port (\\d+)',
      match: 'listening on port 8080',
      line: 'Server listening on port 8080',
    });
    // Exactly the contract's fields (no output without --action return_output).
    expect(Object.keys(answer).sort()).toEqual(
      ['duration_ms', 'line', 'match', 'pattern', 'status'].sort(),
    );
    expect(answer.duration_ms).toBeTypeOf('number');
    // It waited for the server: its start-up lines are on screen above the match, and the
    // default action leaves the pane alone.
    const screen = await server.capture('%0');
    expect(screen.indexOf('bundling chunk'), screen).toBeGreaterThan(-1);
    expect(screen.indexOf('bundling chunk')).toBeLessThan(screen.indexOf('Server listening'));
    expect(r.stderr).toBe('');
  });

  it('a build that prints for a while and then fails: the fail pattern ends the wait (exit 1)', async () => {
    const {server} = await shellAtPrompt();
    const r = await expectWhileTyping(
      server,
      [
        '%0',
        'Build succeeded',
        '--fail-pattern',
        'FATAL',
        '--fail-pattern',
        'error TS\\d+',
        '--timeout',
        '30s',
      ],
      '%0',
      `${node} ${fixture('build.mjs')} 1000`,
    );
    const answer = answerOf(r);
    expect(r.exitCode, r.stdout).toBe(1);
    expect(answer).toMatchObject({
      status: 'failed',
      pattern: 'Build succeeded',
      match: 'error TS2304',
      line: "src/app.ts(12,5): error TS2304: Cannot find name 'fooBar'.",
      fail_pattern: 'error TS\\d+',
    });
    const screen = await server.capture('%0');
    expect(screen, screen).toMatch(/compiling src\/module-\d+\.ts\n[\s\S]*error TS2304/);
  });

  it('still matches when hundreds of lines scroll past between two polls, the pattern early in the burst', async () => {
    const {server} = await shellAtPrompt();
    const call = await startExpect(server, [
      '%0',
      'BURST MARKER (\\d+)',
      '--interval',
      '1s',
      '--timeout',
      '20s',
    ]);
    // Right after a poll: the next one is a second away, and 800 lines arrive in one write.
    await call.polling();
    await typeLine(server, '%0', `${node} ${fixture('burst.mjs')} 800 5`);

    const r = await call.result;
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(answerOf(r)).toMatchObject({
      status: 'matched',
      match: 'BURST MARKER 4242',
      line: 'BURST MARKER 4242 (line 5 of 800)',
    });
    // The marker had scrolled far out of the visible screen (and out of the last 100 lines).
    const screen = await server.waitForScreen('%0', /BURST END/);
    expect(screen).not.toContain('BURST MARKER');
  });

  it('a match already on screen before the call does not count, unless --include-existing', async () => {
    const {server, pane, home} = await listeningAlready();

    const asked = (...extra: string[]) =>
      runNudge(
        [
          'expect',
          '-S',
          server.socket,
          pane,
          'listening on port \\d+',
          '--timeout',
          '1500ms',
          '--json',
          ...extra,
        ],
        {NUDGE_HOME: home},
      );
    const old = await asked();
    expect(old.exitCode, `${old.stdout}\n${old.stderr}`).toBe(124);
    expect(answerOf(old)).toMatchObject({
      status: 'timeout',
      pattern: 'listening on port \\d+',
      match: null,
      line: null,
    });

    const existing = await asked('--include-existing');
    expect(existing.exitCode, `${existing.stdout}\n${existing.stderr}`).toBe(0);
    const found = answerOf(existing);
    expect(found).toMatchObject({status: 'matched', matched_at_entry: true});
    expect([found.match, found.line]).toEqual([
      'listening on port 8080',
      'Server listening on port 8080',
    ]);
  });

  it('without --json, one line as wait says it; the old --timeout-ms and --poll-interval-ms still work, each with a word on stderr', async () => {
    const {server, pane, home} = await listeningAlready();
    const at = ['expect', '-S', server.socket, pane];
    const matched = await runNudge(
      [
        ...at,
        'listening on port \\d+',
        '--include-existing',
        '--timeout-ms',
        '5000',
        '--poll-interval-ms',
        '100',
      ],
      {NUDGE_HOME: home},
    );
    expect(matched.exitCode, `${matched.stdout}\n${matched.stderr}`).toBe(0);
    expect(matched.stdout).toMatch(/^Matched after \d+\.\ds: Server listening on port 8080\n?$/);
    expect(matched.stderr.trim().split('\n')).toEqual([
      'nudge: --timeout-ms is the old name of --timeout, which takes a duration: --timeout 5s.',
      'nudge: --poll-interval-ms is the old name of --interval, which takes a duration: --interval 100ms.',
    ]);
    const timedOut = await runNudge([...at, 'never shown', '--timeout', '1s'], {NUDGE_HOME: home});
    expect(timedOut.exitCode, timedOut.stderr).toBe(124);
    expect(timedOut.stdout).toMatch(/^Timeout: \/never shown\/ did not show after \d+\.\ds\n?$/);
    expect(timedOut.stderr).toBe('');
  });

  it('the pane killed mid-wait: status failed with a reason, one sentence on stderr, exit 1', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(BASH);
    await server.waitForScreen(pane, /^\$/m);
    const call = await startExpect(server, [pane, 'never printed', '--timeout', '30s']);
    await call.polling();
    await server.tmux('kill-pane', '-t', pane);

    const r = await call.result;
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(1);
    const answer = answerOf(r);
    expect(answer.status).toBe('failed');
    expect(answer.reason).toContain(pane);
    const stderr = r.stderr.trim().split('\n');
    expect(stderr, r.stderr).toHaveLength(1);
    expect(stderr[0]).toContain(pane);
    expect(stderr[0]).toMatch(/closed/);
  });

  it('an invalid regex (pattern or --fail-pattern) is exit 2 with the engine message on one stderr line', async () => {
    const {server, home} = await serverWorld();
    for (const [args, bad] of [
      [['%0', 'listening on (port'], 'listening on (port'],
      [['%0', 'listening', '--fail-pattern', 'error [TS'], 'error [TS'],
    ] as const) {
      const r = await runNudge(['expect', '-S', server.socket, ...args, '--timeout', '2s'], {
        NUDGE_HOME: home,
      });
      expect(usageErrorLine(r, args.join(' '))).toContain(engineMessage(bad));
    }
  });

  it('no such pane is exit 2 with one sentence naming it', async () => {
    const server = await startTmuxServer();
    const r = await runNudge(
      ['expect', '-S', server.socket, '%99', 'listening', '--timeout', '2s'],
      {NUDGE_HOME: useNudgeHome()},
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0]).toContain('%99');
  });

  it('--action return_output adds the output searched, which holds only what came after the call', async () => {
    const {server} = await shellAtPrompt();
    await typeLine(server, '%0', 'echo OLD-$((6*7))-LINE');
    await server.waitForScreen('%0', /^OLD-42-LINE$/m);
    const r = await expectWhileTyping(
      server,
      ['%0', 'listening on port \\d+', '--action', 'return_output', '--timeout', '30s'],
      '%0',
      `${node} ${fixture('server.mjs')} 300`,
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    const answer = answerOf(r);
    expect(answer).toMatchObject({status: 'matched', line: 'Server listening on port 8080'});
    expect(answer.output).toBeTypeOf('string');
    expect(answer.output).toMatch(/^starting dev server\.\.\.$/m);
    expect(answer.output).toMatch(/^Server listening on port 8080$/m);
    expect(answer.output).not.toContain('OLD-42-LINE');
  });

  it('--action close_pane closes the pane after the match', async () => {
    const server = await startTmuxServer();
    const pane = await server.newPane(BASH);
    await server.waitForScreen(pane, /^\$/m);
    const r = await expectWhileTyping(
      server,
      [pane, 'listening on port \\d+', '--action', 'close_pane', '--timeout', '30s'],
      pane,
      `${node} ${fixture('server.mjs')} 300`,
    );
    expect(r.exitCode, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(answerOf(r)).toMatchObject({status: 'matched', match: 'listening on port 8080'});
    let panes = '';
    await waitFor(
      `pane ${pane} to be closed`,
      async () => {
        panes = await server.tmux('list-panes', '-a', '-F', '#{pane_id}');
        return panes.split('\n').includes(pane) ? undefined : true;
      },
      {timeoutMs: 10_000, describe: () => panes},
    );
    // Only that pane: the first window's shell is still there.
    expect(panes.split('\n')).toContain('%0');
  });
});
