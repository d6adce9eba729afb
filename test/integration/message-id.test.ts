/**
 * `submit --id` through the real CLI (issue 66, item 1): a send retried with the same id types
 * nothing again and answers with the first send's job (with --wait, its outcome); the same id
 * with another text is refused in one sentence, exit 2, nothing typed. What the program got is
 * checked byte for byte at a recorder pane. And the loop cap (item 5), from inside two panes.
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {expectJobEnd} from '../helpers/job-files.js';
import {jobIds, serverWorld} from '../helpers/nudge-home.js';
import {recorderWorld} from '../helpers/recorder-pane.js';
import {runNudge, submitArgs} from '../helpers/run-nudge.js';
import {runFromPane} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';

describe('submit --id', () => {
  test('sent three times: typed once, each answer the first job; another text under the id is refused', async () => {
    const {server, rec, home} = await recorderWorld();
    const env = {NUDGE_HOME: home};
    const send = (text: string, flags: Record<string, string | boolean> = {}) =>
      runNudge(
        submitArgs(server.socket, rec.pane, {id: 'review-42', noNotice: true, ...flags}, text),
        env,
      );
    const first = await send('look at the parser');
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    const job = first.stdout.trim();
    await expectJobEnd(home, job);

    const again = await send('look at the parser');
    expect([again.exitCode, again.stdout.trim()]).toEqual([0, job]);
    expect(again.stderr.trim()).toBe(
      `nudge: message review-42 was sent before as job ${job}; nothing was typed again (nudge status ${job}).`,
    );
    // With --wait and --json: the first job's outcome, marked as sent before.
    const waited = await send('look at the parser', {wait: true, json: true});
    expect(waited.exitCode, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({job, sentBefore: 'review-42', state: 'done'});

    const other = await send('something else');
    expect(other.exitCode).toBe(2);
    expect(other.stderr.trim()).toBe(
      `nudge: Message id review-42 was sent as job ${job} with another text; nothing was sent: give this message an id of its own.`,
    );
    const bad = await send('x', {id: '../etc'});
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/^nudge: --id "\.\.\/etc" is not a message id: /);

    // One job, and the recorder got the text and Enter once.
    expect(jobIds(home)).toEqual([job]);
    expect((await rec.bytes()).toString()).toBe('look at the parser\r');
  });
});

describe('the loop cap', () => {
  test('two panes that send each other messages stop at [loops] max with one sentence; each way alone never does', async () => {
    const {server, home} = await serverWorld();
    await server.waitForScreen('%0', /^\$/m);
    const b = (
      await server.tmux(
        'split-window',
        '-d',
        '-t',
        '%0',
        '-P',
        '-F',
        '#{pane_id}',
        'bash',
        '--norc',
      )
    ).trim();
    const config = useTempDir('nudge-config-');
    mkdirSync(join(config, 'nudge'), {recursive: true});
    writeFileSync(join(config, 'nudge', 'config.toml'), '[loops]\nmax = 4\n');
    const env = {NUDGE_HOME: home, XDG_CONFIG_HOME: config};
    const [inA, inB] = [await runFromPane(server, '%0'), await runFromPane(server, b)];
    // Each message as an agent's tool call sends one: from inside its pane, to the other.
    const send = (from: typeof inA, to: string, text: string) =>
      from.nudge(
        ['submit', '--pane', to, '--delay', '0', '--type-delay', '0', '--no-notice', '--', text],
        env,
      );
    for (const [from, to, text] of [
      [inA, b, ': a1'],
      [inB, '%0', ': b1'],
      [inA, b, ': a2'],
      [inB, '%0', ': b2'],
    ] as const) {
      const r = await send(from, to, text);
      expect(r.exitCode, r.stderr).toBe(0);
    }
    const fifth = await send(inA, b, ': a3');
    expect(fifth.exitCode).toBe(1);
    expect(fifth.stderr.trim()).toBe(
      `nudge: Panes %0 and ${b} sent each other 4 messages in the last 10m00s (2 from %0, 2 from ${b}): a loop, so nothing was sent; it opens again as the window passes ([loops] max in config.toml, now 4, raises the cap).`,
    );
    expect(jobIds(home)).toHaveLength(4);
  });
});
