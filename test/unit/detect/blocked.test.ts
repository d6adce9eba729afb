import {describe, expect, test} from 'vitest';
import {PROFILES} from '../../../src/agents/registry.js';
import {endingOnDialogs, signalledNeed} from '../../../src/detect/blocked.js';
import type {Watcher} from '../../../src/detect/watchers.js';
import {capturedScreen} from '../../helpers/pane-views.js';

/** A condition that never holds: whatever ends the wait is the dialog. */
const pending: Watcher = {historyRows: 0, observe: () => ({status: 'pending', why: 'not yet'})};
const now = () => 1_000;

describe('any wait ends when the agent waits for a person', () => {
  test("a permission dialog on the agent's screen ends it blocked, with the question", async () => {
    const w = endingOnDialogs(pending, PROFILES.claude!, now);
    const view = capturedScreen('claude-permission-bash');
    await w.prepare?.(view);
    const verdict = w.observe(view);
    expect(verdict.status).toBe('blocked');
    expect(verdict.status === 'blocked' && verdict.dialog.kind).toBe('permission');
  });

  test('its idle composer does not: the condition decides', async () => {
    const w = endingOnDialogs(pending, PROFILES.claude!, now);
    expect(w.observe(capturedScreen('claude-idle-empty')).status).toBe('pending');
  });

  test('a profile without dialogs and no hook signal: the condition alone', () => {
    expect(endingOnDialogs(pending, PROFILES.shell, now)).toBe(pending);
    expect(endingOnDialogs(pending, undefined, now)).toBe(pending);
  });

  test("the agent's hook signal counts when newer than the wait and no composer or busy line shows", () => {
    const mark = {
      source: 'hook',
      kind: 'permission' as const,
      message: 'Allow Bash?',
      atMs: 2_000,
      pane: '%1',
    };
    const dialog = capturedScreen('claude-permission-bash');
    expect(signalledNeed(PROFILES.claude!, dialog, mark, 1_000)).toMatchObject({
      kind: 'permission',
      question: 'Allow Bash?',
      detail: ['reported by hook'],
    });
    expect(signalledNeed(PROFILES.claude!, dialog, mark, 3_000)).toBeUndefined();
    expect(
      signalledNeed(PROFILES.claude!, capturedScreen('claude-idle-empty'), mark, 1_000),
    ).toBeUndefined();
    expect(signalledNeed(PROFILES.claude!, dialog, undefined, 1_000)).toBeUndefined();
  });

  test("the agent's word and the screen disagree (it says waiting, its composer shows): the verdict says so", async () => {
    const said = {
      source: 'claude session record',
      kind: 'question' as const,
      message: 'Claude Code waits for a person (its session record says: waiting for dialog open)',
      atMs: 2_000,
      pane: '%1',
    };
    const w = endingOnDialogs(pending, PROFILES.claude!, now, undefined, {
      read: async () => said,
      since: 1_000,
    });
    const view = capturedScreen('claude-idle-empty');
    await w.prepare?.(view);
    expect(w.observe(view)).toEqual({
      status: 'pending',
      why: 'not yet; claude session record says: Claude Code waits for a person (its session record says: waiting for dialog open), but the screen shows no dialog',
    });
  });
});
