import {expect, test} from 'vitest';
import {codexNotifyTurn} from '../../../src/agents/codex.js';

test("Codex's notify program: only agent-turn-complete is a finished turn, with its thread", () => {
  expect(codexNotifyTurn({type: 'agent-turn-complete', 'thread-id': 't9'})).toEqual({
    session: 't9',
  });
  expect(codexNotifyTurn({type: 'agent-turn-complete'})).toEqual({});
  expect(codexNotifyTurn({type: 'approval-requested'})).toBeUndefined();
  expect(codexNotifyTurn(undefined)).toBeUndefined();
});
