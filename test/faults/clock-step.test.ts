// Issue 62, item 3: every duration nudge measures runs on the monotonic clock. The wall clock
// of nudge's processes (the CLI, and the waiter it starts) is stepped an hour either way
// mid-wait with libfaketime (LD_PRELOAD; the monotonic clock left alone, the machine's clock
// untouched): a 20 s --timeout still ends after 20 s, neither at once nor an hour late, and
// says it waited 20 s.
import {existsSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {eventTime, submitJob, waitForEvent} from '../helpers/faults.js';
import {expectJobEnd, readJobEvents} from '../helpers/job-files.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {submitArgs} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

/** Debian's libfaketime (package faketime; scripts/install-test-programs.sh installs it). */
const LIBFAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
].find((p) => existsSync(p));

const TIMEOUT_S = 20;

describe.skipIf(!LIBFAKETIME)(
  'the wall clock stepped under a wait (libfaketime; skipped where it is not installed)',
  () => {
    it.each(['+1h', '-1h'])(
      'stepped %s: a 20 s --timeout ends after 20 s, waitedMs about 20 000',
      async (step) => {
        const server = await startTmuxServer();
        await server.waitForScreen('%0', /^\$/m);
        const home = useNudgeHome();
        const offset = join(useTempDir('nudge-faketime-'), 'offset');
        writeFileSync(offset, '+0\n');
        const env = {
          LD_PRELOAD: LIBFAKETIME ?? '',
          FAKETIME_TIMESTAMP_FILE: offset,
          FAKETIME_CACHE_DURATION: '1',
          FAKETIME_DONT_FAKE_MONOTONIC: '1',
        };
        const id = await submitJob(
          home,
          submitArgs(
            server.socket,
            '%0',
            {until: 'regex:NEVER-SHOWN', timeout: `${TIMEOUT_S}s`, notice: false},
            'echo waiting',
          ),
          env,
        );
        await waitForEvent(home, id, 'waiting', 60_000);
        const waitingAt = Date.now();
        writeFileSync(offset, `${step}\n`);
        const ended = await expectJobEnd(home, id, 'timeout', 120_000);
        const took = Date.now() - waitingAt;
        // Not at once (+1h), not an hour late (-1h): the 20 s, with room for a loaded machine.
        expect(took, JSON.stringify(ended)).toBeGreaterThanOrEqual((TIMEOUT_S - 2) * 1_000);
        expect(took, JSON.stringify(ended)).toBeLessThan(60_000);
        expect(ended.waitedMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1_000);
        expect(ended.waitedMs).toBeLessThan(40_000);
        // The events are dated by the wall clock, stepped as the person's clock was.
        const events = await readJobEvents(home, id);
        const jump = eventTime(events, 'wait-timeout') - eventTime(events, 'waiting');
        expect(Math.abs(jump - (step === '+1h' ? 3_600_000 : -3_600_000))).toBeLessThan(60_000);
      },
      180_000,
    );
  },
);
