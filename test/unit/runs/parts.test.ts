// `nudge run`'s pure parts: permission dialogs read from real agent screens, the run's two
// timeouts, the report and its notice, the request check, how words become a command line.
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {findDialog} from '../../../src/agents/dialogs.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {shellWord} from '../../../src/base/shell.js';
import type {RunReport} from '../../../src/jobs/run-report.js';
import {progressDue, RunClock} from '../../../src/runs/monitor.js';
import {outputTail} from '../../../src/runs/output.js';
import {PermissionStops} from '../../../src/runs/permissions.js';
import {renderReport, runNotice, runStatusOf} from '../../../src/runs/report.js';
import {validateRunRequest} from '../../../src/runs/request.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const DIR = fileURLToPath(new URL('../../fixtures/screens/', import.meta.url));

function screen(name: string): PaneView {
  const rows = readFileSync(`${DIR}${name}.txt`, 'utf8').replace(/\n$/, '').split('\n');
  return paneViewOf(rows, {cursorX: 0, cursorY: 0, width: 120, currentCommand: 'node'});
}

describe('permission dialogs on real screens', () => {
  test.each([
    [
      'claude',
      'claude-permission-bash',
      'permission',
      'Do you want to proceed?',
      ['Bash command', 'touch made.txt && echo hi', 'Run the command'],
    ],
    ['claude', 'claude-permission-write', 'permission', 'Do you want to create hello.txt?', []],
    [
      'claude',
      'claude-trust-dialog',
      'trust',
      'Is this a project you created or one you trust?',
      expect.any(Array),
    ],
    [
      'gemini',
      'gemini-permission-write',
      'permission',
      'Apply this change?',
      ['WriteFile  Writing to hello.txt'],
    ],
    [
      'gemini',
      'gemini-trust-dialog',
      'trust',
      'Do you trust the files in this folder?',
      expect.any(Array),
    ],
    [
      'copilot',
      'copilot-permission-shell',
      'permission',
      'Do you want to run this command?',
      expect.arrayContaining(['touch made.txt']),
    ],
  ] as const)('%s: %s', (agent, name, kind, question, detail) => {
    const found = findDialog(PROFILES[agent]!, screen(name), 0);
    expect(found).toEqual({kind, question, detail, denyKeys: [['Escape']]});
  });

  test.each([
    ['claude', 'claude-idle-empty'],
    ['claude', 'claude-busy'],
    // After "no": the transcript still shows the tool call, but no dialog.
    ['claude', 'claude-permission-denied'],
    ['gemini', 'gemini-idle-empty'],
    ['codex', 'codex-idle-empty'],
    ['codex', 'codex-trust-dialog'],
    ['copilot', 'copilot-permission-denied'],
  ] as const)('%s: none on %s', (agent, name) => {
    expect(findDialog(PROFILES[agent]!, screen(name), 0)).toBeUndefined();
  });

  test('a question quoted in the transcript without options under it is not a dialog', () => {
    const v = paneViewOf(['● Do you want to proceed?', '  ⎿  I asked it above.', '❯ '], {});
    expect(findDialog(PROFILES.claude!, v, 0)).toBeUndefined();
  });

  test("Codex's approval (its published wording)", () => {
    const v = paneViewOf(
      [
        '  Would you like to run the following command?',
        '',
        '  $ rm -rf build',
        '',
        '› 1. Yes, proceed (y)',
        "  2. Yes, and don't ask again for commands that start with `rm` (p)",
        '  3. No, and tell Codex what to do differently (esc)',
      ],
      {},
    );
    expect(findDialog(PROFILES.codex!, v, 0)).toMatchObject({
      kind: 'permission',
      question: 'Would you like to run the following command?',
    });
  });

  test('a shell and an unknown program have none', () => {
    const v = screen('claude-permission-bash');
    expect(findDialog(PROFILES.shell, v, 0)).toBeUndefined();
    expect(findDialog(PROFILES.raw, v, 0)).toBeUndefined();
  });
});

describe('RunClock: the idle and the total timeout', () => {
  const o = {idleTimeoutMs: 5_000, timeoutMs: 60_000};
  const look = (nowMs: number, screen: string, files = '', asking = false) => ({
    nowMs,
    screen,
    files,
    asking,
  });

  test('idle after the idle timeout without a screen or file change; a change resets it', () => {
    const c = new RunClock(0, o);
    expect(c.observe(look(1_000, 'a')).timeout).toBeUndefined();
    expect(c.observe(look(4_000, 'b'))).toMatchObject({screenChanged: true, quietMs: 0});
    expect(c.observe(look(8_000, 'b')).timeout).toBeUndefined();
    expect(c.observe(look(9_000, 'b', 'f1'))).toMatchObject({filesChanged: true, quietMs: 0});
    expect(c.observe(look(13_999, 'b', 'f1')).timeout).toBeUndefined();
    expect(c.observe(look(14_000, 'b', 'f1'))).toMatchObject({timeout: 'idle', quietMs: 5_000});
  });

  test('a quiet start counts from the start', () => {
    const c = new RunClock(0, o);
    expect(c.observe(look(5_000, 'a')).timeout).toBe('idle');
  });

  test('the idle clock starts when the work does, not when the run did (a slow agent start)', () => {
    const c = new RunClock(0, o, 6_000);
    expect(c.observe(look(6_200, 'a')).timeout).toBeUndefined();
    expect(c.observe(look(10_999, 'a')).timeout).toBeUndefined();
    expect(c.observe(look(11_000, 'a')).timeout).toBe('idle');
  });

  test('while a person is asked, the idle clock stands still', () => {
    const c = new RunClock(0, o);
    c.observe(look(1_000, 'dialog', '', true));
    expect(c.observe(look(30_000, 'dialog', '', true)).timeout).toBeUndefined();
    expect(c.observe(look(34_000, 'dialog')).timeout).toBeUndefined();
    expect(c.observe(look(35_000, 'dialog')).timeout).toBe('idle');
  });

  test('the total timeout wins, busy or not', () => {
    const c = new RunClock(0, o);
    for (let t = 1_000; t < 60_000; t += 1_000) {
      expect(c.observe(look(t, `output ${t}`)).timeout).toBeUndefined();
    }
    expect(c.observe(look(60_000, 'more output')).timeout).toBe('total');
  });

  test('progress: on a change at most every 5 s, else every 30 s', () => {
    expect(progressDue({changed: true, sinceLastMs: 4_999})).toBe(false);
    expect(progressDue({changed: true, sinceLastMs: 5_000})).toBe(true);
    expect(progressDue({changed: false, sinceLastMs: 29_999})).toBe(false);
    expect(progressDue({changed: false, sinceLastMs: 30_000})).toBe(true);
  });
});

describe('the report and its notice', () => {
  const report: RunReport = {
    job: '0mwte5qjm-l5js',
    path: '/home/u/.local/state/nudge/jobs/0mwte5qjm-l5js/report.md',
    status: 'failed',
    state: 'failed',
    reason: 'The command exited with status 2.',
    exitCode: 2,
    startedAt: '2026-11-23T10:00:00.000Z',
    endedAt: '2026-11-23T10:03:42.000Z',
    durationMs: 222_000,
    command: 'make `test`',
    pane: '%7',
    cwd: '/src/app-nudge-0mwte5qjm-l5js',
    worktree: '/src/app-nudge-0mwte5qjm-l5js',
    branch: 'nudge/0mwte5qjm-l5js',
    changes: [
      {file: 'a.ts', added: 3, deleted: 1},
      {file: 'logo.png', added: null, deleted: null},
      {file: 'b.ts', added: 0, deleted: 9},
    ],
    commits: ['abc1234 nudge run 0mwte5qjm-l5js: make test'],
    pr: {skipped: 'gh is not installed (see https://cli.github.com).'},
    permissionStops: [],
    outputTail: ['FAIL a.test.ts', '```'],
    log: '/x/worker.log',
    events: '/x/events.jsonl',
  };

  test('the notice: status, exit, duration, files, report', () => {
    expect(runNotice(report)).toBe(
      '[nudge run 0mwte5qjm-l5js] failed (exit 2) after 3m42s — 3 files changed — report: /home/u/.local/state/nudge/jobs/0mwte5qjm-l5js/report.md',
    );
    expect(
      runNotice({...report, status: 'success', exitCode: 0, changes: [report.changes![0]!]}),
    ).toContain('] success after 3m42s — 1 file changed — report: ');
    expect(runNotice({...report, status: 'idle-timeout', exitCode: undefined, changes: null})).toBe(
      '[nudge run 0mwte5qjm-l5js] idle-timeout after 3m42s — report: /home/u/.local/state/nudge/jobs/0mwte5qjm-l5js/report.md',
    );
  });

  test('status words', () => {
    expect(runStatusOf('done')).toBe('success');
    expect(runStatusOf('timeout', 'idle')).toBe('idle-timeout');
    expect(runStatusOf('timeout', 'total')).toBe('timeout');
    expect(runStatusOf('cancelled')).toBe('cancelled');
  });

  test('report.md: fields, changes as file (+a, -d), commits, output in a fence longer than its backticks', () => {
    const md = renderReport(report);
    expect(md).toContain('# nudge run 0mwte5qjm-l5js: failed\n');
    expect(md).toContain('- **Exit code:** 2\n');
    expect(md).toContain(
      '- **Duration:** 3m42s (2026-11-23T10:00:00.000Z → 2026-11-23T10:03:42.000Z)\n',
    );
    expect(md).toContain("- **Command:** `make 'test'`\n");
    expect(md).toContain('- a.ts (+3, -1)\n- logo.png (binary)\n- b.ts (+0, -9)\n');
    expect(md).toContain('- abc1234 nudge run 0mwte5qjm-l5js: make test\n');
    expect(md).toContain('- **Pull request:** skipped: gh is not installed');
    expect(md).toContain('````text\nFAIL a.test.ts\n```\n````');
    expect(renderReport({...report, changes: null})).toContain(
      'Not a git work tree: files were not tracked.',
    );
  });
});

describe('the run request and the command line', () => {
  const valid = {
    version: 1,
    kind: 'run',
    jobId: '0mwte5qjm-l5js',
    createdAt: '2026-11-23T10:00:00.000Z',
    server: {socketPath: '/tmp/s', pid: 42},
    pane: '%3',
    paneTarget: 'new window in session $0',
    text: 'make test',
    options: {
      agent: null,
      cwd: '/src',
      worktree: null,
      git: null,
      idleTimeoutMs: 300_000,
      timeoutMs: 3_600_000,
      notifyPane: '%1',
      permissions: 'ask',
      close: false,
      pr: false,
      notifySinks: [],
      intervalMs: 1_000,
    },
  };

  test('a valid request passes; each broken field is named', () => {
    expect(validateRunRequest(valid).ok).toBe(true);
    const broken = (patch: Record<string, unknown>, options: Record<string, unknown> = {}) =>
      validateRunRequest({...valid, ...patch, options: {...valid.options, ...options}});
    expect(broken({kind: 'submit'})).toEqual({
      ok: false,
      error: 'the request is not a run request',
    });
    expect(broken({pane: 'x'})).toEqual({ok: false, error: 'the request has a bad pane id'});
    expect(broken({}, {agent: 42})).toEqual({
      ok: false,
      error: 'the request option agent is not a profile name or null',
    });
    expect(broken({}, {permissions: 'yes'})).toEqual({
      ok: false,
      error: 'the request option permissions is not ask or deny',
    });
    expect(broken({}, {timeoutMs: -1})).toEqual({
      ok: false,
      error: 'the request option timeoutMs is not a duration',
    });
    expect(broken({}, {resume: {session: 'x'.repeat(3), of: 'j'}})).toMatchObject({ok: false});
    expect(
      broken({}, {resume: {session: '3f1c2b4a-0000-4000-8000-000000000000', of: 'job'}}),
    ).toMatchObject({ok: false, error: /option resume/});
  });

  test('several words: each reaches the shell as one word, exactly', () => {
    expect(['sh', '-c', `echo "it's $HOME"`, 'a b', ''].map(shellWord).join(' ')).toBe(
      `sh -c 'echo "it'\\''s $HOME"' 'a b' ''`,
    );
    expect(shellWord('--flag=x,y/z.txt')).toBe('--flag=x,y/z.txt');
  });
});

describe('permission stops', () => {
  const dialog = (question: string) => ({
    kind: 'permission' as const,
    question,
    detail: [],
    denyKeys: [['Escape']],
  });

  test('ask: each question recorded once; gone without nudge answering it is "answered"', () => {
    const p = new PermissionStops('ask');
    expect(p.observe(undefined, 't0')).toEqual({kind: 'none'});
    expect(p.observe(dialog('Do you want to proceed?'), 't1')).toMatchObject({
      kind: 'new',
      deny: false,
    });
    expect(p.showing).toBe(true);
    expect(p.observe(dialog('Do you want to proceed?'), 't2')).toEqual({
      kind: 'still',
      deny: false,
    });
    expect(p.observe(undefined, 't3')).toMatchObject({kind: 'answered'});
    expect(p.observe(dialog('Do you want to create a.txt?'), 't4')).toMatchObject({kind: 'new'});
    expect(p.stops.map((s) => [s.question, s.answer])).toEqual([
      ['Do you want to proceed?', 'answered'],
      ['Do you want to create a.txt?', 'pending'],
    ]);
  });

  test('deny: answered no at once, and again (at most three times) while it stays', () => {
    const p = new PermissionStops('deny');
    const q = dialog('Do you want to proceed?');
    expect(p.observe(q, 't1')).toMatchObject({kind: 'new', deny: true});
    expect(p.observe(q, 't2')).toEqual({kind: 'still', deny: true});
    expect(p.observe(q, 't3')).toEqual({kind: 'still', deny: true});
    expect(p.observe(q, 't4')).toEqual({kind: 'still', deny: false});
    expect(p.observe(undefined, 't5')).toEqual({kind: 'none'});
    expect(p.stops).toEqual([expect.objectContaining({answer: 'denied'})]);
  });
});

describe("a run's last lines of output", () => {
  test("a command's: from its first line to its exit sentinel", () => {
    const rows = [
      '$ ( make',
      "> ) ; printf '...'",
      'building',
      '',
      'error: x',
      '',
      '__NUDGE_abc_EXIT_2__',
      '$ ',
    ];
    const view = paneViewOf(rows, {});
    const tail = outputTail(view, {
      startRow: view.firstRow + 2,
      sentinel: /__NUDGE_abc_EXIT_(\d+)__/,
    });
    expect(tail).toEqual(['building', '', 'error: x']);
  });

  test("an agent's: the transcript above its composer", () => {
    const tail = outputTail(screen('claude-permission-denied'), {agent: PROFILES.claude!});
    expect(tail.slice(-2)).toEqual([
      '● Bash(touch made.txt && echo hi)',
      expect.stringMatching(/⎿\s+Interrupted · What should Claude do instead\?$/),
    ]);
    expect(tail.some((r) => r.startsWith('❯ '))).toBe(true); // the prompt it was given
  });
});
