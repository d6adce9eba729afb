/**
 * `--if-busy now` in the worker: the text goes to the agent's door and nowhere else — never a
 * key; a pane at a dialog gets nothing; a door that does not take it fails the job with why.
 * A fake pane and fake doors.
 */
import {readFileSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import type {DoorAttempt, DoorTarget} from '../../../src/doors/ladder.js';
import {deliverNow} from '../../../src/job-worker/now.js';
import type {JobRecorder} from '../../../src/jobs/recorder.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {FakeTmux, NO_PANE_MEMORY, UNREAD_FOREGROUND} from '../../helpers/fake-tmux.js';
import {jobRequest} from '../../helpers/job-request.js';

function world(attempts: DoorAttempt[], screen = '❯ ') {
  const tmux = new FakeTmux({currentCommand: 'claude'});
  tmux.prompt = screen;
  const posted: Array<{target: DoorTarget; text: string}> = [];
  const deps = {
    tmux,
    clock: new FakeClock(),
    pid: 7,
    recorder: {event: async () => {}} as unknown as JobRecorder,
    foreground: UNREAD_FOREGROUND,
    paneMemory: NO_PANE_MEMORY,
    doors: {
      deliver: async (_specs: unknown, target: DoorTarget, text: string) => {
        posted.push({target, text});
        return attempts;
      },
    },
  };
  const request = jobRequest({text: 'review the diff', given: {profile: 'claude'}});
  return {deps, tmux, posted, request};
}

const signal = new AbortController().signal;

describe('deliverNow', () => {
  test('the door takes it: done, queued behind the turn; the text whole, as a text; no key', async () => {
    const w = world([{door: 'claude-inbox', result: 'delivered', delivery: 'queued', ms: 40}]);
    expect(await deliverNow(w.deps, w.request, signal)).toEqual({
      state: 'done',
      notified: false,
      delivery: 'queued',
    });
    expect(w.posted).toEqual([
      {
        target: {pane: '%1', panePid: 100, jobId: w.request.jobId, purpose: 'text'},
        text: 'review the diff',
      },
    ]);
    expect(w.tmux.calls.filter((c) => c[0] !== 'view')).toEqual([]);
  });

  test('no door takes it: failed with each reason, and nothing typed instead', async () => {
    const w = world([
      {door: 'claude-inbox', result: 'not-applicable', why: 'its inbox is off', ms: 3},
    ]);
    const r = await deliverNow(w.deps, w.request, signal);
    expect(r).toEqual({
      state: 'failed',
      notified: false,
      reason:
        'No door took the text (claude-inbox: its inbox is off); nothing was typed (--if-busy now).',
    });
    expect(w.tmux.calls.filter((c) => c[0] !== 'view')).toEqual([]);
  });

  test('a pane at a dialog: blocked, and nothing is posted', async () => {
    const dialog = readFileSync(
      new URL('../../fixtures/screens/claude-permission-bash.txt', import.meta.url),
      'utf8',
    );
    const w = world([], dialog);
    const r = await deliverNow(w.deps, w.request, signal);
    expect(r.state).toBe('blocked');
    expect(r.blocked).toMatchObject({kind: 'permission', pane: '%1'});
    expect(w.posted).toEqual([]);
  });
});
