import {type Blocked, blockedIn} from '../agents/dialogs.js';
import {parseDuration, parseInteger} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import type {OptionsOf, SERVER_OPTIONS} from '../base/option-table.js';
import {endingOnDialogs} from '../detect/blocked.js';
import {RegexWatcher} from '../detect/output-watchers.js';
import {compileRegex} from '../detect/until.js';
import {knownEnding} from '../detect/wait-look.js';
import {waitUntil} from '../detect/wait-until.js';
import type {Verdict} from '../detect/watchers.js';
import {agentInPane} from '../pane/profile.js';
import {reachablePane} from '../pane/target.js';
import {TmuxCommandError} from '../tmux/runner.js';
import {cursorRow, OutputReader} from '../tmux/view.js';
import type {CommandContext} from './context.js';
import {EXPECT_ACTIONS, type EXPECT_OPTIONS} from './options/expect.js';

/** What to do once the pattern matched. */
export {EXPECT_ACTIONS};
export type ExpectAction = (typeof EXPECT_ACTIONS)[number];

/** What `nudge expect PANE REGEX` takes: its table (and the server's flags), the pane and the
 * pattern. */
export type ExpectOptions = OptionsOf<typeof EXPECT_OPTIONS & typeof SERVER_OPTIONS> & {
  pane: string;
  pattern: string;
};

/** The JSON answer of `nudge expect`. */
export interface ExpectAnswer {
  /** `blocked`: the agent in the pane waits for a person (a fail condition of every expect). */
  status: 'matched' | 'timeout' | 'failed' | 'blocked';
  pattern: string;
  match: string | null;
  line: string | null;
  duration_ms: number;
  output?: string;
  matched_at_entry?: boolean;
  fail_pattern?: string;
  reason?: string;
  /** What the person is asked, and where (status `blocked`). */
  blocked?: Blocked;
}

/** What `nudge expect` found: its JSON answer, and a sentence for a person when the pane
 * closed under it. */
export interface ExpectResult {
  answer: ExpectAnswer;
  warning?: string;
  /** Words for the person on how the command was asked (an old flag's new name). */
  notes?: string[];
}

/** What `expect` was asked, each flag read and checked; throws NudgeError (exit 2). */
function expectSettings(o: ExpectOptions) {
  const pattern = compileRegex(o.pattern, 'The pattern');
  const failPatterns = (o.failPattern ?? []).map((p) => compileRegex(p, '--fail-pattern'));
  // The old flags in ms (--timeout-ms, --poll-interval-ms) win where given, with a word.
  const timeoutMs =
    o.timeoutMs !== undefined
      ? parseDuration(o.timeoutMs, '--timeout-ms')
      : parseDuration(o.timeout ?? '1m', '--timeout');
  const [intervalFlag, interval] =
    o.pollIntervalMs !== undefined
      ? ['--poll-interval-ms', o.pollIntervalMs]
      : ['--interval', o.interval ?? '200ms'];
  const intervalMs = parseDuration(interval, intervalFlag);
  if (intervalMs < 10)
    throw new NudgeError(
      'bad-duration',
      `${intervalFlag} must be at least 10ms, got ${JSON.stringify(interval)}.`,
    );
  const lines = parseInteger(o.lines ?? 100, '--lines', 1, 100_000);
  const action = (o.action ?? 'notify') as ExpectAction;
  if (!EXPECT_ACTIONS.includes(action)) {
    throw new NudgeError(
      'bad-usage',
      `--action must be one of ${EXPECT_ACTIONS.join(', ')}, got ${JSON.stringify(o.action)}.`,
    );
  }
  const notes = [
    ...(o.timeoutMs === undefined ? [] : [oldFlag('--timeout-ms', '--timeout', timeoutMs)]),
    ...(o.pollIntervalMs === undefined
      ? []
      : [oldFlag('--poll-interval-ms', '--interval', intervalMs)]),
  ];
  return {pattern, failPatterns, timeoutMs, intervalMs, lines, action, notes};
}

/** The word on an old flag: what to say instead (`--timeout 90s`). */
function oldFlag(old: string, now: string, ms: number): string {
  const [unit, size] =
    ms % 60_000 === 0 ? ['m', 60_000] : ms % 1000 === 0 ? ['s', 1000] : ['ms', 1];
  return `${old} is the old name of ${now}, which takes a duration: ${now} ${ms / size}${unit}.`;
}

/** The answer `expect` gives for a verdict, with how long it waited (`waited`). */
function answerFor(pattern: string, waited: () => number) {
  return (
    verdict: Verdict,
    status: ExpectAnswer['status'],
    extra: Partial<ExpectAnswer> = {},
  ): ExpectAnswer => ({
    status,
    pattern,
    match:
      verdict.status === 'done' || verdict.status === 'failed' ? (verdict.match ?? null) : null,
    line: verdict.status === 'done' || verdict.status === 'failed' ? (verdict.line ?? null) : null,
    duration_ms: waited(),
    ...extra,
  });
}

/**
 * `nudge expect PANE REGEX`: block until REGEX matches output written after the call started
 * (or, with --include-existing, also what is on screen / in the last --lines lines), a fail
 * pattern shows, the pane closes, or the timeout passes.
 */
export async function expectPattern(o: ExpectOptions, ctx: CommandContext): Promise<ExpectResult> {
  const {pattern, failPatterns, timeoutMs, intervalMs, lines, action, notes} = expectSettings(o);
  const {tmux, info} = await reachablePane(o, ctx);
  const started = ctx.clock.now();
  let warning: string | undefined;

  const answer = answerFor(o.pattern, () => ctx.clock.now() - started);

  let watcher: RegexWatcher | undefined;
  let result: ExpectAnswer;
  try {
    const entry = await tmux.view(info.paneId, lines);
    // By default only what is written after this moment counts: the mark is the cursor.
    const mark = o.includeExisting
      ? {row: entry.firstRow, col: 0}
      : {row: cursorRow(entry), col: entry.cursorX};
    watcher = new RegexWatcher(new OutputReader(mark), pattern, failPatterns, lines);
    // An agent's dialog ends the wait too (blocked), at entry or later.
    const agent = await agentInPane(ctx, info, entry);
    const waiting = endingOnDialogs(watcher, agent, () => ctx.clock.wall());
    const atEntry = waiting.observe(entry);
    if (atEntry.status === 'blocked') {
      result = answer(atEntry, 'blocked', {blocked: blockedIn(info.paneId, atEntry.dialog)});
    } else if (atEntry.status !== 'pending') {
      result = answer(atEntry, atEntry.status === 'done' ? 'matched' : 'failed', {
        matched_at_entry: true,
      });
    } else {
      const waited = knownEnding(
        await waitUntil(tmux, info.paneId, waiting, {
          intervalMs,
          timeoutMs,
          clock: ctx.clock,
          signal: ctx.signal,
        }),
      );
      const v = waited.verdict;
      result = answer(
        v,
        waited.status === 'done' ? 'matched' : waited.status,
        v.status === 'blocked' ? {blocked: blockedIn(info.paneId, v.dialog)} : {},
      );
      if (o.includeExisting && result.status === 'matched') result.matched_at_entry = false;
    }
    if (result.status === 'failed' && atEntry.status === 'failed')
      result.fail_pattern = atEntry.pattern;
  } catch (error) {
    if (
      error instanceof TmuxCommandError &&
      (error.kind === 'no-target' || error.kind === 'no-server')
    ) {
      result = answer({status: 'pending', why: ''}, 'failed', {
        reason: `pane ${info.paneId} closed while waiting`,
      });
      warning = `Pane ${info.paneId} closed while waiting for /${o.pattern}/.`;
    } else if (error instanceof Error && error.name === 'AbortError') {
      throw new NudgeError('interrupted', 'Interrupted before the pattern matched.');
    } else {
      throw error;
    }
  }
  const last = watcher?.lastOutput;
  if (result.status === 'failed' && result.fail_pattern === undefined && result.match !== null) {
    result.fail_pattern = failPatterns.find((f) => f.test(result.line ?? ''))?.source ?? '';
  }
  if (action === 'return_output') result.output = (last ?? []).map((l) => l.text).join('\n');
  if (action === 'close_pane' && result.status === 'matched')
    await tmux.killPane(info.paneId).catch(() => {});
  return {
    answer: result,
    ...(warning === undefined ? {} : {warning}),
    ...(notes.length > 0 ? {notes} : {}),
  };
}
