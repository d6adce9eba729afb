import type {RecordFormat} from '../agents/replies.js';
import type {Entry, Tokens} from './turns.js';

/**
 * The record formats nudge reads a reply from, each read into entries (src/records/turns.ts):
 * measured on the real CLIs at the scripted model server (test/explore/records.explore.ts;
 * docs/ask.md says where each keeps them).
 *
 * - `claude-transcript`: Claude Code's `projects/<folder>/<session>.jsonl` — a `user` line
 *   with the prompt (a string, or text blocks; tool results are blocks of a `user` line too,
 *   not prompts), an `assistant` line per content block, the parts of one message sharing
 *   `message.id`, each with the message's `usage`.
 * - `qwen-chat`: Qwen Code's `projects/<folder>/chats/<session>.jsonl` — `user` lines of
 *   `provenance: "real_user"`, `assistant` lines with `message.parts` and `usageMetadata`.
 * - `gemini-chat`: Gemini CLI's `tmp/<project>/chats/session-*.jsonl` — messages (`user`,
 *   `gemini`) each a line, a message written again when it changes (by `id`), and `$set`
 *   lines that replace the list; an older whole-file `session-*.json` holds `messages`.
 * - `codex-rollout`: Codex's `sessions/YYYY/MM/DD/rollout-*.jsonl` — `response_item`
 *   messages (`user`, `assistant`), `event_msg` `token_count` per request and `task_complete`
 *   with the turn's `last_agent_message`.
 * - `pi-session`: Pi's `agent/sessions/<folder>/<time>_<id>.jsonl` — `message` lines whose
 *   `message.role` is `user`, `assistant` (text and tool-call blocks, `usage` with `cost`) or
 *   `toolResult`.
 * - `copilot-events`: Copilot CLI's `session-state/<id>/events.jsonl` — `user.message`,
 *   `assistant.message` (`content`), `session.usage_record` (tokens and cost per request).
 * - `opencode-server`: opencode keeps its sessions in a SQLite database; its own server (when
 *   started with `--port`) gives a session's messages: `[{info: {role, time, tokens, cost},
 *   parts: [{type: 'text', text}, {type: 'tool'}]}]`.
 */

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const timeOf = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : Number.NaN;
  return Number.isFinite(t) ? t : undefined;
};

/** What each agent's record calls its token counts. */
const TOKEN_NAMES = {
  claude: {
    input: 'input_tokens',
    output: 'output_tokens',
    cacheRead: 'cache_read_input_tokens',
    cacheWrite: 'cache_creation_input_tokens',
  },
  qwen: {
    input: 'promptTokenCount',
    output: 'candidatesTokenCount',
    cacheRead: 'cachedContentTokenCount',
    total: 'totalTokenCount',
  },
  gemini: {input: 'input', output: 'output', cacheRead: 'cached', total: 'total'},
  codex: {
    input: 'input_tokens',
    output: 'output_tokens',
    cacheRead: 'cached_input_tokens',
    total: 'total_tokens',
  },
  pi: {
    input: 'input',
    output: 'output',
    cacheRead: 'cacheRead',
    cacheWrite: 'cacheWrite',
    total: 'totalTokens',
  },
  copilot: {
    input: 'inputTokens',
    output: 'outputTokens',
    cacheRead: 'cacheReadTokens',
    cacheWrite: 'cacheWriteTokens',
    cost: 'cost',
  },
} satisfies Record<string, Partial<Record<keyof Tokens, string>>>;

/** A record's token counts, its field names for each of ours (`{input: 'input_tokens'}`). */
function tokensOf(
  usage: unknown,
  names: Partial<Record<keyof Tokens, string>>,
): Tokens | undefined {
  if (!isObject(usage)) return undefined;
  const out: Tokens = {};
  for (const [ours, theirs] of Object.entries(names) as Array<[keyof Tokens, string]>) {
    const v = num(usage[theirs]);
    if (v !== undefined) out[ours] = v;
  }
  return out;
}

/** The JSON values of a JSON Lines text; a line that is not JSON (cut short) is left out. */
export function jsonLines(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isObject(v)) out.push(v);
    } catch {
      // a line being written, or cut at the start of a tail read
    }
  }
  return out;
}

/** The formats written a line an entry (JSON Lines), each line's reader. */
const BY_LINE = {
  'codex-rollout': codexEntry,
  'pi-session': piEntry,
  'copilot-events': copilotEntry,
} as const;

/** The entries of a record's text in `format`. */
export function entriesOf(format: RecordFormat, text: string): Entry[] {
  // Claude Code may write a turn's first lines out of order (2.1.197 wrote a session's first
  // answer before its prompt): each line after its parent.
  if (format === 'claude-transcript') return parentsFirst(jsonLines(text)).flatMap(claudeEntry);
  if (format === 'qwen-chat') return parentsFirst(jsonLines(text)).flatMap(qwenEntry);
  if (format === 'gemini-chat') return geminiEntries(text);
  if (format === 'opencode-server') return opencodeEntries(text);
  return jsonLines(text).flatMap(BY_LINE[format]);
}

/**
 * Lines in an order where each follows its parent (`parentUuid` names the line it answers):
 * the file's order, but a line whose parent comes later in the file waits for it. Linear in
 * the lines (each is placed once); a parent missing from the text (before a tail read) is no
 * wait.
 */
export function parentsFirst(lines: readonly Json[]): Json[] {
  const byId = new Map<string, Json>();
  for (const l of lines) if (typeof l.uuid === 'string') byId.set(l.uuid, l);
  const placed = new Set<Json>();
  const out: Json[] = [];
  for (const line of lines) {
    const chain: Json[] = [];
    for (let at: Json | undefined = line; at && !placed.has(at); ) {
      placed.add(at);
      chain.push(at);
      at = typeof at.parentUuid === 'string' ? byId.get(at.parentUuid) : undefined;
    }
    out.push(...chain.reverse());
  }
  return out;
}

/** The text of blocks `[{type: 'text', text}, {type: 'tool_use'}]` (or of a string): the
 * blocks of `textType`, joined. */
function textOfBlocks(content: unknown, textType: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Json => isObject(b) && b.type === textType)
    .map((b) => str(b.text) ?? '')
    .join('');
}

function claudeEntry(line: Json): Entry[] {
  const message = isObject(line.message) ? line.message : undefined;
  if (!message) return [];
  const atMs = timeOf(line.timestamp);
  if (line.type === 'user') {
    // Meta lines (a command's caveat), tool results and a side chain are no prompt; nor is
    // the notice of background work that ended (2.1.197, 2.1.332: `origin.kind:
    // task-notification`): the turn it starts belongs to the prompt's, which settles with it.
    if (line.isMeta === true || line.isSidechain === true) return [];
    if (isObject(line.origin) && line.origin.kind === 'task-notification') return [];
    const c = message.content;
    const blocks = Array.isArray(c) ? c.filter(isObject) : [];
    if (blocks.some((b) => b.type === 'tool_result')) return [];
    return [{kind: 'prompt', text: textOfBlocks(c, 'text'), atMs}];
  }
  if (line.type !== 'assistant' || line.isSidechain === true) return [];
  const tokens = tokensOf(message.usage, TOKEN_NAMES.claude);
  return [
    {kind: 'reply', text: textOfBlocks(message.content, 'text'), id: str(message.id), atMs, tokens},
  ];
}

/** Gemini's and Qwen's parts: `[{text}, {functionCall}, {text, thought: true}]`. */
function textOfParts(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((p): p is Json => isObject(p) && typeof p.text === 'string' && p.thought !== true)
    .map((p) => p.text as string)
    .join('');
}

function qwenEntry(line: Json): Entry[] {
  const message = isObject(line.message) ? line.message : undefined;
  if (!message) return [];
  const atMs = timeOf(line.timestamp);
  if (line.type === 'user' && line.provenance === 'real_user')
    return [{kind: 'prompt', text: textOfParts(message.parts), atMs}];
  if (line.type !== 'assistant') return [];
  const tokens = tokensOf(line.usageMetadata, TOKEN_NAMES.qwen);
  return [{kind: 'reply', text: textOfParts(message.parts), id: str(line.uuid), atMs, tokens}];
}

/** Gemini's chat: the messages as they stand at the end of the file (a message written again
 * replaces its earlier self; a `$set` of `messages` replaces the list). */
function geminiEntries(text: string): Entry[] {
  const order: string[] = [];
  const byId = new Map<string, Json>();
  const put = (m: Json, i: number) => {
    const id = str(m.id) ?? `#${i}`;
    if (!byId.has(id)) order.push(id);
    byId.set(id, m);
  };
  const trimmed = text.trimStart();
  // An older Gemini CLI writes the whole chat as one JSON object.
  const whole = trimmed.startsWith('{') && !trimmed.includes('\n{') ? jsonLines(trimmed) : [];
  const lines = whole.length === 1 && Array.isArray(whole[0]?.messages) ? whole : jsonLines(text);
  lines.forEach((line, i) => {
    const set = isObject(line.$set) ? line.$set : line;
    if (Array.isArray(set.messages)) {
      if (set !== line) {
        order.length = 0;
        byId.clear();
      }
      for (const [j, m] of set.messages.filter(isObject).entries()) put(m, i * 1e6 + j);
    } else if (typeof line.type === 'string' && line.id !== undefined) put(line, i);
  });
  return order.flatMap((id): Entry[] => {
    const m = byId.get(id) as Json;
    const atMs = timeOf(m.timestamp);
    if (m.type === 'user') {
      const prompt = textOfParts(m.content);
      return prompt === '' ? [] : [{kind: 'prompt', text: prompt, atMs}];
    }
    if (m.type !== 'gemini') return [];
    const tokens = tokensOf(m.tokens, TOKEN_NAMES.gemini);
    return [{kind: 'reply', text: textOfParts(m.content), atMs, tokens}];
  });
}

/** What Codex puts in a user message that a person did not type. */
const CODEX_CONTEXT = /^\s*<(environment_context|user_instructions|turn_aborted)>/;

function codexEntry(line: Json): Entry[] {
  const p = isObject(line.payload) ? line.payload : undefined;
  if (!p) return [];
  const atMs = timeOf(line.timestamp);
  if (line.type === 'response_item' && p.type === 'message') {
    if (p.role === 'user') {
      const text = textOfBlocks(p.content, 'input_text');
      return CODEX_CONTEXT.test(text) ? [] : [{kind: 'prompt', text, atMs}];
    }
    if (p.role === 'assistant')
      return [{kind: 'reply', text: textOfBlocks(p.content, 'output_text'), id: str(p.id), atMs}];
    return [];
  }
  if (line.type !== 'event_msg') return [];
  if (p.type === 'token_count') {
    const info = isObject(p.info) ? p.info : undefined;
    const last = info && isObject(info.last_token_usage) ? info.last_token_usage : undefined;
    const tokens = tokensOf(last, TOKEN_NAMES.codex);
    return tokens ? [{kind: 'tokens', tokens}] : [];
  }
  if (p.type === 'task_complete')
    return [{kind: 'end', reply: str(p.last_agent_message), durationMs: num(p.duration_ms), atMs}];
  return [];
}

function piEntry(line: Json): Entry[] {
  const m = line.type === 'message' && isObject(line.message) ? line.message : undefined;
  if (!m) return [];
  const atMs = timeOf(line.timestamp);
  if (m.role === 'user') return [{kind: 'prompt', text: textOfBlocks(m.content, 'text'), atMs}];
  if (m.role !== 'assistant') return [];
  const u = m.usage;
  const tokens = tokensOf(u, TOKEN_NAMES.pi);
  const cost = isObject(u) && isObject(u.cost) ? num(u.cost.total) : undefined;
  if (tokens && cost !== undefined) tokens.cost = cost;
  return [{kind: 'reply', text: textOfBlocks(m.content, 'text'), id: str(line.id), atMs, tokens}];
}

function copilotEntry(line: Json): Entry[] {
  const d = isObject(line.data) ? line.data : undefined;
  if (!d) return [];
  const atMs = timeOf(line.timestamp);
  switch (line.type) {
    case 'user.message':
      return [{kind: 'prompt', text: str(d.content) ?? '', atMs}];
    case 'assistant.message':
      return [{kind: 'reply', text: str(d.content) ?? '', id: str(d.messageId), atMs}];
    case 'session.usage_record': {
      const tokens = tokensOf(d.usage, TOKEN_NAMES.copilot);
      return tokens ? [{kind: 'tokens', tokens}] : [];
    }
    default:
      return [];
  }
}

/** opencode's messages, as its server gives them (a JSON array). */
function opencodeEntries(text: string): Entry[] {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).flatMap((m): Entry[] => {
    const info = isObject(m.info) ? m.info : {};
    const parts = Array.isArray(m.parts) ? m.parts.filter(isObject) : [];
    const words = parts
      .filter((p) => p.type === 'text' && p.synthetic !== true)
      .map((p) => str(p.text) ?? '')
      .join('');
    const time = isObject(info.time) ? info.time : {};
    const atMs = num(time.completed) ?? num(time.created);
    if (info.role === 'user') return [{kind: 'prompt', text: words, atMs: num(time.created)}];
    if (info.role !== 'assistant') return [];
    const t = isObject(info.tokens) ? info.tokens : undefined;
    const cache = t && isObject(t.cache) ? t.cache : {};
    const tokens = t && {
      ...tokensOf(t, {input: 'input', output: 'output'}),
      ...tokensOf(cache, {cacheRead: 'read', cacheWrite: 'write'}),
      ...tokensOf(info, {cost: 'cost'}),
    };
    return [{kind: 'reply', text: words, id: str(info.id), atMs, tokens}];
  });
}
