/**
 * A message's receipts, dead letters and `resend` through the real CLI (issue 66, items 2 and
 * 3): the ladder each job climbs, recorded as its events and shown by `status`, `jobs` and
 * `top`; `wait --job J --until RUNG`; a message whose pane went away mid-turn listed as
 * undeliverable with why, and `resend` typing it, byte for byte and once, into another pane,
 * its message id carried on.
 */
import {describe, expect, test} from 'vitest';
import {expectJobEnd, readJobEvents, readJobState} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {runNudge, submitTo} from '../helpers/run-nudge.js';

const rungsOf = async (home: string, job: string) =>
  (await readJobEvents(home, job)).filter((e) => e.event === 'receipt').map((e) => e.rung);

describe('receipts', () => {
  test('a message held behind another climbs accepted → held → delivered → turn-started → turn-ended; wait --job follows each rung', async () => {
    const {server, home} = await serverWorld();
    await server.waitForScreen('%0', /^\$/m);
    const env = {NUDGE_HOME: home};
    const exit = ['--no-notice', '--until', 'exit'];
    const first = await submitTo(server.socket, '%0', 'sleep 2', exit, env);
    const second = await submitTo(server.socket, '%0', 'echo two', exit, env);
    expect([first.exitCode, second.exitCode], first.stderr + second.stderr).toEqual([0, 0]);

    const delivered = await runNudge(
      ['wait', '--job', second.id, '--until', 'delivered', '--timeout', '60s'],
      env,
    );
    expect(delivered.exitCode, delivered.stderr).toBe(0);
    expect(delivered.stdout).toMatch(new RegExp(`^Job ${second.id} is (delivered|turn-)`));
    const ended = await runNudge(
      ['wait', '--job', second.id, '--until', 'answered', '--json', '--timeout', '60s'],
      env,
    );
    expect(ended.exitCode, ended.stderr).toBe(0);
    expect(JSON.parse(ended.stdout)).toMatchObject({
      job: second.id,
      until: 'turn-ended',
      status: 'reached',
      receipt: {rung: 'turn-ended', why: 'the command exited with status 0'},
    });
    await expectJobEnd(home, second.id);
    expect(await rungsOf(home, second.id)).toEqual([
      'accepted',
      'held',
      'delivered',
      'turn-started',
      'turn-ended',
    ]);
    const held = (await readJobEvents(home, second.id)).find((e) => e.rung === 'held');
    expect(held?.why).toBe('behind 1 job at %0');
    const status = await runNudge(['status', second.id], env);
    expect(status.stdout).toContain('receipt turn-ended: the command exited with status 0');
    // An ended job that got through is not a dead letter, and is not resent.
    const again = await runNudge(['resend', second.id], env);
    expect(again.exitCode).toBe(2);
    expect(again.stderr.trim()).toBe(
      `nudge: Job ${second.id} got through (turn-ended: the command exited with status 0); nothing was resent: submit it again if you mean to.`,
    );
  });

  test('its pane killed mid-turn: undeliverable with why, listed as a dead letter; resend types it once into another pane, under its id', async () => {
    const {server, home} = await serverWorld();
    await server.waitForScreen('%0', /^\$/m);
    const env = {NUDGE_HOME: home};
    const flags = ['--no-notice', '--until', 'regex:NEVER-SHOWN', '--id', 'msg-7'];
    const sent = await submitTo(server.socket, '%0', 'sleep 30', flags, env);
    expect(sent.exitCode, sent.stderr).toBe(0);
    const started = await runNudge(
      ['wait', '--job', sent.id, '--until', 'turn-started', '--timeout', '60s'],
      env,
    );
    expect(started.exitCode, started.stderr).toBe(0);
    // The recipient goes away mid-turn (its agent crashed, its window closed).
    const rec = await startRecorder(server);
    await server.tmux('kill-pane', '-t', '%0');

    const short = await runNudge(['wait', '--job', sent.id, '--timeout', '60s'], env);
    expect(short.exitCode).toBe(1);
    expect(short.stdout).toMatch(/short of turn-ended: undeliverable after turn-started: Pane %0/);
    await expectJobEnd(home, sent.id, 'failed');
    const letters = await runNudge(['jobs', '--undelivered', '--json'], env);
    const listed = JSON.parse(letters.stdout) as Array<Record<string, unknown>>;
    expect(listed.map((j) => j.id)).toEqual([sent.id]);
    expect(listed[0]?.receipt).toMatchObject({rung: 'undeliverable', reached: 'turn-started'});
    const table = await runNudge(['jobs', '--undelivered'], env);
    expect(table.stdout).toMatch(new RegExp(`^${sent.id} +failed, undeliverable +%0 `, 'm'));

    const resent = await runNudge(['resend', sent.id, '--pane', rec.pane, '--json'], env);
    expect(resent.exitCode, resent.stderr).toBe(0);
    const r = JSON.parse(resent.stdout) as {resentAs: string; pane: string; id: string};
    expect(r).toMatchObject({job: sent.id, pane: rec.pane, id: 'msg-7'});
    // Typed once, byte for byte, into the other pane.
    expect((await rec.waitForLength('sleep 30\r'.length)).toString()).toBe('sleep 30\r');
    // A retry under the id, to the pane it went to now, answers with the new job.
    const retry = await submitTo(server.socket, rec.pane, 'sleep 30', flags, env);
    expect([retry.exitCode, retry.id], retry.stderr).toEqual([0, r.resentAs]);
    expect(await runNudge(['resend', sent.id], env)).toMatchObject({exitCode: 2});
    const none = await runNudge(['jobs', '--undelivered', '--json'], env);
    expect(JSON.parse(none.stdout)).toEqual([]);
    expect(await readJobState(home, r.resentAs)).toMatchObject({resentFrom: sent.id});
    expect(await readJobState(home, sent.id)).toMatchObject({resentAs: r.resentAs});
    await runNudge(['cancel', r.resentAs], env);
    expect((await rec.bytes()).toString()).toBe('sleep 30\r');
  });
});
