// The loop cap: messages both ways between two panes, counted over a window; one way only is
// never a loop; config.toml's [loops] sets the cap, a bad value is one sentence.
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {newJobId} from '../../../src/jobs/request.js';
import {LOOP_DEFAULTS, loopCapOf, recentIds, refuseLoop} from '../../../src/submit/loop-cap.js';
import {useTempDir} from '../../helpers/temp-dir.js';

const S = '/tmp/tmux-0/default';
const job = (from: string, to: string, socketPath = S) => ({
  pane: to,
  socketPath,
  submittedFrom: {socketPath, pane: from},
});
const A = {socketPath: S, pane: '%1'};
const B = {socketPath: S, pane: '%2'};
const cap = {max: 4, windowMs: 600_000};

describe('the loop cap', () => {
  test('both ways, at the cap: the next is refused, naming the loop', () => {
    const records = [job('%1', '%2'), job('%2', '%1'), job('%1', '%2'), job('%2', '%1')];
    expect(() => refuseLoop(records, A, B, cap)).toThrow(
      'Panes %1 and %2 sent each other 4 messages in the last 10m00s (2 from %1, 2 from %2): a loop, so nothing was sent; it opens again as the window passes ([loops] max in config.toml, now 4, raises the cap).',
    );
    // Below the cap, it goes.
    expect(() => refuseLoop(records.slice(1), A, B, cap)).not.toThrow();
  });

  test('one way only (an agent driving its build pane), its own pane, other servers: never a loop', () => {
    const many = Array.from({length: 50}, () => job('%1', '%2'));
    expect(() => refuseLoop(many, A, B, cap)).not.toThrow();
    expect(() => refuseLoop([...many, job('%2', '%1')], A, A, cap)).not.toThrow();
    const elsewhere = [...many, job('%2', '%1', '/tmp/other')];
    expect(() => refuseLoop(elsewhere, A, B, cap)).not.toThrow();
    // A third pane's messages do not count for this pair.
    const third = [...many, job('%3', '%1')];
    expect(() => refuseLoop(third, A, B, cap)).not.toThrow();
  });

  test('only the jobs made within the window are read', () => {
    const now = 1_800_000_000_000;
    const old = newJobId(now - 700_000);
    const fresh = newJobId(now - 100_000);
    expect(recentIds([old, fresh], now, 600_000)).toEqual([fresh]);
  });

  test("config.toml's [loops]: max and window; a bad value is one sentence", () => {
    const config = useTempDir('nudge-config-');
    const write = (toml: string) => {
      mkdirSync(join(config, 'nudge'), {recursive: true});
      writeFileSync(join(config, 'nudge', 'config.toml'), toml);
    };
    const env = {XDG_CONFIG_HOME: config};
    expect(loopCapOf(env)).toEqual(LOOP_DEFAULTS);
    write('[loops]\nmax = 3\nwindow = "2m"\n');
    expect(loopCapOf(env)).toEqual({max: 3, windowMs: 120_000});
    write('[loops]\nmax = 1\n');
    expect(() => loopCapOf(env)).toThrow(/\[loops\] max must be a whole number from 2 to 10000/);
    write('[loops]\nwindow = 5\n');
    expect(() => loopCapOf(env)).toThrow(/\[loops\] window must be a duration, e.g. "10m"/);
  });
});
