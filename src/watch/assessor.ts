import {formatDuration} from '../base/durations.js';
import {describeError} from '../base/errors.js';
import {err, ok, type Result} from '../base/result.js';
import {type CommandRun, type RunCommandOptions, underLoginShell} from '../process/run-command.js';
import {type AssessorSpec, MAX_INJECTION_CHARS} from './record.js';

/** What the assessor is asked (an `--assess-cmd` reads it as JSON on stdin). */
export interface AssessRequest {
  watcher: string;
  pane: string;
  /** `cycle`: after a report (the answer may be injected); `manual`: `watch pause` asks
   * for a next step to show a person (never injected). */
  mode: 'cycle' | 'manual';
  plan: string;
  /** Newest first: `[-HH:MM:SS role] text`. */
  transcript: string[];
  /** What the wait printed (truncated), '' for a sleep. */
  wait_output: string;
  /** The last lines of the pane's screen. */
  pane_tail: string;
  max_injection_chars: number;
}

/** What the assessor decided. */
export interface Decision {
  action: 'stop' | 'continue';
  /** The one line to inject (continue), else null. */
  injection_prompt: string | null;
}

/** Asks for a decision; an assessor that fails says why in one sentence (never throws). */
export interface Assessor {
  /** `--assess-cmd python3 a.py` or `--assess-url URL (model M)`, for messages. */
  readonly describe: string;
  assess(request: AssessRequest, signal: AbortSignal): Promise<Result<Decision, string>>;
}

/** How an assessor runs: a command runner and an HTTP client (global fetch in production). */
export interface AssessorDeps {
  runCommand: (
    file: string,
    args: readonly string[],
    o: RunCommandOptions & {merged: boolean},
  ) => Promise<CommandRun>;
  fetch: typeof fetch;
  env: Record<string, string | undefined>;
  timeoutMs: number;
}

/** The JSON schema of an answer (sent to chat endpoints as `response_format`). */
export const DECISION_SCHEMA = {
  type: 'object',
  properties: {
    action: {type: 'string', enum: ['stop', 'continue']},
    injection_prompt: {type: ['string', 'null'], maxLength: MAX_INJECTION_CHARS},
  },
  required: ['action', 'injection_prompt'],
  additionalProperties: false,
} as const;

/** Largest answer read from an assessor. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** How an assessor is described in messages and `watch show`. */
export function describeAssessor(spec: AssessorSpec): string {
  return spec.kind === 'cmd'
    ? `--assess-cmd ${JSON.stringify(spec.argv)}`
    : `--assess-url ${spec.url} (model ${spec.model}${spec.keyEnv ? `, key from $${spec.keyEnv}` : ''})`;
}

/** The assessor a spec names. */
export function createAssessor(spec: AssessorSpec, deps: AssessorDeps): Assessor {
  return spec.kind === 'cmd' ? commandAssessor(spec, deps) : urlAssessor(spec, deps);
}

/** An assessor command: the request as JSON on its stdin, its decision on its stdout. */
function commandAssessor(spec: Extract<AssessorSpec, {kind: 'cmd'}>, deps: AssessorDeps): Assessor {
  const describe = describeAssessor(spec);
  return {
    describe,
    async assess(request, signal) {
      const [file] = spec.argv;
      if (file === undefined) return err('The assessor command is empty.');
      // Under the user's login shell, for their PATH; the shell runs the argv as it is.
      const [shell, shellArgs] = underLoginShell(deps.env, spec.argv);
      const run = await deps.runCommand(shell, shellArgs, {
        input: JSON.stringify(request),
        timeoutMs: deps.timeoutMs,
        maxBytes: MAX_ANSWER_BYTES,
        signal,
        merged: false,
      });
      const name = JSON.stringify(file);
      if (run.startError)
        return err(`The assessor command ${name} could not be started: ${run.startError}.`);
      if (run.cancelled) return err('The assessor was stopped (the cycle was cancelled).');
      if (run.timedOut)
        return err(
          `The assessor command ${name} did not answer within ${formatDuration(deps.timeoutMs)}.`,
        );
      if (run.exitCode !== 0) {
        const why = firstLine(run.stderr) || firstLine(run.output);
        return err(
          `The assessor command ${name} ${
            run.signal ? `was killed by ${run.signal}` : `exited with status ${run.exitCode}`
          }${why ? `: ${stop(why)}` : '.'}`,
        );
      }
      return parseDecision(run.output, `The assessor command ${name}`, request.mode);
    },
  };
}

/** An assessor at an OpenAI-style chat endpoint: the request as its prompt, the decision its
 * message. */
function urlAssessor(spec: Extract<AssessorSpec, {kind: 'url'}>, deps: AssessorDeps): Assessor {
  const describe = describeAssessor(spec);
  return {
    describe,
    async assess(request, signal) {
      const endpoint = chatEndpoint(spec.url);
      const key = spec.keyEnv ? deps.env[spec.keyEnv] : undefined;
      if (spec.keyEnv && !key)
        return err(`$${spec.keyEnv} (--assess-key-env) is not set in the watcher's environment.`);
      let response: Response;
      try {
        response = await deps.fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(key ? {authorization: `Bearer ${key}`} : {}),
          },
          body: JSON.stringify(chatBody(spec.model, request)),
          signal: AbortSignal.any([signal, AbortSignal.timeout(deps.timeoutMs)]),
        });
      } catch (error) {
        if (signal.aborted) return err('The assessor was stopped (the cycle was cancelled).');
        const name = (error as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError')
          return err(
            `The assessor at ${endpoint} did not answer within ${formatDuration(deps.timeoutMs)}.`,
          );
        const cause = (error as {cause?: unknown}).cause;
        return err(
          `The assessor at ${endpoint} could not be reached (${describeError(cause ?? error)}).`,
        );
      }
      const text = await response.text().catch(() => '');
      if (!response.ok) {
        return err(
          `The assessor at ${endpoint} answered HTTP ${response.status}${apiMessage(text) ? `: ${stop(apiMessage(text))}` : '.'}`,
        );
      }
      let content: unknown;
      try {
        const body = JSON.parse(text) as {
          choices?: Array<{message?: {content?: unknown; refusal?: unknown}}>;
        };
        const message = body.choices?.[0]?.message;
        if (typeof message?.refusal === 'string' && message.refusal)
          return err(`The assessor at ${endpoint} refused: ${stop(clipLine(message.refusal))}`);
        content = message?.content;
      } catch {
        return err(
          `The assessor at ${endpoint} answered something that is not JSON: ${clipLine(text)}.`,
        );
      }
      if (typeof content !== 'string')
        return err(`The assessor at ${endpoint} answered no message content.`);
      return parseDecision(content, `The assessor at ${endpoint}`, request.mode);
    },
  };
}

/**
 * An answer read and checked: JSON `{action: "stop"|"continue", injection_prompt}` (a code
 * fence around it is allowed); `continue` needs one line of at most MAX_INJECTION_CHARS
 * characters.
 */
export function parseDecision(
  text: string,
  who: string,
  mode: AssessRequest['mode'] = 'cycle',
): Result<Decision, string> {
  const body = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return err(
      `${who} answered something that is not JSON: ${stop(clipLine(text) || '(nothing)')}`,
    );
  }
  const v = (value ?? {}) as {action?: unknown; injection_prompt?: unknown};
  if (v.action !== 'stop' && v.action !== 'continue')
    return err(
      `${who} answered action ${JSON.stringify(v.action)}; it must be "stop" or "continue".`,
    );
  if (v.action === 'stop') return ok({action: 'stop', injection_prompt: null});
  const line = v.injection_prompt;
  if (typeof line !== 'string' || line.trim() === '')
    return err(`${who} answered "continue" without an injection_prompt.`);
  if (/[\r\n]/.test(line.trim()))
    return err(`${who} answered an injection_prompt of more than one line; it must be one line.`);
  const chars = [...line.trim()].length;
  if (chars > MAX_INJECTION_CHARS)
    return err(
      `${who} answered an injection_prompt of ${chars} characters; the limit is ${MAX_INJECTION_CHARS}${mode === 'cycle' ? ', so nothing was typed' : ''}.`,
    );
  return ok({action: 'continue', injection_prompt: line.trim()});
}

/** `…/v1/chat/completions` from a base URL (`…/v1`) or the full endpoint. */
export function chatEndpoint(url: string): string {
  const u = url.replace(/\/+$/, '');
  return /\/chat\/completions$/.test(u) ? u : `${u}/chat/completions`;
}

const SYSTEM_PROMPT = [
  'You watch over a coding agent working in a terminal pane, following a plan.',
  'After each of its reports you get the plan, the transcript of what happened (newest first),',
  "the output of the wait it asked for, and the last lines of its pane. Decide whether the plan's",
  'goal is reached. Answer JSON only: {"action":"stop","injection_prompt":null} when it is done',
  `(or cannot go on), else {"action":"continue","injection_prompt":"<one line, at most ${MAX_INJECTION_CHARS} characters>"}`,
  'with the single next instruction to type into the agent.',
].join(' ');

/** The text an assessor model reads. */
export function renderAssessPrompt(r: AssessRequest): string {
  return [
    `Watcher: ${r.watcher} (pane ${r.pane})${r.mode === 'manual' ? ' — a person paused it and asks for the next step' : ''}`,
    '',
    'Plan:',
    r.plan,
    '',
    'Transcript (newest first):',
    ...(r.transcript.length ? r.transcript : ['(empty)']),
    '',
    'Wait output:',
    r.wait_output || '(none)',
    '',
    'Pane (last lines):',
    r.pane_tail || '(empty)',
  ].join('\n');
}

function chatBody(model: string, request: AssessRequest) {
  return {
    model,
    temperature: 0,
    messages: [
      {role: 'system', content: SYSTEM_PROMPT},
      {role: 'user', content: renderAssessPrompt(request)},
    ],
    response_format: {
      type: 'json_schema',
      json_schema: {name: 'watcher_decision', strict: true, schema: DECISION_SCHEMA},
    },
  };
}

/** An API's error message (`{"error":{"message":…}}`), else the body's first line. */
function apiMessage(text: string): string {
  try {
    const m = (JSON.parse(text) as {error?: {message?: unknown}}).error?.message;
    if (typeof m === 'string') return clipLine(m);
  } catch {
    // not JSON
  }
  return clipLine(text);
}

function firstLine(s: string): string {
  return clipLine(s.trim().split('\n')[0] ?? '');
}

function clipLine(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 160 ? `${one.slice(0, 159)}…` : one;
}

/** `s` ending in exactly one full stop (a quoted message may bring its own). */
function stop(s: string): string {
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

/** What an injected line may not start with unless the watcher has --allow-commands: an
 * agent's shell mode (`!`), its slash commands (`/`), a shell's expansion (`$`). */
export const COMMAND_PREFIXES = ['!', '/', '$'] as const;

/** The command prefix `line` starts with, if any: leading blanks, control characters and
 * invisible format characters (a program may drop them: `\x01!cmd` arrives as `!cmd`) are
 * skipped. */
export function commandPrefixOf(line: string): (typeof COMMAND_PREFIXES)[number] | undefined {
  const first = line.replace(/^[\s\p{Cc}\p{Cf}]+/u, '');
  return COMMAND_PREFIXES.find((p) => first.startsWith(p));
}
