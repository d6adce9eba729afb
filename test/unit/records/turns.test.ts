import {describe, expect, test} from 'vitest';
import {entriesOf} from '../../../src/records/formats.js';
import {replyOfTurn} from '../../../src/records/turns.js';

const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join('\n');
const T = (s: number) => `2026-12-03T10:00:${String(s).padStart(2, '0')}.000Z`;

describe('Claude Code transcript', () => {
  const user = (text: unknown, s: number, extra = {}) => ({
    type: 'user',
    timestamp: T(s),
    message: {role: 'user', content: text},
    ...extra,
  });
  const said = (id: string, content: unknown[], s: number, extra = {}) => ({
    type: 'assistant',
    timestamp: T(s),
    message: {id, content, usage: {input_tokens: 10, output_tokens: 5}},
    ...extra,
  });
  // As 2.1.197 writes a first turn: the tool call's line before the prompt's, joined to it by
  // parentUuid (through an attachment line that is no entry).
  const record = lines(
    said('m1', [{type: 'tool_use', name: 'Bash'}], 2, {uuid: 'a1', parentUuid: 'at'}),
    user('first question', 1, {uuid: 'u1'}),
    {type: 'attachment', uuid: 'at', parentUuid: 'u1'},
    user([{type: 'tool_result', content: 'hi'}], 3),
    said('m2', [{type: 'text', text: 'Line one\nline two'}], 4),
    user('<command-caveat>', 5, {isMeta: true}),
    user('second question', 6),
    said('m3', [{type: 'text', text: 'second '}], 7),
    said('m3', [{type: 'text', text: 'reply'}], 7),
  );

  test('the final message of the turn, its parts joined; each turn its own', () => {
    const entries = entriesOf('claude-transcript', record);
    expect(replyOfTurn(entries, 'first question')).toMatchObject({
      text: 'Line one\nline two',
      durationMs: 3000,
      // Two requests: the tool call (written before the prompt) and the answer.
      tokens: {input: 20, output: 10},
    });
    expect(replyOfTurn(entries, 'second question')?.text).toBe('second reply');
    expect(replyOfTurn(entries, 'third question')).toBeUndefined();
  });

  test('the same words asked twice: the last turn', () => {
    const again = `${record}\n${lines(user('first question', 8), said('m4', [{type: 'text', text: 'again'}], 9))}`;
    expect(replyOfTurn(entriesOf('claude-transcript', again), 'first question')?.text).toBe(
      'again',
    );
  });

  test("a first answer written before its prompt (no tool call): still the turn's", () => {
    const first = lines(
      said('m1', [{type: 'text', text: 'only answer'}], 2, {uuid: 'a1', parentUuid: 'u1'}),
      user('q', 1, {uuid: 'u1'}),
    );
    expect(replyOfTurn(entriesOf('claude-transcript', first), 'q')?.text).toBe('only answer');
  });

  test('a turn with no text yet (a tool call running) has no reply', () => {
    const open = lines(user('q', 1), said('m1', [{type: 'tool_use'}], 2));
    expect(replyOfTurn(entriesOf('claude-transcript', open), 'q')).toBeUndefined();
  });

  test("background work that ended: the turn Claude starts on its own is the prompt's (settled)", () => {
    // As 2.1.197 and 2.1.332 record a background shell's end.
    const settled = lines(
      user('start the thing', 1, {origin: {kind: 'human'}, promptSource: 'typed'}),
      said('m1', [{type: 'text', text: 'Started it in the background.'}], 2),
      user('<task-notification>\n<status>completed</status>\n</task-notification>', 14, {
        origin: {kind: 'task-notification'},
        promptSource: 'system',
      }),
      said('m2', [{type: 'text', text: 'The background command finished.'}], 15),
    );
    expect(replyOfTurn(entriesOf('claude-transcript', settled), 'start the thing')).toMatchObject({
      text: 'The background command finished.',
      durationMs: 14_000,
    });
  });

  test('a line cut short (a tail read, a line being written) is left out', () => {
    const cut = `{"type":"assistant","mess\n${lines(user('q', 1), said('m', [{type: 'text', text: 'ok'}], 2))}\n{"type":`;
    expect(replyOfTurn(entriesOf('claude-transcript', cut), 'q')?.text).toBe('ok');
  });
});

describe('Gemini CLI chat', () => {
  test('a message written again replaces itself; $set of messages replaces the list', () => {
    const record = lines(
      {sessionId: 's'},
      {$set: {messages: [{id: 'c', type: 'user', content: [{text: '<session_context>'}]}]}},
      {id: 'u1', timestamp: T(1), type: 'user', content: [{text: 'q'}]},
      {id: 'g1', timestamp: T(2), type: 'gemini', content: '', tokens: {input: 10, output: 5}},
      // Written again whole, the tool call added (as 0.61.0 does).
      {
        id: 'g1',
        timestamp: T(2),
        type: 'gemini',
        content: '',
        tokens: {input: 10, output: 5},
        toolCalls: [{name: 'x'}],
      },
      {id: 'u2', timestamp: T(3), type: 'user', content: [{functionResponse: {}}]},
      {id: 'g2', timestamp: T(4), type: 'gemini', content: 'Réponse\nfin', tokens: {output: 7}},
      {$set: {lastUpdated: T(4)}},
    );
    expect(replyOfTurn(entriesOf('gemini-chat', record), 'q')).toMatchObject({
      text: 'Réponse\nfin',
      tokens: {output: 12},
    });
  });
});

describe('Codex rollout', () => {
  test("the turn's recorded end, its tokens; the context Codex adds is no prompt", () => {
    const item = (payload: unknown, s: number) => ({
      timestamp: T(s),
      type: 'response_item',
      payload,
    });
    const event = (payload: unknown, s: number) => ({timestamp: T(s), type: 'event_msg', payload});
    const msg = (role: string, type: string, text: string) => ({
      type: 'message',
      role,
      content: [{type, text}],
    });
    const record = lines(
      item(msg('user', 'input_text', 'q'), 1),
      item(msg('user', 'input_text', '<environment_context>\n</environment_context>'), 1),
      event(
        {type: 'token_count', info: {last_token_usage: {input_tokens: 10, output_tokens: 5}}},
        2,
      ),
      item(msg('assistant', 'output_text', 'the answer'), 3),
      event(
        {type: 'token_count', info: {last_token_usage: {input_tokens: 10, output_tokens: 5}}},
        3,
      ),
      event({type: 'task_complete', last_agent_message: 'the answer', duration_ms: 1234}, 3),
    );
    expect(replyOfTurn(entriesOf('codex-rollout', record), 'q')).toMatchObject({
      text: 'the answer',
      durationMs: 1234,
      tokens: {input: 20, output: 10},
    });
  });
});

describe('Pi session and Copilot CLI events', () => {
  test('Pi: the assistant text after tool results, with its cost', () => {
    const m = (role: string, content: unknown, s: number, usage?: unknown) => ({
      type: 'message',
      id: `i${s}`,
      timestamp: T(s),
      message: {role, content, ...(usage ? {usage} : {})},
    });
    const record = lines(
      m('user', [{type: 'text', text: 'q'}], 1),
      m('assistant', [{type: 'toolCall', name: 'bash'}], 2, {output: 5, cost: {total: 0.01}}),
      m('toolResult', [{type: 'text', text: 'hi'}], 3),
      m('assistant', [{type: 'text', text: 'done'}], 4, {output: 5, cost: {total: 0.02}}),
    );
    expect(replyOfTurn(entriesOf('pi-session', record), 'q')).toMatchObject({
      text: 'done',
      tokens: {output: 10, cost: 0.03},
    });
  });

  test('Copilot: the last assistant message; tokens from the usage records', () => {
    const e = (type: string, data: unknown, s: number) => ({type, data, timestamp: T(s)});
    const record = lines(
      e('user.message', {content: 'q'}, 1),
      e('session.usage_record', {usage: {inputTokens: 10, outputTokens: 5, cost: 0}}, 2),
      e('assistant.message', {messageId: 'a', content: ''}, 2),
      e('assistant.message', {messageId: 'b', content: 'done'}, 3),
    );
    expect(replyOfTurn(entriesOf('copilot-events', record), 'q')).toMatchObject({
      text: 'done',
      tokens: {input: 10, output: 5, cost: 0},
    });
  });
});

describe("opencode's server", () => {
  test('the session messages: the last assistant text, tokens with cache and cost', () => {
    const m = (role: string, parts: unknown[], created: number, extra = {}) => ({
      info: {role, id: `m${created}`, time: {created, completed: created + 5}, ...extra},
      parts,
    });
    const record = JSON.stringify([
      m('user', [{type: 'text', text: 'q'}], 1000),
      m('assistant', [{type: 'tool', tool: 'bash'}], 2000, {
        tokens: {input: 10, output: 5, cache: {read: 1, write: 0}},
        cost: 0.5,
      }),
      m('assistant', [{type: 'text', text: 'fin\nal'}], 3000, {
        tokens: {input: 10, output: 5, cache: {read: 1, write: 0}},
        cost: 0.25,
      }),
      m('user', [{type: 'text', text: 'not typed', synthetic: true}], 4000),
    ]);
    expect(replyOfTurn(entriesOf('opencode-server', record), 'q')).toMatchObject({
      text: 'fin\nal',
      promptAtMs: 1000,
      tokens: {input: 20, output: 10, cacheRead: 2, cacheWrite: 0, cost: 0.75},
    });
    expect(entriesOf('opencode-server', 'not json')).toEqual([]);
  });
});
