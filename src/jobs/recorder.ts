import type {HookMark, RefusedMark} from '../agents/hook-marks.js';
import type {Clock} from '../base/clock.js';
import {describeError, isNoRoom} from '../base/errors.js';
import type {Logger} from '../base/log.js';
import type {Delivery} from '../pane/failures.js';
import type {JobEvents, JobOutcome, JobTransitions} from './events.js';
import {type ReceiptEvent, rungOfEvent} from './receipt-events.js';
import {climb, type Receipt, receiptEvent} from './receipts.js';
import type {JobEnding, JobRecord, RecordPatch} from './record.js';
import type {TerminalState} from './states.js';
import type {JobHandle} from './store.js';

/**
 * Where a machine (a submit's job, a run) records what it does: its state record, its
 * events.jsonl and its pino log, in one call per step. Typed by the machine's transitions
 * (state → what the event carries), its other events, and its outcome. Tests use a fake that
 * keeps events in memory.
 */
export interface Recorder<
  Transitions extends object,
  Events extends object,
  Outcome extends {state: TerminalState},
> {
  /** Move to a running state: update state.json, append an event, log it. */
  transition<S extends keyof Transitions & string>(
    state: S,
    data: Transitions[S],
    patch?: RecordPatch,
  ): Promise<void>;
  /** Change the record without a change of state (a stall begun or over). */
  mark(patch: RecordPatch): Promise<void>;
  /** Append an event that is not a state change (and log it). */
  event<K extends keyof Events & string>(name: K, data: Events[K]): Promise<void>;
  /** Record the ending (through JobHandle.end, the one writer of terminal states). */
  end(outcome: Outcome, patch?: RecordPatch): Promise<void>;
}

/** A submit's job recorder. */
export type JobRecorder = Recorder<JobTransitions, JobEvents, JobOutcome>;

/** How an outcome is written: the ending, and what else goes into the record with it. */
export type EndingOf<Outcome> = (outcome: Outcome) => {
  ending: JobEnding;
  patch?: RecordPatch;
};

/** The real recorder over a job's files and logger; `endingOf` says how an outcome is kept. */
export function createRecorder<
  Transitions extends object,
  Events extends object,
  Outcome extends {state: TerminalState},
>(
  handle: JobHandle,
  log: Logger,
  endingOf: EndingOf<Outcome>,
  untilRecorded?: UntilRecorded,
): Recorder<Transitions, Events, Outcome> {
  const info = (fields: Record<string, unknown>, message: string) => log.info(fields, message);
  // With no room on the disk (untilRecorded): a change of state — what says keys are about to
  // go out (typing, notifying) — waits until it is written, so nothing is ever typed without
  // its record; the ending is kept and written once there is room; any other note is dropped.
  // Without untilRecorded, every failure is thrown.
  const step = (write: () => Promise<unknown>) =>
    write().then(
      () => {},
      (error: unknown) => {
        if (!untilRecorded || !isNoRoom(error)) throw error;
      },
    );
  const held = async <T>(what: string, write: () => Promise<T>): Promise<T> => {
    if (!untilRecorded) return write();
    let waited = false;
    const done = await recordedOnceRoom(write, untilRecorded, (why) => {
      waited = true;
      info({event: 'unrecorded', what, why}, `${what} waits to be recorded`);
      untilRecorded.told?.(what);
    });
    if (waited) untilRecorded.recorded?.();
    return done;
  };
  return {
    async transition(state, data, patch = {}) {
      await held(`state ${state}`, async () => {
        await handle.updateState({...patch, state: state as JobRecord['state']});
        await handle.appendEvent(state, {state, ...data});
      });
      info({event: state, ...data}, `state ${state}`);
    },
    async mark(patch) {
      await step(() => handle.updateState(patch));
    },
    async event(name, data) {
      await step(() => handle.appendEvent(name, {...data} as Record<string, unknown>));
      info({event: name, ...data}, name);
    },
    async end(outcome, extra = {}) {
      const {ending, patch = {}} = endingOf(outcome);
      const all = {...patch, ...extra};
      const write = async () => {
        if (Object.keys(all).length > 0) await handle.updateState(all);
        return handle.end(outcome.state, ending);
      };
      const {wrote} = await held(`ending ${outcome.state}`, write);
      info({event: outcome.state, ...ending, recorded: wrote}, `state ${outcome.state}`);
    },
  };
}

/** How an ending that cannot be written now (the disk full, issue 62) is kept: tried again
 * every RECORD_RETRY_MS until it is written, or `signal` (the process's stop) ends the wait. */
export interface UntilRecorded {
  clock: Clock;
  signal: AbortSignal;
  /** Told when `what` (`ending done`, `state typing`) starts to wait for room, and when it
   * is written after all (src/jobs/unrecorded.ts marks the pane for `nudge status`). */
  told?: (what: string) => void;
  recorded?: () => void;
}

const RECORD_RETRY_MS = 2_000;

/** `write` until it goes through: a file system with no room now (isNoRoom) is waited for,
 * `told` once; any other error, or the stop, is thrown. */
async function recordedOnceRoom<T>(
  write: () => Promise<T>,
  o: UntilRecorded,
  told: (why: string) => void,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (error) {
      if (!isNoRoom(error) || o.signal.aborted) throw error;
      if (tries === 1) told(describeError(error));
      await o.clock.sleep(RECORD_RETRY_MS, o.signal).catch(() => {
        throw error;
      });
    }
  }
}

/** The real recorder of a submit's job: an ending the disk has no room for is kept and
 * written once it has (`untilRecorded`). */
export function createJobRecorder(
  handle: JobHandle,
  log: Logger,
  untilRecorded: UntilRecorded,
): JobRecorder {
  return createRecorder(
    handle,
    log,
    ({state: _state, ...ending}: JobOutcome) => ({ending}),
    untilRecorded,
  );
}

/** What a job records of an agent's turn-end hooks while it waits on `pane`: a mark (with
 * what it said still runs), a hook that claimed the pane and could not prove it (no mark, the
 * wait goes on), what keeps the agent from having settled (`working`, in the record while
 * it lasts), and the start of the turn its text began (`delivery`: how the text went in). */
export function hookEvents(
  recorder: JobRecorder,
  pane: string,
  delivery: Delivery,
): {
  onHookMark: (mark: HookMark) => void;
  onHookRefused: (refused: RefusedMark) => void;
  onWorking: (what: string | undefined) => void;
  onTurnStarted: (by: string) => void;
} {
  let started = false;
  return {
    // Told once. A line the agent queued behind its running turn: its busy marker is that
    // turn's, so its own start shows only at its turn's end.
    onTurnStarted: (by) => {
      if (started || delivery === 'queued') return;
      started = true;
      void recorder.event('turn-started', {pane, by});
    },
    onHookMark: (mark) =>
      void recorder.event('hook-mark', {
        pane,
        source: mark.source,
        atMs: mark.atMs,
        ...(mark.work ? {work: mark.work.map((w) => `${w.kind}: ${w.what}`)} : {}),
      }),
    onHookRefused: (r) =>
      void recorder.event('hook-mark-refused', {pane, source: r.source, why: r.why, atMs: r.atMs}),
    onWorking: (what) => {
      void recorder.mark({working: what});
      if (what !== undefined) void recorder.event('working', {pane, what});
    },
  };
}

/**
 * A job's recorder that climbs its message's receipts (src/jobs/receipts.ts) as it goes: each
 * event that proves a higher rung is followed by a `receipt` event and the record's `receipt`.
 * The ending's rung is written by the one writer of endings (JobHandle.end). `record`: the
 * job's record when its worker began.
 */
const SEEN_AS_IT_ENDED = 'seen only as its turn ended (too quick to be seen at work, or queued)';

export function climbingReceipts(
  recorder: JobRecorder,
  record: JobRecord,
  wallIso: () => string,
): JobRecorder {
  let receipt: Receipt | undefined = record.kind === 'submit' ? record.receipt : undefined;
  let notifying = false;
  let refused = false;
  // A rung a state change follows at once (delivered: `waiting`; turn-ended: `notifying` or
  // the ending) rides on that write of the record; one that marks a wait is written now.
  let pending: Receipt | undefined;
  const riding = (): RecordPatch => (pending ? {receipt: pending} : {});
  const climbTo = async (step: Parameters<typeof climb>[1]): Promise<void> => {
    // A turn that ended was started: one too quick to be seen at work (or that ran behind
    // another, queued) is recorded started as it ends, and says so.
    if (step?.rung === 'turn-ended' && receipt?.rung === 'delivered')
      await climbTo({rung: 'turn-started', why: SEEN_AS_IT_ENDED});
    const next = climb(receipt, step, wallIso());
    if (!next) return;
    receipt = next;
    await recorder.event('receipt', receiptEvent(next));
    // A rung written now is above any that waited to ride.
    pending = next;
    if (next.rung === 'delivered' || next.rung === 'turn-ended') return;
    pending = undefined;
    await recorder.mark({receipt: next});
  };
  return {
    async transition(state, data, patch) {
      if (state === 'notifying') notifying = true;
      await recorder.transition(state, data, {...riding(), ...patch});
      pending = undefined;
    },
    async mark(patch) {
      await recorder.mark({...riding(), ...patch});
      pending = undefined;
    },
    async event(name, data) {
      await recorder.event(name, data);
      const e = {name, data} as ReceiptEvent;
      if (e.name === 'door' && !notifying && e.data.result === 'refused') refused = true;
      await climbTo(rungOfEvent(e, notifying));
    },
    async end(outcome, patch) {
      // A text every door refused (`--if-busy now`): its receipt ends `refused`.
      const sure = refused && outcome.state === 'failed' ? {...outcome, refused: true} : outcome;
      await recorder.end(sure, {...riding(), ...patch});
    },
  };
}
