import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {NudgeError} from '../../../src/base/errors.js';
import {type SubmitContext, submitJob} from '../../../src/submit/submit-job.js';
import {FakeTmux, UNREAD_FOREGROUND} from '../../helpers/fake-tmux.js';
import {treeWith} from '../../helpers/fake-tree.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** A context whose tmux is `tmux`, and whose process tree proves nothing. */
function context(tmux: FakeTmux, home: string): SubmitContext & {asked: number} {
  const ctx = {
    asked: 0,
    env: {NUDGE_HOME: home},
    pid: 1,
    cwd: home,
    signal: new AbortController().signal,
    readStdinBytes: async () => new Uint8Array(),
    clock: {now: () => Date.parse('2026-12-03T10:00:00Z'), sleep: async () => {}},
    tmux: () => {
      ctx.asked++;
      return tmux;
    },
    tree: treeWith(),
    foreground: UNREAD_FOREGROUND,
    workerEntry: '/nonexistent/job-worker.js',
  };
  return ctx as unknown as SubmitContext & {asked: number};
}

const refusal = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  return e instanceof NudgeError ? e.code : e;
};

describe('submitJob: what submit and ask share', () => {
  test('empty text is refused before tmux is asked anything, nothing recorded', async () => {
    const home = useTempDir('nudge-home-');
    const ctx = context(new FakeTmux({paneId: '%3'}), home);
    expect(await refusal(submitJob({pane: '%3', text: '  '}, ctx))).toBe('empty-text');
    expect(ctx.asked).toBe(0);
    expect(existsSync(join(home, 'jobs'))).toBe(false);
  });

  test('a pane that is not there is refused; no job is made and nothing is typed', async () => {
    const home = useTempDir('nudge-home-');
    const tmux = new FakeTmux({paneId: '%3'});
    const ctx = context(tmux, home);
    expect(await refusal(submitJob({pane: '%9', text: 'npm test'}, ctx))).toBe('no-such-pane');
    expect(tmux.typed()).toBe('');
    expect(existsSync(join(home, 'jobs'))).toBe(false);
  });
});
