/**
 * A turn as an agent recorded it: the prompt nudge typed, what the agent answered, what it
 * cost. Each record format (src/records/formats.ts) is read into the same short list of
 * entries, in the order the file holds them; the turn is the entries after the last prompt
 * that is the text nudge typed, up to the next prompt.
 */

/** What a record's tokens say, where it has them. */
export interface Tokens {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  total?: number;
  /** What the turn cost, in the currency the agent reports (US dollars), where it says. */
  cost?: number;
}

/** When the record says an entry was written (ms since the epoch), where it says. */
interface Recorded {
  atMs?: number | undefined;
}

/** One entry of a record, as far as a reply is concerned: a prompt a person (or nudge) gave,
 * where a turn begins; a message of the agent — its text (empty for a tool call alone) and
 * tokens, `id` joining the lines of one message (a record may write one in parts, or again);
 * tokens the record keeps apart from a message (Codex's per-request counts); the turn's end
 * where the record says it (Codex), with its final message as the agent kept it. */
export type Entry = Recorded &
  (
    | {kind: 'prompt'; text: string}
    | {kind: 'reply'; text: string; id?: string | undefined; tokens?: Tokens | undefined}
    | {kind: 'tokens'; tokens: Tokens}
    | {kind: 'end'; reply?: string | undefined; durationMs?: number | undefined}
  );

/** The final reply of a turn, as recorded. */
export interface TurnReply {
  /** The agent's final message of the turn, byte for byte. */
  text: string;
  /** When the prompt and the final message were recorded (ms since the epoch), where known. */
  promptAtMs?: number | undefined;
  replyAtMs?: number | undefined;
  /** The turn's length as the record says it (Codex), else from the two times. */
  durationMs?: number | undefined;
  /** The turn's tokens, summed over its requests, where the record has them. */
  tokens?: Tokens | undefined;
}

/** The text as a prompt compares: line ends as `\n`, no space at either end. */
export function promptKey(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim();
}

/** Where the turn of `prompt` begins in `entries` (the last such prompt), or -1. */
export function turnStart(entries: readonly Entry[], prompt: string): number {
  const key = promptKey(prompt);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (e?.kind === 'prompt' && promptKey(e.text) === key) return i;
  }
  return -1;
}

/**
 * The final reply of the turn of `prompt` (its last occurrence), once the record has it: the
 * turn's recorded end where there is one, else its last message with text. Undefined while
 * the record holds no such turn, or the turn no text yet.
 */
export function replyOfTurn(entries: readonly Entry[], prompt: string): TurnReply | undefined {
  const start = turnStart(entries, prompt);
  if (start < 0) return undefined;
  const first = entries[start] as Extract<Entry, {kind: 'prompt'}>;
  const turn: Entry[] = [];
  for (const e of entries.slice(start + 1)) {
    if (e.kind === 'prompt') break;
    turn.push(e);
  }
  const messages = mergedMessages(turn);
  const end = turn.find((e): e is Extract<Entry, {kind: 'end'}> => e.kind === 'end');
  const last = [...messages].reverse().find((m) => m.text !== '');
  const text = end?.reply ?? last?.text;
  if (text === undefined || text === '') return undefined;
  const replyAtMs = end?.atMs ?? last?.atMs;
  const apart = turn.filter((e) => e.kind === 'tokens').map((e) => e.tokens);
  const tokens = sumTokens(apart.length > 0 ? apart : messages.map((m) => m.tokens));
  const durationMs =
    end?.durationMs ??
    (first.atMs !== undefined && replyAtMs !== undefined ? replyAtMs - first.atMs : undefined);
  return {text, promptAtMs: first.atMs, replyAtMs, durationMs, tokens};
}

type Message = Extract<Entry, {kind: 'reply'}>;

/** The turn's messages, the parts of one (same id) joined in order; a message written again
 * whole (the same id, the same text) is kept once. */
function mergedMessages(turn: readonly Entry[]): Message[] {
  const out: Message[] = [];
  const byId = new Map<string, Message>();
  for (const e of turn) {
    if (e.kind !== 'reply') continue;
    const known = e.id === undefined ? undefined : byId.get(e.id);
    if (!known) {
      const m = {...e};
      out.push(m);
      if (e.id !== undefined) byId.set(e.id, m);
      continue;
    }
    if (e.text !== '' && e.text !== known.text)
      known.text = known.text === '' ? e.text : known.text + e.text;
    known.atMs = e.atMs ?? known.atMs;
    known.tokens = e.tokens ?? known.tokens;
  }
  return out;
}

function sumTokens(all: ReadonlyArray<Tokens | undefined>): Tokens | undefined {
  const present = all.filter((t): t is Tokens => t !== undefined);
  if (present.length === 0) return undefined;
  const sum: Tokens = {};
  for (const t of present)
    for (const k of Object.keys(t) as Array<keyof Tokens>) {
      const v = t[k];
      if (typeof v === 'number') sum[k] = (sum[k] ?? 0) + v;
    }
  return sum;
}
