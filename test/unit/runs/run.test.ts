// `nudge run`'s state machine on a fake pane and virtual time: how each way of ending goes
// through stopping, the report and the notice.
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {RunDialogs} from '../../../src/runs/dialogs.js';
import type {RunDeps, RunEvents, RunOutcome} from '../../../src/runs/events.js';
import {PermissionStops} from '../../../src/runs/permissions.js';
import type {RunRequest} from '../../../src/runs/request.js';
import {runRun} from '../../../src/runs/run.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux} from '../../helpers/fake-tmux.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const DIR = fileURLToPath(new URL('../../fixtures/screens/', import.meta.url));

function request(options: Partial<RunRequest['options']> = {}): RunRequest {
  return {
    version: 1,
    kind: 'run',
    jobId: '0mwr33g3x-k62r',
    createdAt: new Date().toISOString(),
    server: {socketPath: '/tmp/fake.sock', pid: 42},
    pane: '%1',
    paneTarget: '%1',
    text: 'make test',
    options: {
      agent: null,
      cwd: '/tmp',
      worktree: null,
      git: null,
      idleTimeoutMs: 5_000,
      timeoutMs: 60_000,
      notifyPane: '%0',
      permissions: 'ask',
      close: false,
      pr: false,
      notifySinks: [],
      intervalMs: 1_000,
      ...options,
    },
  } as RunRequest;
}

/** A run's world: a shell pane that shows `screens` once the command is typed. */
function world(screens: string[]) {
  const tmux = new FakeTmux();
  tmux.screens = screens;
  const clock = new FakeClock();
  const events: Array<{name: string; data: unknown}> = [];
  const told: Array<{pane: string; line: string}> = [];
  const groups: number[] = [];
  const failingGit = () => Promise.reject(new Error('fatal: not a git repository'));
  const deps: RunDeps = {
    tmux,
    clock,
    activity: undefined,
    hookMarks: {read: async () => undefined, watch: () => ({close: () => {}})} as never,
    served: async () => ({served: []}),
    paneMemory: {recall: async () => undefined, remember: async () => {}} as PaneMemory,
    notify: async () => {},
    findSession: async () => undefined,
    newSessionId: () => '00000000-0000-4000-8000-000000000000',
    foreground: {
      commandLine: async () => undefined,
      group: async () => 777,
      inputState: async () => ({kind: 'unknown' as const, why: 'a fake pane'}),
    },
    recorder: {
      transition: async (state, data) => void events.push({name: state, data}),
      event: async <K extends keyof RunEvents>(name: K, data: RunEvents[K]) =>
        void events.push({name, data}),
      mark: async (patch) => void events.push({name: 'mark', data: patch}),
      end: async (o: RunOutcome) => void events.push({name: `end:${o.state}`, data: o}),
    },
    git: {
      snapshot: failingGit,
      changedFiles: failingGit,
      commitAll: failingGit,
      numstat: failingGit,
      commitsSince: failingGit,
      untrackedLines: failingGit,
    } as never,
    endGroup: async (g) => {
      groups.push(g);
      return 'terminated';
    },
    tell: async (pane, line) => {
      told.push({pane, line});
      return 'submitted';
    },
    gh: async () => ({exitCode: 0, stdout: '', stderr: ''}) as never,
    files: {report: '/tmp/r.md', log: '/tmp/w.log', events: '/tmp/e.jsonl'},
    writeReport: async () => {},
    pid: 1,
  };
  const names = () => events.map((e) => e.name);
  return {deps, tmux, clock, events, told, groups, names};
}

describe('a run, state by state', () => {
  test('cancelled while starting: stopped, reported, nobody told', async () => {
    const w = world(['$ ']);
    const cancel = new AbortController();
    cancel.abort();
    const outcome = await runRun(w.deps, request(), cancel.signal);
    expect(outcome.state).toBe('cancelled');
    expect(w.names()).toEqual(
      expect.arrayContaining(['starting', 'stopping', 'interrupted', 'integrating', 'reported']),
    );
    expect(w.names()).not.toContain('notifying');
    expect(w.told).toEqual([]);
  });

  test('an idle timeout: interrupted, its process groups ended, the caller told', async () => {
    // The command never prints its exit status and the screen never changes.
    const w = world(['$ ( make test', 'building…']);
    const outcome = await runRun(w.deps, request(), new AbortController().signal);
    expect(outcome.state).toBe('timeout');
    expect(outcome.reason).toMatch(/^idle timeout: no output and no file change for 5(\.0)?s\.$/);
    expect(w.tmux.calls).toContainEqual(['keys', 'C-c']);
    expect(w.groups).toEqual([777]);
    expect(outcome.notified).toBe(true);
    expect(w.told[0]?.pane).toBe('%0');
    const order = w.names();
    expect(order.indexOf('stopping')).toBeLessThan(order.indexOf('integrating'));
    expect(order.indexOf('integrating')).toBeLessThan(order.indexOf('notifying'));
  });

  test('a notice that does not arrive makes the run failed, never done', async () => {
    const w = world(['$ ( make test', 'building…']);
    w.deps.tell = async () => {
      throw new Error('the pane is gone');
    };
    const outcome = await runRun(w.deps, request(), new AbortController().signal);
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toMatch(/the notice did not reach pane %0: the pane is gone/);
    expect(w.names()).toContain('notice-failed');
  });

  test('a failing git is recorded once per look, and the run goes on to its own ending', async () => {
    const w = world(['$ ( make test', 'building…']);
    const outcome = await runRun(
      w.deps,
      request({git: {root: '/tmp/repo', base: 'abc'}}),
      new AbortController().signal,
    );
    expect(outcome.state).toBe('timeout');
    const failed = w.events.filter((e) => e.name === 'git-failed').map((e) => e.data);
    expect(failed).toContainEqual({look: 'snapshot', why: 'fatal: not a git repository'});
    expect(failed).toContainEqual({look: 'changed-files', why: 'fatal: not a git repository'});
    // Once per kind of look, however many looks failed.
    expect(failed.filter((f) => (f as {look: string}).look === 'snapshot')).toHaveLength(1);
  });

  test('the pane closing while it runs fails the run with the sentence', async () => {
    const w = world(['$ ( make test', 'building…']);
    w.tmux.goneAfterCaptures = 2;
    const outcome = await runRun(w.deps, request(), new AbortController().signal);
    expect(outcome.state).toBe('failed');
    expect(outcome.reason).toBe('Pane %1 is gone (closed while running).');
  });
});

describe('RunDialogs', () => {
  const screen = (name: string) =>
    paneViewOf(readFileSync(`${DIR}${name}.txt`, 'utf8').replace(/\n$/, '').split('\n'), {
      currentCommand: 'node',
    });

  /** The dialogs of a run of Claude Code in %1, its caller in %0, stops answered by `mode`. */
  const claudeDialogs = (w: ReturnType<typeof world>, mode: 'ask' | 'deny') =>
    new RunDialogs(w.deps, {
      io: {tmux: w.tmux, clock: w.clock, note: async () => {}, guard: () => {}},
      pane: '%1',
      profile: PROFILES.claude!,
      stops: new PermissionStops(mode),
      notifyPane: '%0',
      who: '[nudge run J] claude',
    });

  test('deny: a permission dialog is answered no with the profile keys, once per question', async () => {
    const w = world([]);
    const dialogs = claudeDialogs(w, 'deny');
    expect(
      await dialogs.onScreen(screen('claude-permission-bash'), new AbortController().signal),
    ).toBe(true);
    expect(w.names()).toEqual(['permission-prompt', 'permission-denied']);
    expect(w.tmux.calls.filter((c) => c[0] === 'keys').length).toBeGreaterThan(0);
    // Denied, not asked: the caller is not told.
    expect(w.told).toEqual([]);
  });

  test('ask: the calling pane is told who asks what, and where to answer', async () => {
    const w = world([]);
    const dialogs = claudeDialogs(w, 'ask');
    await dialogs.onScreen(screen('claude-permission-bash'), new AbortController().signal);
    expect(w.told[0]?.line).toMatch(/^\[nudge run J\] claude asks: .* — answer it in pane %1$/);
    expect(w.tmux.calls.filter((c) => c[0] === 'keys')).toEqual([]);
  });
});
