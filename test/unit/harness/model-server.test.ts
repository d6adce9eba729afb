// The scripted model server the real-agent tests stand on: each wire format answers as the
// CLIs expect, side calls never take a scripted reply, and the journal reports the prompts.
import {expect, test} from 'vitest';
import {startModelServer} from '../../helpers/model-server.js';

async function post(url: string, body: unknown): Promise<{status: number; text: string}> {
  const r = await fetch(url, {
    method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify(body),
  });
  return {status: r.status, text: await r.text()};
}

test('listens on 127.0.0.1 only, on a port of its own', async () => {
  const model = await startModelServer();
  expect(model.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(model.port).toBeGreaterThan(0);
});

test("chat completions: the scripted JSON answer, as an assessor endpoint gets it (its own script: the agents' turns never take it)", async () => {
  const model = await startModelServer();
  model.script({text: 'for an agent'});
  model.scriptChat({json: {action: 'continue', injection_prompt: 'run the tests'}});
  const r = await post(`${model.url}/v1/chat/completions`, {
    model: 'm',
    messages: [
      {role: 'system', content: 'you assess'},
      {role: 'user', content: 'plan: ship it'},
    ],
  });
  expect(r.status).toBe(200);
  const content = JSON.parse(r.text).choices[0].message.content;
  expect(JSON.parse(content)).toEqual({action: 'continue', injection_prompt: 'run the tests'});
  expect(model.prompts().map((p) => p.text)).toEqual(['plan: ship it']);
});

test('Anthropic Messages: a shell tool call streams as tool_use; side calls answer from their schema', async () => {
  const model = await startModelServer();
  model.script({shell: 'nudge submit -- "!make"'});
  const title = await post(`${model.url}/v1/messages?beta=true`, {
    stream: false,
    messages: [{role: 'user', content: [{type: 'text', text: 'fix it'}]}],
    output_config: {
      format: {
        type: 'json_schema',
        schema: {type: 'object', properties: {title: {type: 'string'}}},
      },
    },
  });
  expect(JSON.parse(JSON.parse(title.text).content[0].text)).toHaveProperty('title');
  const turn = await post(`${model.url}/v1/messages?beta=true`, {
    stream: true,
    messages: [
      {
        role: 'user',
        content: [
          {type: 'text', text: '<system-reminder>ctx</system-reminder>'},
          {type: 'text', text: 'fix it'},
        ],
      },
    ],
  });
  expect(turn.text).toContain('event: message_start');
  expect(turn.text).toContain('"name":"Bash"');
  expect(turn.text).toContain('\\"command\\":\\"nudge submit -- \\\\\\"!make\\\\\\"\\"');
  expect(turn.text).toContain('"stop_reason":"tool_use"');
  // The side call did not take the scripted reply, and the reminder is not a prompt.
  expect(model.journal().filter((e) => e.side)).toHaveLength(1);
  expect(model.prompts().map((p) => p.text)).toEqual(['fix it']);
});

test('Gemini and OpenAI Responses: text and function calls in their own shapes', async () => {
  const model = await startModelServer();
  model.script({shell: 'ls'}, {text: 'done'});
  const gemini = await post(`${model.url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
    contents: [{role: 'user', parts: [{text: 'list files'}]}],
  });
  expect(gemini.text).toMatch(/^data: /);
  expect(gemini.text).toContain(
    '"functionCall":{"name":"run_shell_command","args":{"command":"ls"',
  );
  const codex = await post(`${model.url}/v1/responses`, {
    stream: true,
    input: [{type: 'message', role: 'user', content: [{type: 'input_text', text: 'and now?'}]}],
  });
  expect(codex.text).toContain('event: response.completed');
  expect(codex.text).toContain('"delta":"done"');
  expect(model.prompts().map((p) => p.text)).toEqual(['list files', 'and now?']);
});

test('a held turn ends after the hold; a message sent while the model worked is marked queued', async () => {
  const model = await startModelServer();
  model.script({holdMs: 300, reply: {text: 'late'}});
  const started = Date.now();
  const r = await post(`${model.url}/v1/messages`, {
    stream: true,
    messages: [
      {role: 'user', content: 'think long'},
      {role: 'assistant', content: 'ok'},
      {
        role: 'system',
        content: 'The user sent a new message while you were working:\nalso this',
      },
    ],
  });
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  expect(r.text).toContain('"text":"late"');
  expect(model.lastTurnEndedAt()).toBeGreaterThanOrEqual(started);
  expect(model.cutShort()).toEqual([]);
  expect(model.prompts()).toMatchObject([
    {text: 'think long', queued: false},
    {text: 'also this', queued: true},
  ]);
});

test("Claude Code's inbox messages are told apart: their body, nudge's first line, queued or not", async () => {
  const model = await startModelServer();
  const disclaimer = '\n\nThis came from another Claude session — not typed by your user.';
  await post(`${model.url}/v1/messages`, {
    stream: true,
    messages: [
      {
        role: 'user',
        content: [
          {type: 'text', text: '<system-reminder>x</system-reminder>'},
          {
            type: 'text',
            text: `Another Claude session sent a message:\nFrom nudge (not another Claude session): job j has ended.\n[SYSTEM COMMAND] Command complete. Resume.${disclaimer}`,
          },
        ],
      },
      {role: 'assistant', content: 'ok'},
      {
        role: 'system',
        content: `Another Claude session sent a message while you were working:\nplain body${disclaimer}`,
      },
    ],
  });
  expect(model.prompts()).toMatchObject([
    {
      text: '[SYSTEM COMMAND] Command complete. Resume.',
      via: 'inbox',
      queued: false,
      preface: 'From nudge (not another Claude session): job j has ended.',
    },
    {text: 'plain body', via: 'inbox', queued: true},
  ]);
});

test('a named tool call (an MCP tool) streams as tool_use with its input (Anthropic) and as a functionCall (Gemini)', async () => {
  const model = await startModelServer();
  model.script(
    {tool: 'mcp__nudge__watch_me', input: {name: 'w', plan: 'p'}},
    {tool: 'mcp_nudge_look_ma', input: {status_report: 'done'}},
  );
  const claude = await post(`${model.url}/v1/messages?beta=true`, {
    stream: true,
    messages: [{role: 'user', content: 'go'}],
  });
  expect(claude.text).toContain('"name":"mcp__nudge__watch_me"');
  expect(claude.text).toContain('"partial_json":"{\\"name\\":\\"w\\",\\"plan\\":\\"p\\"}"');
  const gemini = await post(`${model.url}/v1beta/models/m:generateContent`, {
    contents: [{role: 'user', parts: [{text: 'go'}]}],
  });
  expect(JSON.parse(gemini.text).candidates[0].content.parts[0]).toEqual({
    functionCall: {name: 'mcp_nudge_look_ma', args: {status_report: 'done'}},
  });
});

test('a hold and a stream with `until` end soon after it resolves, not after their full time; a failed signal leaves the full time', async () => {
  const model = await startModelServer();
  const turn = {
    stream: true,
    messages: [{role: 'user', content: [{type: 'text', text: 'go'}]}],
  };
  let signal: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    signal = resolve;
  });
  model.script({holdMs: 60_000, until: held, reply: {text: 'done'}});
  const started = Date.now();
  const answer = post(`${model.url}/v1/messages`, turn);
  setTimeout(signal, 200);
  expect((await answer).text).toContain('done');
  // The signal at 200 ms, then the 2 s of grace; far less than the 60 s hold.
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);

  let streamSignal: () => void = () => {};
  const streamed = new Promise<void>((resolve) => {
    streamSignal = resolve;
  });
  const words = Array.from({length: 40}, (_, i) => `w${i}`).join(' ');
  model.script({text: words, streamMs: 60_000, until: streamed});
  const started2 = Date.now();
  const answer2 = post(`${model.url}/v1/messages`, turn);
  setTimeout(streamSignal, 200);
  const text = (await answer2).text;
  for (const w of ['w0', 'w39']) expect(text).toContain(w);
  expect(Date.now() - started2).toBeLessThan(20_000);

  model.script({holdMs: 300, until: Promise.reject(new Error('timed out')), reply: {text: 'x'}});
  const started3 = Date.now();
  expect((await post(`${model.url}/v1/messages`, turn)).text).toContain('x');
  expect(Date.now() - started3).toBeGreaterThanOrEqual(290);
}, 60_000);

test('a long pasted prompt Claude Code 2.1.332 wraps in <pasted_content> is its text, whole; a prompt that only mentions the tag is left as it is', async () => {
  const model = await startModelServer();
  const text = `write it: ${'ünïcode ✓ '.repeat(40)}— the end`;
  const said = 'explain <pasted_content id="x"> please';
  for (const part of [
    `\n\n<pasted_content id="c41e">\n${text}\n</pasted_content id="c41e">\n`,
    said,
  ])
    await post(`${model.url}/v1/messages?beta=true`, {
      stream: true,
      messages: [{role: 'user', content: [{type: 'text', text: part}]}],
    });
  expect(model.prompts().map((p) => p.text)).toEqual([text, said]);
});
