import {formatDuration} from '../base/durations.js';
import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {OnHost} from '../front/dispatch.js';
import {stateWords} from '../jobs/stalled.js';
import type {QueueChange, QueueList} from '../verbs/queue.js';
import type {Output} from './render.js';
import {printTable} from './text.js';

/** `nudge queue [PANE]`: per pane, the job at work first, then the waiting ones in order. */
export function renderQueue(r: OnHost<QueueList>, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r.panes));
    return EXIT_CODES.ok;
  }
  if (r.panes.length === 0) {
    out.stdout(r.host ? `No jobs waiting on ${r.host}.` : 'No jobs waiting.');
    return EXIT_CODES.ok;
  }
  for (const [i, pane] of r.panes.entries()) {
    if (i > 0) out.stdout('');
    out.stdout(`pane ${pane.pane} (${pane.socketPath})`);
    printTable(
      ['#', 'JOB', 'STATE', 'POLICY', 'AGE', 'TEXT'],
      pane.jobs.map((j) => [
        j.atWork ? '▶' : String(j.place),
        j.id,
        stateWords(j),
        j.policy,
        formatDuration(j.ageMs),
        j.preview,
      ]),
      out,
    );
  }
  return EXIT_CODES.ok;
}

/** `nudge queue move|drop|edit`: what changed, and the pane's order now. */
export function renderQueueChange(r: OnHost<QueueChange>, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify({...r}));
    return EXIT_CODES.ok;
  }
  const what = {
    moved: `Moved job ${r.job}`,
    dropped: `Dropped job ${r.job} (cancelled; nothing was typed)`,
    edited: `Edited job ${r.job}'s text`,
  }[r.action];
  const order = r.order.length > 0 ? r.order.join(', ') : 'no jobs';
  out.stdout(`${what}; pane ${r.pane} now: ${order}.`);
  return EXIT_CODES.ok;
}
