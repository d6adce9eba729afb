import {describeError, isAbortError} from '../base/errors.js';
import {describeStall} from '../detect/stall.js';
import type {Change} from '../notify/tell.js';
import {PaneFailure} from '../pane/failures.js';
import {type AssessRequest, commandPrefixOf} from './assessor.js';
import {
  type CycleDeps,
  enterOf,
  iso,
  optionsOf,
  paneGone,
  read,
  record,
  tailChars,
} from './cycle-deps.js';
import {waitOutLimit} from './limit.js';
import {
  MAX_INJECTION_CHARS,
  type PendingReport,
  type TranscriptRole,
  transcriptTail,
  type WatcherRecord,
  type WatcherState,
} from './record.js';
import {countInjection, injectionBound, pause} from './record-changes.js';

/** Characters of the wait's output kept in the transcript and given to the assessor. */
export const WAIT_OUTPUT_CHARS = 4_000;

/** The cycle's steps; each returns the next. */
type Step =
  | {at: 'wait'; report: PendingReport}
  | {at: 'idle_spin'; waitOutput: string}
  | {at: 'assess'; waitOutput: string}
  | {at: 'inject'; line: string}
  | {at: 'standby'}
  /** `told`: what the person is told (default: failed); null: told already. */
  | {at: 'paused'; reason: string; told?: Change | null}
  | {at: 'gone'};

/** How a cycle worker's run ended. */
export type CyclesEnd = 'idle' | 'removed' | 'not-ours';

/**
 * The cycle worker: take the reports queued for watcher `name`, oldest first, and run one
 * cycle for each (WAIT → IDLE_SPIN → ASSESS → STANDBY | PAUSED) until none is left or the
 * watcher pauses. The record says which process is the cycle; taking the last report and
 * letting go of the record happen under one lock, so a report that comes meanwhile either
 * is taken here or starts a new cycle worker — never neither.
 */
export async function runCycles(
  deps: CycleDeps,
  name: string,
  signal: AbortSignal,
): Promise<CyclesEnd> {
  for (;;) {
    const taken = await deps.records.update<CyclesEnd | PendingReport>(name, (r) => {
      if (!r) return {record: 'keep', result: 'removed' as const};
      if (r.cycle?.pid !== deps.pid) return {record: 'keep', result: 'not-ours' as const};
      const [next, ...rest] = r.pending;
      if (r.state === 'paused' || next === undefined) {
        return {
          record: {...r, cycle: undefined, pending: [], updatedAt: iso(deps.clock)},
          result: 'idle' as const,
        };
      }
      return {
        record: {...r, state: 'wait', pending: rest, updatedAt: iso(deps.clock)},
        result: next,
      };
    });
    if (typeof taken === 'string') return taken;
    const ended = await runCycle(deps, name, taken, signal);
    if (ended === 'gone') return 'removed';
  }
}

/** One cycle for one report. Never throws: a failure pauses the watcher with the reason. */
export async function runCycle(
  deps: CycleDeps,
  name: string,
  report: PendingReport,
  signal: AbortSignal,
): Promise<'standby' | 'paused' | 'gone'> {
  const note = (state: WatcherState | undefined, ...entries: Array<[TranscriptRole, string]>) =>
    record(deps, name, state, entries);
  const c: CycleRun = {deps, name, signal, note};
  let step: Step = {at: 'wait', report};
  for (;;) {
    try {
      switch (step.at) {
        case 'wait':
          step = await waitStep(c, step.report);
          break;
        case 'idle_spin':
          step = await idleStep(c, step.waitOutput);
          break;
        case 'assess':
          step = await assessStep(c, step.waitOutput);
          break;
        case 'inject': {
          const delivery = await deps.pane.inject(step.line, await enterOf(deps, name), signal);
          await countInjection(deps.records, name);
          step = (await note('standby', ['injection', `${step.line} (${delivery})`]))
            ? {at: 'standby'}
            : {at: 'gone'};
          break;
        }
        case 'standby':
          return 'standby';
        case 'paused': {
          // A record that cannot be written even now: give up (the worker logs why).
          const paused = await pause(deps, name, step.reason).catch(() => false);
          if (step.told !== null)
            await deps.tell(step.told ?? {event: 'failed', state: 'paused', reason: step.reason});
          return paused ? 'paused' : 'gone';
        }
        case 'gone':
          return 'gone';
        default:
          return step satisfies never;
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) {
        step = {at: 'paused', reason: 'The cycle was stopped before it finished.'};
        continue;
      }
      const reason =
        error instanceof PaneFailure ? error.message : `The cycle failed: ${describeError(error)}.`;
      step = {at: 'paused', reason};
    }
  }
}

/** What every step of one cycle works with. */
interface CycleRun {
  deps: CycleDeps;
  name: string;
  signal: AbortSignal;
  note: Note;
}

type Note = (
  state: WatcherState | undefined,
  ...entries: Array<[TranscriptRole, string]>
) => Promise<boolean>;

/** WAIT: the report's bash command, or a sleep of --default-wait. */
async function waitStep(
  {deps, name, signal, note}: CycleRun,
  report: PendingReport,
): Promise<Step> {
  const options = await optionsOf(deps, name);
  if (!options) return {at: 'gone'};
  if (report.bashWait === undefined) {
    await deps.clock.sleep(options.defaultWaitMs, signal);
    const seconds = (options.defaultWaitMs / 1000).toFixed(2);
    return (await note('idle_spin', ['wait', `[sleep] ${seconds}s`]))
      ? {at: 'idle_spin', waitOutput: ''}
      : {at: 'gone'};
  }
  const run = await deps.runWait(report.bashWait, report.cwd, options.waitTimeoutMs, signal);
  signal.throwIfAborted();
  const seconds = (run.durationMs / 1000).toFixed(2);
  const how = run.startError
    ? `could not start (${run.startError})`
    : run.timedOut
      ? `stopped after ${seconds}s (--wait-timeout)`
      : run.signal
        ? `killed by ${run.signal} after ${seconds}s`
        : `exit ${run.exitCode} after ${seconds}s`;
  const all = run.output.trimEnd();
  const output = tailChars(all, WAIT_OUTPUT_CHARS);
  const cut = run.truncated || output.length < all.length ? '[…earlier output cut]\n' : '';
  const waitOutput = cut + output;
  const written = await note(
    'idle_spin',
    ['wait', `[bash] ${how}: ${report.bashWait}`],
    ['wait_output', waitOutput || '(no output)'],
  );
  return written ? {at: 'idle_spin', waitOutput} : {at: 'gone'};
}

/** IDLE_SPIN: until the pane has been idle for --idle-threshold. */
async function idleStep({deps, name, signal, note}: CycleRun, waitOutput: string): Promise<Step> {
  const options = await optionsOf(deps, name);
  if (!options) return {at: 'gone'};
  if (!(await deps.pane.exists())) return {at: 'paused', reason: await paneGone(deps, name)};
  const idle = await deps.pane.waitIdle(
    options.idleThresholdMs,
    options.idleTimeoutMs,
    options.stall ?? null,
    signal,
  );
  const seconds = (idle.durationMs / 1000).toFixed(2);
  if (idle.stalled) {
    // Told already, as the stall began.
    const reason = `The agent stalled (${describeStall(idle.stalled)}); --on-stall cancel paused the watcher and nothing was typed.`;
    return {at: 'paused', reason, told: null};
  }
  if (idle.status === 'blocked' && idle.blocked) {
    const b = idle.blocked;
    if (b.kind === 'limit' && b.resetsAt !== undefined && options.onLimit === 'wait') {
      await note(undefined, ['error', `A usage limit: ${b.question}; waiting until it resets.`]);
      const inject = async (line: string) => deps.pane.inject(line, true, signal);
      const delivery = await waitOutLimit(
        {...deps, inject},
        {...b, resetsAt: b.resetsAt},
        options,
        signal,
      );
      const written = await note(undefined, ['injection', `${options.resumeText} (${delivery})`]);
      return written ? {at: 'idle_spin', waitOutput} : {at: 'gone'};
    }
    const reason = `The agent waits for a person (${b.kind}: ${b.question}); nothing was typed.`;
    const {kind, question, pane} = b;
    return {
      at: 'paused',
      reason,
      told: {event: 'blocked', state: 'paused', kind, question, pane, reason},
    };
  }
  if (idle.status !== 'idle') {
    const reason = `The pane did not go idle within the idle timeout (${idle.reason}); nothing was typed.`;
    return {at: 'paused', reason, told: {event: 'timeout', state: 'paused', reason}};
  }
  const written = await note('assess', ['idle_spin', `idle after ${seconds}s (${idle.reason})`]);
  return written ? {at: 'assess', waitOutput} : {at: 'gone'};
}

/** ASSESS: ask the assessor; stop → paused, continue → inject the line. */
async function assessStep({deps, name, signal, note}: CycleRun, waitOutput: string): Promise<Step> {
  const asked = await assessRequest(deps, name, 'cycle', waitOutput);
  if (!asked) return {at: 'gone'};
  const decided = await deps.assessorFor(asked.record).assess(asked.request, signal);
  signal.throwIfAborted();
  if (!decided.ok) return {at: 'paused', reason: decided.error};
  const {action, injection_prompt: line} = decided.value;
  if (action === 'stop' || line === null) {
    const written = await note(undefined, ['decision', 'stop']);
    const reason = 'The assessor said stop.';
    return written
      ? {at: 'paused', reason, told: {event: 'done', state: 'paused', reason}}
      : {at: 'gone'};
  }
  // A line that would run as a command in the agent: only with --allow-commands.
  const prefix = commandPrefixOf(line);
  if (prefix !== undefined && asked.record.options.allowCommands !== true) {
    const reason = `The assessor answered a line that starts with "${prefix}" (a command in the agent), so it was not typed; restart the watcher with --allow-commands to allow such lines.`;
    const written = await note(undefined, ['decision', `refused: ${line}`]);
    return written
      ? {at: 'paused', reason, told: {event: 'failed', state: 'paused', reason}}
      : {at: 'gone'};
  }
  const bound = injectionBound(asked.record, line);
  if (bound) {
    const written = await note(undefined, ['decision', `bound reached: ${line}`]);
    const told = {event: 'stalled', state: 'paused', kind: 'injections', reason: bound} as const;
    return written ? {at: 'paused', reason: bound, told} : {at: 'gone'};
  }
  const written = await note(undefined, ['decision', `continue: ${line}`]);
  return written ? {at: 'inject', line} : {at: 'gone'};
}

/** What the assessor is asked, from the record as it is now, and that record (undefined:
 * the watcher was removed). */
export async function assessRequest(
  deps: Pick<CycleDeps, 'records' | 'clock' | 'pane'>,
  name: string,
  mode: AssessRequest['mode'],
  waitOutput: string,
): Promise<{request: AssessRequest; record: WatcherRecord} | undefined> {
  const r = await read(deps, name);
  if (!r) return undefined;
  const paneTail = await deps.pane.tail().catch(() => '');
  const request: AssessRequest = {
    watcher: r.name,
    pane: r.pane,
    mode,
    plan: r.plan,
    transcript: transcriptTail(r.transcript, deps.clock.wall()),
    wait_output: waitOutput,
    pane_tail: paneTail,
    max_injection_chars: MAX_INJECTION_CHARS,
  };
  return {request, record: r};
}
