import type {NotifyEvent} from './event.js';
import {type NotifyDeps, type SinkOutcome, sendEvent} from './send.js';
import {parseSink} from './sinks.js';

/** What a job's change tells, beyond what the teller knows of the job. */
export type Change = Omit<NotifyEvent, 'job' | 'pane' | 'preview' | 'at'> & {pane?: string};

/** Tell every sink of a job about one change. */
export type Tell = (change: Change) => Promise<void>;

/**
 * A job's teller: each change goes to every sink at once (one slow or failing sink holds up
 * none of the others), and how each took it is recorded (`record`). Never throws: a failing
 * sink never fails the job.
 */
export function teller(o: {
  sinks: readonly string[];
  job: {id: string; pane: string; preview: string};
  /** Whether webhook: and ntfy: sinks get the preview of the typed text (config.toml's
   * `[notify] preview = true`; notifyPreviewOf). Off, the text stays on this machine. */
  previewOut: boolean;
  deps: NotifyDeps;
  record: (event: NotifyEvent['event'], outcome: SinkOutcome) => Promise<void>;
}): Tell {
  const sinks = o.sinks.map((s) => parseSink(s));
  return async (change) => {
    if (sinks.length === 0) return;
    const event: NotifyEvent = {
      ...change,
      job: o.job.id,
      pane: change.pane ?? o.job.pane,
      preview: o.job.preview,
      at: new Date(o.deps.clock.wall()).toISOString(),
    };
    const outcomes = await Promise.all(
      sinks.map((sink) => {
        const away = sink.kind === 'webhook' || sink.kind === 'ntfy';
        const {preview: _p, ...withoutPreview} = event;
        return sendEvent(sink, away && !o.previewOut ? withoutPreview : event, o.deps);
      }),
    );
    for (const outcome of outcomes) await o.record(event.event, outcome).catch(() => {});
  };
}
