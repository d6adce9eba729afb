import {expect, test} from 'vitest';
import {geminiAfterAgentTurn, geminiNeedsPerson} from '../../../src/agents/gemini.js';

test("Gemini CLI's AfterAgent hook is a finished turn; other events are not", () => {
  expect(geminiAfterAgentTurn({hook_event_name: 'AfterAgent', session_id: 'g1'})).toEqual({
    session: 'g1',
  });
  expect(geminiAfterAgentTurn({hook_event_name: 'AfterAgent'})).toEqual({});
  expect(geminiAfterAgentTurn({hook_event_name: 'BeforeAgent'})).toBeUndefined();
});

test("Gemini CLI's Notification hook: a tool permission waits for a person; nothing else does", () => {
  expect(
    geminiNeedsPerson({
      hook_event_name: 'Notification',
      notification_type: 'ToolPermission',
      message: 'Allow run_shell_command?',
    }),
  ).toEqual({kind: 'permission', message: 'Allow run_shell_command?'});
  expect(
    geminiNeedsPerson({hook_event_name: 'Notification', notification_type: 'Other'}),
  ).toBeUndefined();
  expect(geminiNeedsPerson({hook_event_name: 'AfterAgent'})).toBeUndefined();
});
