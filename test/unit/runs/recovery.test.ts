// What nudge recover plans from the state alone (pure): which runs come back and which are
// left with why, which jobs move to a recovered pane (never one that merely had the old id),
// which schedules are marked again.
import {describe, expect, it} from 'vitest';
import type {RunRecord, SubmitRecord} from '../../../src/jobs/record.js';
import {
  boundToServer,
  type JobFacts,
  planRecovery,
  type RunFacts,
} from '../../../src/runs/recovery.js';
import type {RunRequest} from '../../../src/runs/request.js';
import type {ScheduledJob} from '../../../src/setup/schedule-store.js';

const server = {socketPath: '/tmp/s', serverPid: 7};

function run(
  id: string,
  pane: string,
  o: Partial<RunRequest['options']> = {},
  r: Partial<RunRecord> = {},
): RunFacts {
  return {
    record: {
      version: 1,
      id,
      kind: 'run',
      state: 'done',
      pane,
      paneTarget: pane,
      ...server,
      mode: 'detached',
      createdAt: '2026-11-26T00:00:00.000Z',
      updatedAt: '2026-11-26T00:00:00.000Z',
      preview: 'p',
      session: {id: `session-${id}`, from: 'f'},
      ...r,
    } as RunRecord,
    request: {
      options: {agent: 'claude', cwd: '/w', worktree: null, close: false, ...o},
    } as RunRequest,
    recoveredAs: undefined,
    stoppedFromOutside: false,
  };
}

function job(id: string, pane: string, o: Partial<JobFacts> = {}, state = 'lost'): JobFacts {
  return {
    record: {id, kind: 'submit', state, pane, preview: id, ...server} as unknown as SubmitRecord,
    typed: false,
    recoveredAs: undefined,
    stoppedFromOutside: false,
    ...o,
  };
}

const facts = (runs: RunFacts[], jobs: JobFacts[] = [], schedules: ScheduledJob[] = []) => ({
  gone: [server],
  runs,
  jobs,
  schedules,
  folderExists: (p: string) => p !== '/gone',
  resumable: (agent: string) => (agent === 'claude' ? true : agent === 'pi' ? false : undefined),
});

describe('planRecovery', () => {
  it('a run with an agent, a session and a folder is resumed; each other is left with why', () => {
    const plan = planRecovery(
      facts([
        run('a', '%1'),
        run('b', '%2', {agent: null}),
        run('c', '%3', {}, {session: undefined}),
        run('d', '%4', {cwd: '/gone'}),
        run('e', '%5', {close: true}),
        run('f', '%6', {agent: 'pi'}),
        run('g', '%7', {}, {state: 'cancelled'}),
      ]),
    );
    expect(plan.runs.map((r) => [r.job, r.action, r.why ?? ''])).toEqual([
      ['a', 'resume', ''],
      ['b', 'leave', expect.stringContaining('does not run a command again')],
      ['c', 'leave', expect.stringContaining('no session id')],
      ['d', 'leave', expect.stringContaining('/gone is gone')],
      ['e', 'leave', expect.stringContaining('--close')],
      ['f', 'leave', expect.stringContaining('has no resume option')],
      ['g', 'leave', 'a person cancelled it'],
    ]);
    expect(plan.runs[0]).toMatchObject({session: 'session-a', pane: '%1'});
  });

  it('a run stopped by a shutdown (cancelled, no person asked) comes back; one recovered already is not listed', () => {
    const stopped = {...run('a', '%1', {}, {state: 'cancelled'}), stoppedFromOutside: true};
    const done = {...run('b', '%2'), recoveredAs: 'x'};
    expect(planRecovery(facts([stopped, done])).runs.map((r) => [r.job, r.action])).toEqual([
      ['a', 'resume'],
    ]);
  });

  it("jobs: one never typed for a resumed run's pane moves there; a typed one, another pane's, an ended one do not", () => {
    const plan = planRecovery(
      facts(
        [run('r', '%1'), run('cmd', '%2', {agent: null})],
        [
          job('queued', '%1'),
          job('typed', '%1', {typed: true}),
          job('other', '%9'),
          job('cmdpane', '%2'),
          job('done', '%1', {}, 'done'),
          job('live', '%1', {}, 'queued'),
          job('shutdown', '%1', {stoppedFromOutside: true}, 'cancelled'),
          job('again', '%1', {recoveredAs: 'y'}),
        ],
      ),
    );
    expect(plan.jobs.map((j) => [j.job, j.action, j.run ?? j.why])).toEqual([
      ['queued', 'retarget', 'r'],
      ['typed', 'leave', expect.stringContaining('typed into the old pane')],
      ['other', 'leave', expect.stringContaining('merely has the old id')],
      ['cmdpane', 'leave', expect.stringContaining('merely has the old id')],
      ['live', 'retarget', 'r'],
      ['shutdown', 'retarget', 'r'],
    ]);
  });

  it("schedules: marked again on a resumed run's pane; one of another pane, of an older server or with no pane kept is left", () => {
    const sched = (name: string, marked?: ScheduledJob['marked']): ScheduledJob =>
      ({
        version: 1,
        name,
        socket: '/tmp/s',
        mark: 't',
        noticeMarked: false,
        marked,
      }) as ScheduledJob;
    const plan = planRecovery(
      facts(
        [run('r', '%1')],
        [],
        [
          sched('here', {serverPid: 7, pane: '%1'}),
          sched('there', {serverPid: 7, pane: '%5'}),
          sched('notice', {serverPid: 7, pane: '%1', notice: '%5'}),
          sched('old', undefined),
        ],
      ),
    );
    expect(plan.schedules.map((s) => [s.name, s.action])).toEqual([
      ['here', 'remark'],
      ['there', 'leave'],
      ['notice', 'leave'],
      ['old', 'leave'],
    ]);
  });
});

describe('boundToServer (issue 42: recover from inside a pane)', () => {
  it("only the runs of the caller's own server come back; the others and their jobs are left, saying why", () => {
    const other = {socketPath: '/tmp/other', serverPid: 9};
    const plan = planRecovery({
      ...facts([run('a', '%1'), run('b', '%2', {}, other)], [job('j', '%2', {}), job('k', '%1')]),
      gone: [server, other],
    });
    expect(plan.runs.map((r) => r.action)).toEqual(['resume', 'resume']);
    boundToServer(plan, {socketPath: '/tmp/s', pane: '%0'});
    expect(plan.runs.map((r) => [r.job, r.action, r.why ?? ''])).toEqual([
      ['a', 'resume', ''],
      [
        'b',
        'leave',
        'it ran on another tmux server (/tmp/other) than the pane nudge runs in (%0); recover it from outside tmux or from that server',
      ],
    ]);
  });
});
