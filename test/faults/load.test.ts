// Collisions and load: 20 jobs submitted at once to one pane run strictly one at a time, in
// queue (job id) order, their bytes never interleaved; 20 panes with 5 jobs each, at once,
// all correct; and what happens when a person types into a pane while a job types.
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, expect, it} from 'vitest';
import {
  expectLockedInTurn,
  recordFigure,
  submitJob,
  TRANSPORTS,
  waitForEvent,
  waitForLocksFree,
} from '../helpers/faults.js';
import {expectJobEnd, waitForJobEnd} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {hex, type RecorderPane, recorderWorld, startRecorder} from '../helpers/recorder-pane.js';
import {runNudge, submitArgv} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

const QUICK = ['--delay', '0', '--type-delay', '0', '--no-clear', '--notice', 'N {job}'];

/** A text that is easy to tell apart from the others and hard on quoting. */
const textFor = (pane: number, job: number) => `p${pane}j${job} ;'"$x\`\\; ${'k'.repeat(12)}`;

/** Submit `count` jobs to `pane` (all at once, or one after another) → {id: text}. */
async function submitMany(
  home: string,
  socket: string,
  pane: string,
  texts: string[],
  env: Record<string, string>,
  together: boolean,
): Promise<Map<string, string>> {
  const submitOne = async (text: string) => {
    const r = await runNudge(submitArgv(socket, pane, [...QUICK, '--', text]), {
      ...env,
      NUDGE_HOME: home,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    return [r.stdout.trim(), text] as const;
  };
  const pairs: Array<readonly [string, string]> = [];
  if (together) pairs.push(...(await Promise.all(texts.map(submitOne))));
  else for (const text of texts) pairs.push(await submitOne(text));
  return new Map(pairs);
}

/** Wait for every job to end `done`; check the recorder got each job's text and notice, in
 * job id order, byte for byte, and that each took the lock only after the previous one had
 * typed its last key. Resolves to the number of bytes verified. */
async function expectInQueueOrder(
  home: string,
  rec: RecorderPane,
  jobs: Map<string, string>,
): Promise<number> {
  const ids = [...jobs.keys()].sort();
  for (const id of ids) {
    const _s = await expectJobEnd(home, id, 'done', 120_000);
  }
  const expected = Buffer.from(ids.map((id) => `${jobs.get(id)}\rN ${id}\r`).join(''));
  const got = await rec.waitForLength(expected.length, 10_000).catch(() => rec.bytes());
  expect(hex(got), `pane ${rec.pane}: ${got.toString()}`).toBe(hex(expected));
  await expectLockedInTurn(home, ids);
  return got.length;
}

describe.each(TRANSPORTS)('collisions and load (%s transport)', (transport) => {
  const env = {NUDGE_TRANSPORT: transport};

  it('20 jobs submitted at once to one pane: one at a time, in queue order, no interleaving', async () => {
    const {server, rec, home} = await recorderWorld();
    const texts = Array.from({length: 20}, (_, j) => textFor(0, j));
    const jobs = await submitMany(home, server.socket, rec.pane, texts, env, true);
    expect(jobs.size).toBe(20);
    const bytes = await expectInQueueOrder(home, rec, jobs);
    await waitForLocksFree(home);
    recordFigure({
      scenario: '20 jobs at once, one pane',
      transport,
      jobs: 20,
      accounted: 20,
      bytesVerified: bytes,
    });
  });

  it('20 panes with 5 jobs each, at once: every job correct', async () => {
    const server = await startTmuxServer();
    const recs: RecorderPane[] = [];
    for (let p = 0; p < 20; p++) recs.push(await startRecorder(server));
    const home = useNudgeHome();
    const started = Date.now();
    const perPane = await Promise.all(
      recs.map((rec, p) =>
        submitMany(
          home,
          server.socket,
          rec.pane,
          Array.from({length: 5}, (_, j) => textFor(p, j)),
          env,
          false,
        ),
      ),
    );
    let bytes = 0;
    for (const [p, jobs] of perPane.entries())
      bytes += await expectInQueueOrder(home, recs[p]!, jobs);
    const tookMs = Date.now() - started;
    await waitForLocksFree(home);
    recordFigure({
      scenario: '20 panes × 5 jobs at once',
      transport,
      jobs: 100,
      accounted: 100,
      bytesVerified: bytes,
      tookMs,
    });
  });
});

describe('a person types into the pane while a job types', () => {
  it('a program nudge cannot read (raw): both streams arrive whole, interleaved where they met', async () => {
    const {server, rec, home} = await recorderWorld();
    const text = 'x'.repeat(60);
    const id = await submitJob(
      home,
      submitArgv(
        server.socket,
        rec.pane,
        {delay: 0, typeDelay: '50ms', clear: false, notice: false},
        text,
      ),
    );
    await rec.waitForLength(10);
    const person = 'PERSON TYPED';
    await server.tmux('send-keys', '-t', rec.pane, '-l', '--', person);
    await expectJobEnd(home, id, 'done', 30_000);
    const got = (await rec.waitForLength(text.length + 1 + person.length)).toString();
    // The person's keys arrived together, where they were typed; the job's all arrived, in
    // order, and nothing was lost or doubled.
    expect(got.split(person)).toHaveLength(2);
    expect(got.replace(person, '')).toBe(`${text}\r`);
    expect(got.indexOf(person)).toBeGreaterThan(0);
    recordFigure({
      scenario: 'person types during a job (raw program)',
      jobs: 1,
      accounted: 1,
      bytesVerified: got.length,
    });
  });

  it('a shell: the mixed line is not submitted; the job fails and leaves the line to the person', async () => {
    const {server, home} = await shellAtPrompt();
    const marker = join(server.dir, 'person-ran');
    const text = `echo job ${'j'.repeat(40)}`;
    const id = await submitJob(
      home,
      submitArgv(
        server.socket,
        '%0',
        {delay: 0, typeDelay: '50ms', enterDelay: '300ms', notice: false},
        text,
      ),
    );
    await waitForEvent(home, id, 'typing');
    await server.waitForScreen('%0', /\$ echo job jj/);
    await server.tmux('send-keys', '-t', '%0', '-l', '--', ` ; touch ${marker} ; `);
    const final = await waitForJobEnd(home, id, 30_000);
    await sleep(500);
    const screen = await server.capture('%0');
    const seen = `${JSON.stringify(final)}\nscreen:\n${screen}`;
    // What the person typed was not run by us...
    expect(existsSync(marker), seen).toBe(false);
    // ...and the job does not claim a delivery that did not happen as asked.
    expect(final.state, seen).toBe('failed');
    expect(final.reason, seen).toMatch(/input line|typed into/i);
    // The line is left as it is, for the person to finish or clear.
    expect(screen, seen).toContain('touch');
    await waitFor('the pane to be free', async () => true);
    recordFigure({scenario: 'person types during a job (shell)', jobs: 1, accounted: 1});
  });
});
