// A job cancelled while it types, with a second job queued on the same pane: the pane's lock
// passes to the second job only after the first has cleared its half-typed line, so every
// byte after the second job's own clear is its text and its Enter (issue: a cancelled job's
// clearing keys once landed inside the next job's text). Used by the integration suite (one
// round) and the fault suite (twenty in a row). A program nudge does not know is never
// cleared, so the recorder is made known by a profile file of the user's (`recorder`: typed
// into as it is, and emptied with C-u).
import {expect} from 'vitest';
import {submitJob} from './faults.js';
import {readJobEvents, waitForJobEnd} from './job-files.js';
import {hex, type RecorderPane, recorderProfile} from './recorder-pane.js';
import {runNudge, submitArgv} from './run-nudge.js';

/** One round on `rec` (a raw recorder pane of `socket`); resolves once both jobs ended. */
export async function cancelHandoverRound(
  home: string,
  socket: string,
  rec: RecorderPane,
  round: number,
): Promise<void> {
  const env = recorderProfile(home);
  const before = (await rec.bytes()).length;
  // 1,200 characters typed 100 ms apart (2 min): the cancel below comes a few seconds in, so
  // it lands mid-typing even on a loaded machine (300 characters, 30 s, beside a CPU hog, two
  // fault files and the packed-install tests once let the typing end first; 12 s did often).
  // A round lasts until the cancel, not 2 min.
  const first = `FIRST${round}-${'abcdefghij'.repeat(120)}`.slice(0, 1_200);
  const second = `SECOND${round}-zz`;
  const quick = ['--delay', '0', '--no-notice', '--profile', 'recorder'];
  const a = await submitJob(
    home,
    submitArgv(socket, rec.pane, [...quick, '--type-delay', '100ms', '--', first]),
    env,
  );
  // Cancel once the first job is well into its text (its clear, then at least 20 characters).
  await rec.waitForLength(before + CLEAR.length + 20, 30_000);
  const b = await submitJob(
    home,
    submitArgv(socket, rec.pane, [...quick, '--type-delay', '0', '--', second]),
    env,
  );
  const cancel = await runNudge(['cancel', a, '--json'], {NUDGE_HOME: home});
  expect(cancel.exitCode, cancel.stderr).toBe(0);
  // The cancel's word and the record agree: it stopped the job (a cancel that says so while
  // the job goes on typing is the worst ending; one that came too late says "already-ended").
  expect(JSON.parse(cancel.stdout), cancel.stdout).toMatchObject({result: 'cancelled'});
  const endA = await waitForJobEnd(home, a, 30_000);
  const endB = await waitForJobEnd(home, b, 60_000);
  const events = async (id: string) => JSON.stringify(await readJobEvents(home, id));
  // What the cancel said, with the job's events, when the job did not end cancelled.
  expect(endA.state, `cancel said ${cancel.stdout}; ${await events(a)}`).toBe('cancelled');
  expect(String(endA.reason), await events(a)).toMatch(/while typing/);
  expect(endB.state, await events(b)).toBe('done');
  const bytes = (await rec.bytes()).subarray(before).toString('utf8');
  const tail = `${CLEAR}${second}\r`;
  // The second job's text arrived whole, once, and nothing came after it: no clearing key
  // of the first job landed once the second had started.
  expect(bytes.endsWith(tail), `round ${round}: ${hex(bytes)}`).toBe(true);
  expect(bytes.split(second).length - 1, `round ${round}: ${hex(bytes)}`).toBe(1);
  // The first job's clear (after its partial text) came before the second job's clear.
  const partial = bytes.slice(0, bytes.length - tail.length);
  expect(partial.startsWith(`${CLEAR}FIRST${round}-`), `round ${round}: ${hex(bytes)}`).toBe(true);
  expect(partial.endsWith(CLEAR), `round ${round}: ${hex(bytes)}`).toBe(true);
}

/** The recorder profile's clearing key: C-u. */
const CLEAR = '\x15';
