import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {describeReceipt} from '../jobs/receipts.js';
import type {ManyIdleResult, PaneIdleResult, RungWaitResult, WaitResult} from '../verbs/wait.js';
import {blockedLine, type Output, seconds} from './render.js';

// `nudge wait`: one pane's verdict as a line (or JSON), several panes' answer and each pane's
// verdict under it; the exit code of each.

export function renderWait(r: WaitResult, json: boolean, out: Output): ExitCode {
  if ('mode' in r) return renderWaitMany(r, json, out);
  if ('job' in r) return renderRung(r, json, out);
  if (json) {
    const {durationMs, ...rest} = r;
    out.stdout(JSON.stringify({...rest, duration_ms: durationMs}));
  } else out.stdout(waitLine(r));
  return waitExit(r.status);
}

/** One pane's verdict as a line. */
function waitLine(r: PaneIdleResult): string {
  const why = r.reason.replace(/^idle(: )?/, '');
  const b = r.blocked;
  if (r.status === 'idle') return `idle after ${seconds(r.durationMs)}${why ? ` (${why})` : ''}`;
  if (b) return blockedLine(b);
  if (r.status === 'unknown')
    return `Unknown: ${r.pane} has been still for ${seconds(r.durationMs)}, but nudge ${r.reason}.`;
  if (r.stillSoFar)
    return `Timeout: ${r.pane} did not change, but has not been still for a whole stability window (longer than the ${seconds(r.durationMs)} waited)`;
  return `Timeout: ${r.pane} still active after ${seconds(r.durationMs)} (${r.reason})`;
}

/** A wait's exit code: 0 idle, 3 blocked, 1 unknown, 124 timed out. */
function waitExit(status: PaneIdleResult['status']): ExitCode {
  if (status === 'idle') return EXIT_CODES.ok;
  if (status === 'blocked') return EXIT_CODES.blocked;
  if (status === 'unknown') return EXIT_CODES.failure;
  return EXIT_CODES.timeout;
}

/** Several panes: the answer first (how many were idle, the first of them), then a line a
 * pane with its own verdict. */
function renderWaitMany(r: ManyIdleResult, json: boolean, out: Output): ExitCode {
  if (json) {
    const {durationMs, panes, ...rest} = r;
    const each = panes.map((p) =>
      'durationMs' in p ? (({durationMs: ms, ...pane}) => ({...pane, duration_ms: ms}))(p) : p,
    );
    out.stdout(JSON.stringify({...rest, duration_ms: durationMs, panes: each}));
    return waitExit(r.status);
  }
  const asked = r.mode === 'any' ? 'the first' : r.mode === 'all' ? 'all' : `${r.needed}`;
  out.stdout(
    r.status === 'idle'
      ? r.mode === 'any'
        ? `${r.first} idle after ${seconds(r.durationMs)}`
        : `${r.idle.join(', ')} idle after ${seconds(r.durationMs)}`
      : `${r.status === 'timeout' ? 'Timeout' : r.status === 'blocked' ? 'Blocked' : 'Unknown'}: ${r.idle.length} of ${r.panes.length} panes idle after ${seconds(r.durationMs)}, ${asked} asked for`,
  );
  for (const p of r.panes)
    out.stdout(`  ${p.pane}  ${p.status === 'stopped' ? 'not waited for further' : waitLine(p)}`);
  return waitExit(r.status);
}

/** `wait --job J --until RUNG`: 0 reached, 1 ended short of it, 124 timed out. */
function renderRung(r: RungWaitResult, json: boolean, out: Output): ExitCode {
  if (json) {
    const {durationMs, ...rest} = r;
    out.stdout(JSON.stringify({...rest, duration_ms: durationMs}));
  } else {
    const at = r.receipt ? describeReceipt(r.receipt) : 'no receipts (a job of an older nudge)';
    const after = seconds(r.durationMs);
    if (r.status === 'reached') out.stdout(`Job ${r.job} is ${at} (after ${after})`);
    else if (r.status === 'ended')
      out.stdout(`Job ${r.job} ended ${r.state} short of ${r.until}: ${at}`);
    else out.stdout(`Timeout: job ${r.job} did not reach ${r.until} in ${after}; it is ${at}`);
  }
  if (r.status === 'reached') return EXIT_CODES.ok;
  return r.status === 'ended' ? EXIT_CODES.failure : EXIT_CODES.timeout;
}
