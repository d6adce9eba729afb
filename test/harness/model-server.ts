/**
 * A scripted model server for tests: the real agent CLIs (Claude Code, Gemini CLI, Codex) talk
 * to it on 127.0.0.1 as if it were their vendor's API, so a test can assert what an agent
 * *received* — the prompts that reached the model, in order, with their arrival times — not
 * only what its screen shows. Wire formats, and what each CLI sends: the renderers below and
 * test/unit/harness/model-server.test.ts.
 *
 *     const model = await startModelServer();           // port 0 (test/helpers: stopped after the test)
 *     model.script({shell: 'nudge submit -- "!sleep 2"'}, {text: 'Started it.'});
 *     … start the agent with agentEnv(…, {modelUrl: model.url}) and type a prompt …
 *     const notice = await model.waitForPrompt(/Command complete/);
 *
 * Routes:
 * - Anthropic Messages (`POST /v1/messages`, SSE or JSON) — Claude Code;
 * - Gemini `generateContent` / `streamGenerateContent?alt=sse` — Gemini CLI;
 * - OpenAI Responses (`POST /v1/responses`, SSE) — Codex;
 * - OpenAI Chat Completions (`POST /v1/chat/completions`, JSON) — an assessor endpoint.
 *
 * Side calls (titles, Gemini's routing and next-speaker checks: any request asking for a
 * JSON-schema answer) get an object filled in from the schema and never consume the script.
 * Every other ("turn") request takes the next scripted reply, or `{text: 'OK.'}` when the
 * script is empty. Hand-written rather than @copilotkit/aimock: its journal cuts bodies at
 * 64 KB (Claude Code's are ~80 KB), it missed Claude's title call, and it was never tried
 * with Gemini or Codex; this one has no dependencies beyond node:http.
 */
import {once} from 'node:events';
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';
import {setTimeout as sleep} from 'node:timers/promises';
import {waitFor} from './wait-for.js';

/** One scripted answer to a turn request. */
export type Reply =
  /** Answer with text and end the turn. With `streamMs`, the text streams as a real model's
   * does: word by word, spread evenly over that many milliseconds (Anthropic and Gemini
   * SSE, OpenAI Responses). */
  | {
      text: string;
      delayMs?: number;
      streamMs?: number;
      /** With `streamMs`: once this resolves, the words not yet sent follow within
       * {@link UNTIL_GRACE_MS} (the stream paces at most `streamMs`, and ends on a signal
       * rather than a guess at how long the test needs it to run). */
      until?: Promise<unknown>;
    }
  /** Call the CLI's shell tool with `command` (the turn goes on with the tool's result). */
  | {shell: string; delayMs?: number}
  /** Call the tool `name` (an MCP tool as the CLI names it: Claude Code
   * `mcp__nudge__watch_me`, Gemini CLI `watch_me`) with `input`. */
  | {tool: string; input: Record<string, unknown>; delayMs?: number}
  /** Hold the turn open — the stream started, nothing more — for `holdMs`, then answer
   * `reply`; with `until`, only until it resolves and {@link UNTIL_GRACE_MS} more (`holdMs`
   * is then the most it holds). */
  | {holdMs: number; reply?: Reply; until?: Promise<unknown>}
  /** Answer a chat-completions request with this JSON as the message content. */
  | {json: unknown}
  /** Answer with an HTTP error: `status`, these headers and this JSON body (a rate limit, a
   * usage limit as the vendor's API words it). */
  | {httpError: {status: number; headers?: Record<string, string>; body: unknown}};

/** How long a hold or a stream goes on after its `until` resolved: the agent shows what came
 * (a queued message, the notice typed) while its turn is still open. */
export const UNTIL_GRACE_MS = 2_000;

/** Sleep `ms`, or until `until` resolves and {@link UNTIL_GRACE_MS} more, whichever is first. */
async function sleepUntil(ms: number, until: Promise<unknown> | undefined): Promise<void> {
  if (!until) return void (await sleep(ms));
  const cap = new AbortController();
  await Promise.race([
    sleep(ms, undefined, {signal: cap.signal}).catch(() => {}),
    // A signal that fails (its wait timed out) leaves the full `ms`.
    until.then(
      () => sleep(UNTIL_GRACE_MS),
      () => new Promise<void>(() => {}),
    ),
  ]);
  cap.abort();
}

export type WireFormat = 'anthropic' | 'gemini' | 'responses' | 'chat';

/** A request as it arrived. */
export interface JournalEntry {
  /** Arrival time (ms since the epoch). */
  at: number;
  method: string;
  path: string;
  format: WireFormat | 'unknown';
  /** A side call (schema answer) rather than a turn. */
  side: boolean;
  body: unknown;
  /** The user prompts the conversation in this request holds, oldest first. */
  prompts: string[];
  /** The reply given (turn requests). */
  reply?: Reply;
  /** When the reply's last byte was written. */
  endedAt?: number;
  /** A turn reply: the moment just before its last write (the turn's end as the CLI can
   * first see it). */
  turnEndedAt?: number;
  /** The client closed the connection before the reply ended (a cancelled turn). */
  cutShort?: boolean;
  /** When the first streamed word of the answer was written (`streamMs` replies). */
  streamStartedAt?: number;
}

/** A user prompt as the model first received it. */
export interface ReceivedPrompt {
  text: string;
  /** Arrival time of the first request that carried it. */
  at: number;
  /** Sent as "a message while you were working" (Claude Code's queued messages). */
  queued: boolean;
  /** How it came: typed into the CLI, or through Claude Code's inbox ("Another Claude
   * session sent a message:"; `text` is then the message's body after nudge's first line). */
  via: 'typed' | 'inbox';
  /** An inbox message's first line, when nudge wrote one ("From nudge …"). */
  preface?: string;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Append replies for the next turn requests, in order. */
  script(...replies: Reply[]): void;
  /** Append replies for the next turn requests of the conversations whose first user prompt
   * matches `first` (one session among several sharing this server), in order: they never
   * take another conversation's turn, and the plain script never takes theirs. */
  scriptFor(first: RegExp, ...replies: Reply[]): void;
  /** Append replies for the next chat-completions requests (an assessor), in order: they
   * never take the agents' script, and the agents' turns never take these. */
  scriptChat(...replies: Reply[]): void;
  /** Every request so far. */
  journal(): readonly JournalEntry[];
  /** The user prompts the model received, in order of first arrival; each once. */
  prompts(): ReceivedPrompt[];
  /** Wait for a received prompt matching `pattern` (after `since`, if given). */
  waitForPrompt(
    pattern: RegExp,
    opts?: {timeoutMs?: number; since?: number},
  ): Promise<ReceivedPrompt>;
  /** Turn requests whose connection the CLI closed before the reply ended (cancelled). */
  cutShort(): JournalEntry[];
  /** Wait until `n` turn requests have arrived in all. */
  waitForTurns(n: number, timeoutMs?: number): Promise<JournalEntry>;
  /** When the most recent turn reply ended (its last byte written), ms since the epoch. */
  lastTurnEndedAt(): number | undefined;
  stop(): Promise<void>;
}

/** Start a model server on 127.0.0.1, port 0. The caller stops it (the tests' helper does
 * so when the test finishes). */
export async function startModelServer(): Promise<ModelServer> {
  const queue: Reply[] = [];
  const routes: Array<{first: RegExp; replies: Reply[]}> = [];
  const chatQueue: Reply[] = [];
  const entries: JournalEntry[] = [];
  const open = new Set<ServerResponse>();
  let turnEndedAt: number | undefined;
  let stopped = false;
  let ids = 0;
  const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${++ids}`;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, {'content-type': 'application/json'});
      res.end(JSON.stringify({error: {message: error.message}}));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const format = formatOf(req.method ?? 'GET', url.pathname);
    const b = (body ?? {}) as Record<string, unknown>;
    const schema = format === 'unknown' ? undefined : schemaOf(format, b);
    const forced = format === 'anthropic' && schema === undefined ? forcedTool(b) : undefined;
    const title = format !== 'unknown' && schema === undefined && !forced && isTitleCall(format, b);
    const entry: JournalEntry = {
      at,
      method: req.method ?? 'GET',
      path: url.pathname + url.search,
      format,
      side: schema !== undefined || forced !== undefined || title,
      body,
      prompts: format === 'unknown' ? [] : promptsOf(format, b),
    };
    entries.push(entry);
    if (format === 'unknown') {
      res.writeHead(404, {'content-type': 'application/json'});
      res.end(JSON.stringify({error: {message: `no route for ${req.method} ${url.pathname}`}}));
      return;
    }
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      if (!res.writableEnded && !stopped) entry.cutShort = true;
    });
    if (forced) {
      // A structured answer asked for as the one tool the model must call (Qwen Code's
      // permission classifier): that tool, called with an input that fits its schema.
      await answer(
        format,
        b,
        url,
        res,
        {tool: forced.name, input: fillSchema(forced.schema) as Record<string, unknown>},
        false,
      );
      entry.endedAt = Date.now();
      return;
    }
    if (schema !== undefined || title) {
      const text = title ? asideAnswer(format, b) : JSON.stringify(fillSchema(schema));
      await answer(format, b, url, res, {text}, false);
      entry.endedAt = Date.now();
      return;
    }
    const route = routes.find((r) => r.first.test(entry.prompts[0] ?? ''));
    const reply = (format === 'chat'
      ? chatQueue.shift()
      : route
        ? route.replies.shift()
        : queue.shift()) ?? {text: 'OK.'};
    entry.reply = reply;
    await answer(format, b, url, res, reply, true, entry);
    entry.endedAt = Date.now();
  }

  async function answer(
    format: WireFormat,
    body: Record<string, unknown>,
    url: URL,
    res: ServerResponse,
    reply: Reply,
    turn: boolean,
    entry?: JournalEntry,
  ): Promise<void> {
    if ('httpError' in reply) {
      const e = reply.httpError;
      res.writeHead(e.status, {'content-type': 'application/json', ...e.headers});
      res.end(JSON.stringify(e.body));
      if (turn) turnEndedAt = Date.now();
      return;
    }
    const stream =
      format === 'gemini' ? url.pathname.includes(':streamGenerateContent') : body.stream === true;
    let r: Reply = reply;
    if (stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.flushHeaders();
    }
    while ('holdMs' in r) {
      if (stream) writeOpening(format, res);
      await sleepUntil(r.holdMs, r.until);
      r = r.reply ?? {text: 'OK.'};
    }
    if ('httpError' in r) throw new Error('an httpError reply cannot follow a hold');
    if ('delayMs' in r && r.delayMs) await sleep(r.delayMs);
    if (stopped || res.destroyed) return;
    if (stream && 'text' in r && r.streamMs) {
      await streamText(format, res, r.text, r.streamMs, entry, r.until);
      if (turn && !res.destroyed) turnEndedAt = Date.now();
      if (entry && turn) entry.turnEndedAt = turnEndedAt;
      return;
    }
    const out = render(format, r, nextId, shellToolOf(format, body));
    // Mark the end before the last write: the client may close the moment it has it.
    const endedAt = Date.now();
    if (turn) turnEndedAt = endedAt;
    if (entry && turn) entry.turnEndedAt = endedAt;
    if (stream) {
      writeOpening(format, res);
      for (const event of out.events) res.write(event);
      res.end();
    } else {
      res.writeHead(200, {'content-type': 'application/json'});
      res.end(JSON.stringify(out.json));
    }
  }

  /** A text answer written word by word over `streamMs`, as a model streams: the CLI shows
   * the answer growing while the turn runs. Ends early if the client closes (cut short). */
  async function streamText(
    format: WireFormat,
    res: ServerResponse,
    text: string,
    streamMs: number,
    entry: JournalEntry | undefined,
    until: Promise<unknown> | undefined,
  ): Promise<void> {
    writeOpening(format, res);
    const words = text.match(/\S+\s*/g) ?? [text];
    let gapMs = streamMs / Math.max(1, words.length);
    // Once `until` resolves, the rest of the words follow within the grace period.
    let left = words.length;
    until?.then(
      () => {
        gapMs = Math.min(gapMs, UNTIL_GRACE_MS / Math.max(1, left));
      },
      () => {},
    );
    const id = nextId('msg');
    const write = (event: string | undefined) => {
      if (event && !res.destroyed) res.write(event);
    };
    write(streamEvent(format, 'start', '', id));
    for (const [i, word] of words.entries()) {
      if (stopped || res.destroyed) return;
      if (i === 0 && entry) entry.streamStartedAt = Date.now();
      write(streamEvent(format, 'delta', word, id));
      left = words.length - i - 1;
      await sleep(gapMs);
    }
    if (stopped || res.destroyed) return;
    for (const event of streamEnd(format, text, id)) write(event);
    res.end();
  }

  /** The first event of a stream, sent before a hold so the CLI shows a running turn. */
  function writeOpening(format: WireFormat, res: ServerResponse): void {
    if (res.destroyed || (res as ServerResponse & {openingSent?: boolean}).openingSent) return;
    (res as ServerResponse & {openingSent?: boolean}).openingSent = true;
    if (format === 'anthropic') res.write(sse('message_start', anthropicStart(nextId('msg'))));
    if (format === 'responses')
      res.write(
        sse('response.created', {
          type: 'response.created',
          response: responseObject('in_progress', []),
        }),
      );
  }

  function render(
    format: WireFormat,
    reply: Exclude<Reply, {holdMs: number} | {httpError: unknown}>,
    id: (p: string) => string,
    shellTool: ShellTool | undefined,
  ): {events: string[]; json: unknown} {
    const text = 'text' in reply ? reply.text : 'json' in reply ? JSON.stringify(reply.json) : '';
    const command = 'shell' in reply ? reply.shell : undefined;
    const call =
      'tool' in reply
        ? {name: reply.tool, input: reply.input}
        : command !== undefined && shellTool
          ? {
              name: shellTool.name,
              input: {
                [shellTool.arg]: command,
                ...(shellTool.described ? {description: 'Run the command'} : {}),
              },
            }
          : command !== undefined
            ? {name: undefined, input: undefined}
            : undefined;
    switch (format) {
      case 'anthropic': {
        const msgId = id('msg');
        if (call !== undefined) {
          const toolId = id('toolu');
          const name = call.name ?? 'Bash';
          const args = call.input ?? {command, description: 'Run the command'};
          const input = JSON.stringify(args);
          return {
            events: [
              sse('content_block_start', {
                type: 'content_block_start',
                index: 0,
                content_block: {type: 'tool_use', id: toolId, name, input: {}},
              }),
              sse('content_block_delta', {
                type: 'content_block_delta',
                index: 0,
                delta: {type: 'input_json_delta', partial_json: input},
              }),
              ...anthropicEnd('tool_use'),
            ],
            json: {
              ...anthropicStart(msgId).message,
              content: [{type: 'tool_use', id: toolId, name, input: args}],
              stop_reason: 'tool_use',
            },
          };
        }
        return {
          events: [
            sse('content_block_start', {
              type: 'content_block_start',
              index: 0,
              content_block: {type: 'text', text: ''},
            }),
            sse('content_block_delta', {
              type: 'content_block_delta',
              index: 0,
              delta: {type: 'text_delta', text},
            }),
            ...anthropicEnd('end_turn'),
          ],
          json: {
            ...anthropicStart(msgId).message,
            content: [{type: 'text', text}],
            stop_reason: 'end_turn',
          },
        };
      }
      case 'gemini': {
        const part =
          call !== undefined
            ? {
                functionCall: {
                  name: call.name ?? 'run_shell_command',
                  args: call.input ?? {command, description: 'Run it'},
                },
              }
            : {text};
        const json = {
          candidates: [{content: {role: 'model', parts: [part]}, finishReason: 'STOP', index: 0}],
          usageMetadata: {promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15},
          modelVersion: 'scripted',
        };
        return {events: [`data: ${JSON.stringify(json)}\n\n`], json};
      }
      case 'responses': {
        const item =
          call !== undefined
            ? {
                type: 'function_call',
                id: id('fc'),
                call_id: id('call'),
                name: call.name ?? 'exec_command',
                arguments: JSON.stringify(call.input ?? {cmd: command}),
                status: 'completed',
              }
            : {
                type: 'message',
                id: id('msg'),
                role: 'assistant',
                status: 'completed',
                content: [{type: 'output_text', text, annotations: []}],
              };
        const events = [
          sse('response.output_item.added', {
            type: 'response.output_item.added',
            output_index: 0,
            item,
          }),
        ];
        if (call === undefined) {
          events.push(
            sse('response.output_text.delta', {
              type: 'response.output_text.delta',
              item_id: item.id,
              output_index: 0,
              content_index: 0,
              delta: text,
            }),
          );
        }
        events.push(...responsesEnd(item));
        return {events, json: responseObject('completed', [item])};
      }
      case 'chat':
        return {
          events: [],
          json: {
            id: id('chatcmpl'),
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: 'scripted',
            choices: [
              {index: 0, message: {role: 'assistant', content: text}, finish_reason: 'stop'},
            ],
            usage: {prompt_tokens: 10, completion_tokens: 5, total_tokens: 15},
          },
        };
    }
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;

  const prompts = (): ReceivedPrompt[] => {
    const seen = new Map<string, ReceivedPrompt>();
    for (const e of entries) {
      if (e.side) continue;
      e.prompts.forEach((text, i) => {
        const key = `${i}\u0000${text}`;
        if (!seen.has(key)) seen.set(key, {...receivedAs(text), at: e.at});
      });
    }
    return [...seen.values()];
  };

  // A signal may fail before its turn comes (or with no turn at all): never unhandled.
  const handled = (replies: Reply[]) => {
    for (const reply of replies) {
      let r: Reply | undefined = reply;
      while (r) {
        if ('until' in r) r.until?.catch(() => {});
        r = 'reply' in r ? r.reply : undefined;
      }
    }
    return replies;
  };
  const model: ModelServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    script: (...replies) => void queue.push(...handled(replies)),
    scriptFor: (first, ...replies) => {
      const route = routes.find((r) => r.first.source === first.source);
      if (route) route.replies.push(...handled(replies));
      else routes.push({first, replies: handled(replies)});
    },
    scriptChat: (...replies) => void chatQueue.push(...replies),
    journal: () => entries,
    prompts,
    waitForPrompt: (pattern, o = {}) =>
      waitFor(
        `the model to receive a prompt matching ${pattern}`,
        async () => prompts().find((p) => pattern.test(p.text) && p.at >= (o.since ?? 0)),
        {
          timeoutMs: o.timeoutMs ?? 60_000,
          intervalMs: 100,
          describe: () => describePrompts(prompts()),
        },
      ),
    waitForTurns: (n, timeoutMs = 60_000) =>
      waitFor(
        `${n} turn requests at the model`,
        async () => entries.filter((e) => !e.side && e.format !== 'unknown')[n - 1],
        {timeoutMs, intervalMs: 100, describe: () => describePrompts(prompts())},
      ),
    lastTurnEndedAt: () => turnEndedAt,
    cutShort: () => entries.filter((e) => e.cutShort && !e.side),
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const res of open) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
  return model;
}

/** The received prompts, one per line, for failure messages. */
export function describePrompts(prompts: ReceivedPrompt[]): string {
  if (prompts.length === 0) return '(no prompt reached the model)';
  return prompts
    .map(
      (p) =>
        `${new Date(p.at).toISOString()}${p.queued ? ' (queued)' : ''}${p.via === 'inbox' ? ' (inbox)' : ''} ${JSON.stringify(p.text)}`,
    )
    .join('\n');
}

/** How Claude Code passes a message typed while a tool ran (as `role: "system"` content). */
const QUEUED_PREFIX = 'The user sent a new message while you were working:';

/** How Claude Code (2.1.224+) passes a message from its inbox: as a user turn, or (while a
 * tool ran) as `role: "system"` content after the tool's result; the body, then a disclaimer. */
const INBOX_MESSAGE =
  /^Another Claude session sent a message( while you were working)?:\n([\s\S]*?)\n\nThis came from another Claude session/;

/** A prompt's text as the model got it: typed, queued, or an inbox message's body. */
function receivedAs(text: string): Omit<ReceivedPrompt, 'at'> {
  const inbox = INBOX_MESSAGE.exec(text);
  if (inbox) {
    const body = inbox[2] ?? '';
    const preface = /^From nudge\b[^\n]*\n/.exec(body)?.[0];
    return {
      text: preface ? body.slice(preface.length) : body,
      queued: inbox[1] !== undefined,
      via: 'inbox',
      ...(preface ? {preface: preface.trimEnd()} : {}),
    };
  }
  const queued = text.startsWith(QUEUED_PREFIX);
  return {text: queued ? text.slice(QUEUED_PREFIX.length).trim() : text, queued, via: 'typed'};
}

/** Whether a `role: "system"` text is a message Claude Code passes on (typed or from its
 * inbox while a tool ran), not its own instructions. */
const passedOn = (text: string | undefined) =>
  !!text && (text.includes(QUEUED_PREFIX) || INBOX_MESSAGE.test(text));

function formatOf(method: string, path: string): WireFormat | 'unknown' {
  if (method !== 'POST') return 'unknown';
  if (/\/v1\/messages$/.test(path)) return 'anthropic';
  if (/:(stream)?[gG]enerateContent$/.test(path)) return 'gemini';
  if (/\/responses$/.test(path)) return 'responses';
  if (/\/chat\/completions$/.test(path)) return 'chat';
  return 'unknown';
}

/** The one tool an Anthropic request forces the model to call (`tool_choice` any or tool,
 * one tool offered): a structured side question, not a turn. */
function forcedTool(b: Record<string, unknown>): {name: string; schema: unknown} | undefined {
  const choice = (b.tool_choice ?? {}) as {type?: string};
  const tools = (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>;
  if ((choice.type !== 'any' && choice.type !== 'tool') || tools.length !== 1) return undefined;
  return {name: String(tools[0]?.name), schema: tools[0]?.input_schema};
}

/** A question a CLI asks on the side as a plain turn: a conversation's title (opencode: no
 * tools offered, and the instructions or the message ask for a title), or what the user
 * might type next (Qwen Code's follow-up suggestion, `[SUGGESTION MODE: …]`). */
function isTitleCall(format: WireFormat, b: Record<string, unknown>): boolean {
  if (format === 'chat') return false;
  const prompts = promptsOf(format, b);
  if (prompts.some((p) => p.startsWith(SUGGESTION_PREFIX))) return true;
  if (Array.isArray(b.tools) && b.tools.length > 0) return false;
  const words = JSON.stringify([b.system ?? '', b.systemInstruction ?? '', b.instructions ?? '']);
  return /\btitle\b/i.test(words) || prompts.some((p) => /^generate a title\b/i.test(p));
}

const SUGGESTION_PREFIX = '[SUGGESTION MODE:';

/** What the scripted model answers a side question: a title, or a follow-up suggestion a
 * person might take for their own typing (what the CLI shows of it is what is measured). */
function asideAnswer(format: WireFormat, b: Record<string, unknown>): string {
  return promptsOf(format, b).some((p) => p.startsWith(SUGGESTION_PREFIX))
    ? SUGGESTED_NEXT
    : 'Scripted session';
}

/** The follow-up the scripted model suggests. */
export const SUGGESTED_NEXT = 'run the tests';

/** The shell tool a CLI offers, by the names the CLIs use, and its command argument. */
interface ShellTool {
  name: string;
  arg: string;
  /** Whether it takes a `description` of the call (Claude Code's and opencode's do). */
  described: boolean;
}

const SHELL_TOOL_NAMES = ['Bash', 'bash', 'run_shell_command', 'exec_command', 'shell'];

/** The shell tool among those a request offers (each format lists them its own way), if any:
 * a `{shell}` reply calls it, so one script serves every CLI on a format. */
function shellToolOf(format: WireFormat, b: Record<string, unknown>): ShellTool | undefined {
  const offered: Array<{name: string; schema: unknown}> = [];
  for (const t of (Array.isArray(b.tools) ? b.tools : []) as Array<Record<string, unknown>>) {
    if (format === 'gemini') {
      for (const d of (t.functionDeclarations ?? []) as Array<Record<string, unknown>>)
        offered.push({name: String(d.name), schema: d.parametersJsonSchema ?? d.parameters});
    } else if (format === 'chat') {
      const f = (t.function ?? {}) as Record<string, unknown>;
      offered.push({name: String(f.name), schema: f.parameters});
    } else {
      offered.push({name: String(t.name), schema: t.input_schema ?? t.parameters});
    }
  }
  for (const name of SHELL_TOOL_NAMES) {
    const tool = offered.find((t) => t.name === name);
    if (!tool) continue;
    const props = ((tool.schema ?? {}) as {properties?: Record<string, unknown>}).properties ?? {};
    const arg = 'command' in props || !('cmd' in props) ? 'command' : 'cmd';
    return {name, arg, described: 'description' in props};
  }
  return undefined;
}

/** The JSON schema a side call asks its answer to follow, if it is a side call. */
function schemaOf(format: WireFormat, b: Record<string, unknown>): unknown {
  const get = (o: unknown, ...keys: string[]): unknown =>
    keys.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined),
      o,
    );
  switch (format) {
    case 'anthropic': {
      const f = get(b, 'output_config', 'format');
      return get(f, 'schema') ?? (f && typeof f === 'object' ? f : undefined);
    }
    case 'gemini':
      return (
        get(b, 'generationConfig', 'responseJsonSchema') ??
        get(b, 'generationConfig', 'responseSchema')
      );
    case 'responses':
      return get(b, 'text', 'format', 'schema');
    case 'chat':
      return undefined;
  }
}

/** An answer that satisfies a JSON schema well enough for a CLI's side call. */
export function fillSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (String(type ?? (s.properties ? 'object' : 'string')).toLowerCase()) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) {
        out[k] = k === 'title' ? 'Scripted session' : fillSchema(v);
      }
      return out;
    }
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return false;
    default:
      return 'scripted';
  }
}

/** Text a CLI adds to the conversation on its own (context, reminders, instructions). */
/** The text of a prompt Claude Code sent as pasted content: `<pasted_content id="c41e">`, a
 * newline, the text, a newline, `</pasted_content id="c41e">` (2.1.332; 2.1.197 sends it
 * plain). Anything else as it is. */
function unwrapPaste(text: string): string {
  const m = /^\s*<pasted_content id="([^"]+)">\n([\s\S]*)\n<\/pasted_content id="\1">\s*$/.exec(
    text,
  );
  return m ? (m[2] ?? '') : text;
}

function isInjected(text: string): boolean {
  const t = text.trimStart();
  return (
    t.startsWith('<') ||
    t.startsWith('This is the Gemini CLI') ||
    t.startsWith('# AGENTS.md') ||
    t.startsWith('Caveat:')
  );
}

/** The user prompts in a request's conversation, oldest first: typed text, not tool results
 * or context the CLI adds. */
function promptsOf(format: WireFormat, b: Record<string, unknown>): string[] {
  const texts: string[] = [];
  const add = (t: unknown) => {
    if (typeof t !== 'string') return;
    // Copilot CLI puts the time before each prompt's text; Claude Code 2.1.332 sends a long
    // pasted prompt inside `<pasted_content id="…">` lines (the text between them whole).
    const text = unwrapPaste(t.replace(/^<current_datetime>[^<]*<\/current_datetime>\s*/, ''));
    if (text.trim() && !isInjected(text)) texts.push(text.trim());
  };
  switch (format) {
    case 'anthropic':
      for (const m of (b.messages ?? []) as Array<{role: string; content: unknown}>) {
        if (m.role === 'user' || m.role === 'system') {
          if (typeof m.content === 'string') {
            if (m.role === 'user' || passedOn(m.content)) add(m.content);
            continue;
          }
          for (const part of (m.content ?? []) as Array<{type: string; text?: string}>) {
            if (part.type !== 'text') continue;
            if (m.role === 'user' || passedOn(part.text)) add(part.text);
          }
        }
      }
      break;
    case 'gemini':
      for (const c of (b.contents ?? []) as Array<{role: string; parts?: Array<{text?: string}>}>) {
        if (c.role !== 'user') continue;
        for (const part of c.parts ?? []) add(part.text);
      }
      break;
    case 'responses':
      for (const item of (Array.isArray(b.input) ? b.input : []) as Array<{
        type?: string;
        role?: string;
        content?: unknown;
      }>) {
        if (item.role !== 'user' || (item.type && item.type !== 'message')) continue;
        if (typeof item.content === 'string') add(item.content);
        else
          for (const part of (item.content ?? []) as Array<{type: string; text?: string}>) {
            if (part.type === 'input_text') add(part.text);
          }
      }
      break;
    case 'chat':
      for (const m of (b.messages ?? []) as Array<{role: string; content: unknown}>) {
        if (m.role === 'user') add(typeof m.content === 'string' ? m.content : '');
      }
      break;
  }
  return texts;
}

/** An OpenAI Responses `response` object of the scripted model. */
function responseObject(status: string, output: unknown[]) {
  return {
    id: 'resp_scripted',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    model: 'scripted',
    output,
    usage: {
      input_tokens: 10,
      input_tokens_details: {cached_tokens: 0},
      output_tokens: 5,
      output_tokens_details: {reasoning_tokens: 0},
      total_tokens: 15,
    },
  };
}

/** The events that end an OpenAI Responses stream whose one output is `item`. */
function responsesEnd(item: unknown): string[] {
  return [
    sse('response.output_item.done', {type: 'response.output_item.done', output_index: 0, item}),
    sse('response.completed', {
      type: 'response.completed',
      response: responseObject('completed', [item]),
    }),
  ];
}

/** The events that end an Anthropic Messages stream, for `stopReason`. */
function anthropicEnd(stopReason: 'tool_use' | 'end_turn'): string[] {
  return [
    sse('content_block_stop', {type: 'content_block_stop', index: 0}),
    sse('message_delta', {
      type: 'message_delta',
      delta: {stop_reason: stopReason, stop_sequence: null},
      usage: {output_tokens: 5},
    }),
    sse('message_stop', {type: 'message_stop'}),
  ];
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function anthropicStart(id: string) {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-scripted',
      content: [] as unknown[],
      stop_reason: null as string | null,
      stop_sequence: null,
      usage: {input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 0},
    },
  };
}

/** One event of a streamed text answer: its opening (`start`) or one more piece (`delta`). */
function streamEvent(
  format: WireFormat,
  kind: 'start' | 'delta',
  piece: string,
  id: string,
): string | undefined {
  switch (format) {
    case 'anthropic':
      return kind === 'start'
        ? sse('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: {type: 'text', text: ''},
          })
        : sse('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: {type: 'text_delta', text: piece},
          });
    case 'gemini':
      return kind === 'start'
        ? undefined
        : `data: ${JSON.stringify({
            candidates: [{content: {role: 'model', parts: [{text: piece}]}, index: 0}],
            modelVersion: 'scripted',
          })}\n\n`;
    case 'responses':
      return kind === 'start'
        ? sse('response.output_item.added', {
            type: 'response.output_item.added',
            output_index: 0,
            item: {type: 'message', id, role: 'assistant', status: 'in_progress', content: []},
          })
        : sse('response.output_text.delta', {
            type: 'response.output_text.delta',
            item_id: id,
            output_index: 0,
            content_index: 0,
            delta: piece,
          });
    case 'chat':
      return undefined;
  }
}

/** The closing events of a streamed text answer. */
function streamEnd(format: WireFormat, text: string, id: string): string[] {
  switch (format) {
    case 'anthropic':
      return anthropicEnd('end_turn');
    case 'gemini':
      return [
        `data: ${JSON.stringify({
          candidates: [
            {content: {role: 'model', parts: [{text: ''}]}, finishReason: 'STOP', index: 0},
          ],
          usageMetadata: {promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15},
          modelVersion: 'scripted',
        })}\n\n`,
      ];
    case 'responses': {
      const item = {
        type: 'message',
        id,
        role: 'assistant',
        status: 'completed',
        content: [{type: 'output_text', text, annotations: []}],
      };
      return responsesEnd(item);
    }
    case 'chat':
      return [];
  }
}
