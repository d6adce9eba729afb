import {expect, test} from 'vitest';
import {claudeNeedsPerson, claudeStopTurn} from '../../../src/agents/claude.js';

test("Claude Code's Stop hook: every call is a finished turn, with its session when named", () => {
  expect(claudeStopTurn({session_id: 's1', stop_hook_active: false})).toEqual({session: 's1'});
  expect(claudeStopTurn({})).toEqual({});
  expect(claudeStopTurn(undefined)).toEqual({});
});

test("Claude Code's Notification hook: a permission prompt or an MCP question waits for a person; idle does not", () => {
  expect(
    claudeNeedsPerson({
      notification_type: 'permission_prompt',
      message: 'Claude needs your permission to use Bash',
    }),
  ).toEqual({kind: 'permission', message: 'Claude needs your permission to use Bash'});
  expect(claudeNeedsPerson({notification_type: 'elicitation_dialog'})).toEqual({
    kind: 'question',
    message: '',
  });
  expect(claudeNeedsPerson({notification_type: 'idle_prompt', message: 'waiting'})).toBeUndefined();
  expect(claudeNeedsPerson(undefined)).toBeUndefined();
});
