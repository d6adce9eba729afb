// The detection corpus (test/harness/detection-corpus.ts): real programs in real panes, and the
// verdict `nudge wait` must reach for each — idle, and why, or still busy at the timeout, and
// why — within the stability window plus a margin. Once through each process view: /proc and
// ps with lsof (NUDGE_PROCESS_VIEW=ps, what macOS uses), so CI runs the ps reader every run;
// and through a ps that prints what macOS's does (no wait channels: test/fixtures/macos-ps),
// where the screen alone tells, and what it cannot tell is `unknown` (exit 1), never busy.
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, it} from 'vitest';
import {
  CORPUS,
  CORPUS_SHELLS,
  type CorpusCase,
  startCase,
  verdictThrough,
} from '../harness/detection-corpus.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {processViewEnv} from '../helpers/process-view.js';
import {FIXTURES, PROCESS_VIEWS, runNudge} from '../helpers/run-nudge.js';
import {startTmuxServer, type TmuxTestServer} from '../helpers/tmux-server.js';

/** Quick checks: 3 stable checks 250 ms apart are a 750 ms window. */
const INTERVAL_MS = 250;
const STABLE_CHECKS = 3;
/** A busy program must still be busy after this long. */
const BUSY_TIMEOUT_MS = 4_000;
/** What an idle verdict may take beyond the window on a shared 2-core machine. */
const IDLE_MARGIN_MS = 3_000;

/** Whether `program` is on the PATH (a case that needs one this system lacks is skipped). */
function onPath(program: string): boolean {
  return (process.env.PATH ?? '')
    .split(':')
    .some((dir) => dir !== '' && existsSync(join(dir, program)));
}

async function panePid(server: TmuxTestServer, pane: string): Promise<string> {
  return (await server.tmux('display', '-p', '-t', pane, '#{pane_pid}')).trim();
}

/** A pane with the case's program at the moment under test. */
async function prepare(c: CorpusCase): Promise<{server: TmuxTestServer; pane: string}> {
  const server = await startTmuxServer([...CORPUS_SHELLS[c.shell ?? 'bash']]);
  await startCase(server, '%0', c, {dir: server.dir, fixtures: FIXTURES});
  return {server, pane: '%0'};
}

describe.each([...PROCESS_VIEWS, ...(process.platform === 'linux' ? (['mac'] as const) : [])])(
  'the detection corpus through the %s reader: nudge wait reaches the verdict a person would',
  (view) => {
    for (const c of CORPUS) {
      const expected = verdictThrough(c, view);
      const missing = c.needs !== undefined && !onPath(c.needs);
      it.skipIf(missing)(`${c.name}: ${expected.verdict}`, async () => {
        const {server, pane} = await prepare(c);
        const reader = processViewEnv(view, server.dir);
        const interval = c.intervalMs ?? INTERVAL_MS;
        const window = interval * STABLE_CHECKS;
        const r = await runNudge(
          [
            'wait',
            '-S',
            server.socket,
            pane,
            '--json',
            '--interval',
            `${interval}ms`,
            '--stable-checks',
            String(STABLE_CHECKS),
            '--timeout',
            expected.verdict === 'busy' ? `${Math.max(BUSY_TIMEOUT_MS, 2 * window)}ms` : '20s',
          ],
          {NUDGE_HOME: useNudgeHome(), ...reader.env},
        );
        const seen = `exit ${r.exitCode}\nstdout: ${r.stdout}\nstderr: ${r.stderr}\nscreen:\n${await server.capture(pane)}`;
        const answer = JSON.parse(r.stdout || '{}') as {
          status?: string;
          reason?: string;
          duration_ms?: number;
        };
        expect(answer.reason, seen).toMatch(expected.reason);
        expect(answer.status, seen).toBe(
          expected.verdict === 'busy' ? 'timeout' : expected.verdict,
        );
        expect(r.exitCode, seen).toBe({idle: 0, unknown: 1, busy: 124}[expected.verdict]);
        // Through the ps reader, the verdict came from ps: each look asked it for the pane's
        // foreground group and terminal.
        if (view !== 'proc')
          expect(reader.calls()).toContain(`ps -o tpgid=,tty= -p ${await panePid(server, pane)}`);
        if (expected.verdict !== 'busy') {
          expect(answer.duration_ms, seen).toBeGreaterThanOrEqual(window);
          expect(answer.duration_ms, seen).toBeLessThanOrEqual(window + IDLE_MARGIN_MS);
        }
      });
    }
  },
);
