// `nudge queue move|drop|edit` racing a real worker taking the head of the queue: 20 rounds.
// The test holds the pane's lock itself, queues two real jobs behind it, then lets the lock
// go at the moment it changes the queue. Whichever comes first, what the command answered is
// what happened: the order it reports is the order typed, a dropped job is never typed, an
// edit it accepted is typed as edited (and one it refused is typed as it was).
import {setTimeout as sleep} from 'node:timers/promises';
import {execa} from 'execa';
import {describe, expect, it} from 'vitest';
import {realClock} from '../../src/base/clock.js';
import {paneLockFor} from '../../src/locks/pane-lock.js';
import {dropFromQueue, editInQueue, moveInQueue, type QueueChange} from '../../src/verbs/queue.js';
import {recordFigure, submitJob, waitForEvent} from '../helpers/faults.js';
import {readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {offlineContext} from '../helpers/offline-context.js';
import {hex, recorderProfile, recorderWorld} from '../helpers/recorder-pane.js';
import {submitArgv} from '../helpers/run-nudge.js';

const CLEAR = '\x15';
const OPS = ['move', 'drop', 'edit'] as const;

describe('queue races', () => {
  it('move, drop and edit racing the worker that takes the head: 20 rounds, the answer is what happened', async () => {
    const {server, rec, home} = await recorderWorld();
    const env = recorderProfile(home);
    const ctx = offlineContext({env: {NUDGE_HOME: home}, clock: realClock});
    const [socketPath = '', pid = ''] = (
      await execa('tmux', ['-S', server.socket, 'display', '-p', '#{socket_path} #{pid}'])
    ).stdout.split(' ');
    const lock = paneLockFor(home, {socketPath, serverPid: Number(pid), pane: rec.pane});
    const tally: Record<string, number> = {};
    const quick = ['--delay', '0', '--type-delay', '0', '--no-notice', '--profile', 'recorder'];

    for (let round = 1; round <= 20; round++) {
      const op = OPS[(round - 1) % OPS.length] as (typeof OPS)[number];
      const before = (await rec.bytes()).length;
      // The test holds the pane; two real jobs queue behind it.
      const held = await lock.acquire({
        jobId: `00000000${round % 10}-hold`,
        pid: process.pid,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
      });
      if (!held.ok) throw new Error(`round ${round}: the test could not take the lock`);
      const b = await submitJob(
        home,
        submitArgv(server.socket, rec.pane, [...quick, '--', `B${round}`]),
        env,
      );
      const c = await submitJob(
        home,
        submitArgv(server.socket, rec.pane, [...quick, '--', `C${round}`]),
        env,
      );
      await waitForEvent(home, b, 'waiting-for-lock');
      await waitForEvent(home, c, 'waiting-for-lock');

      // The release and the change, a few milliseconds apart either way.
      const spread = (round * 7) % 40;
      const change = async (): Promise<QueueChange | string> => {
        await sleep(round % 2 === 0 ? spread : 0);
        try {
          if (op === 'move') return await moveInQueue({job: c, first: true}, ctx);
          if (op === 'drop') return await dropFromQueue({job: b}, ctx);
          return await editInQueue({job: b, text: `B${round}-edited`}, ctx);
        } catch (error) {
          return (error as Error).message;
        }
      };
      const release = async () => {
        await sleep(round % 2 === 1 ? spread : 0);
        await held.value.release();
      };
      const [answer] = await Promise.all([change(), release()]);

      const endB = await waitForJobEnd(home, b, 60_000);
      const endC = await waitForJobEnd(home, c, 60_000);
      const typed = (await rec.bytes()).subarray(before).toString('utf8');
      const lines = typed
        .split('\r')
        .filter(Boolean)
        .map((l) => (l.startsWith(CLEAR) ? l.slice(CLEAR.length) : l));
      const seen = `round ${round} ${op}: ${JSON.stringify(answer)}\ntyped: ${hex(typed)}\nB: ${JSON.stringify(await readJobEvents(home, b))}`;
      const applied = typeof answer !== 'string';
      if (!applied) expect(answer, seen).toMatch(/has taken the pane already/);
      tally[`${op} ${applied ? 'applied' : 'refused'}`] =
        (tally[`${op} ${applied ? 'applied' : 'refused'}`] ?? 0) + 1;

      expect(endC.state, seen).toBe('done');
      if (op === 'move') {
        expect(endB.state, seen).toBe('done');
        // The order typed is the order the command answered with.
        const order = applied ? answer.order.filter((id) => id === b || id === c) : [b, c];
        expect(lines, seen).toEqual(order.map((id) => (id === b ? `B${round}` : `C${round}`)));
      } else if (op === 'drop') {
        expect(endB.state, seen).toBe(applied ? 'cancelled' : 'done');
        expect(lines, seen).toEqual(applied ? [`C${round}`] : [`B${round}`, `C${round}`]);
      } else {
        expect(endB.state, seen).toBe('done');
        expect(lines, seen).toEqual([applied ? `B${round}-edited` : `B${round}`, `C${round}`]);
      }
    }
    recordFigure({
      scenario: 'queue move/drop/edit racing the head',
      jobs: 40,
      accounted: 40,
      outcomes: tally,
    });
  });
});
