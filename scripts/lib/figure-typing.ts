import {execFile} from 'node:child_process';
import {promisify} from 'node:util';
import {
  type BenchContext,
  describeMismatch,
  eventTime,
  type Figure,
  type FigureResult,
  interleave,
  median,
  seeded,
  startTimedRecorder,
  submitJob,
  type TimedRecorder,
  waitForJobEnd,
} from './bench-kit.js';

const execFileP = promisify(execFile);

/** The goal at 500 characters: at least this many times faster than the baseline. */
const TYPING_GOAL = 20;

/** `length` characters: printable ASCII (with `;` inside and at the end, a leading `-`) and
 * UTF-8 of 2, 3 and 4 bytes. Deterministic, so every run types the same text. */
export function typingSample(length: number): string {
  const wide = ['é', 'ü', 'ß', 'ñ', 'ø', 'я', 'λ', '€', '→', '✓', '中', '文', '字', '😀', '🚀'];
  const next = seeded(0x2545f491);
  const chars: string[] = ['-'];
  while (chars.length < length - 1) {
    const r = next();
    if (r % 7 === 0) chars.push(wide[r % wide.length]!);
    else if (r % 11 === 0) chars.push(';');
    else chars.push(String.fromCharCode(0x20 + (r % 95)));
  }
  chars.push(';');
  return chars.join('');
}

/** The tmux argument that types one character with `send-keys -l --`: a lone `;` would be
 * taken as a command separator, so it is escaped (the documented shell-script workaround). */
const oneCharArg = (ch: string) => (ch === ';' ? '\\;' : ch);

const epochNow = () => performance.timeOrigin + performance.now();

/** The last chunk's arrival, after checking every byte arrived exactly once. */
async function lastByteAt(rec: TimedRecorder, expected: Buffer, who: string): Promise<number> {
  await rec.waitForLength(expected.length);
  const got = rec.bytes();
  if (!got.equals(expected)) throw new Error(`${who}: ${describeMismatch(expected, got)}`);
  const last = rec.chunks().at(-1);
  if (!last) throw new Error(`${who}: the recorder noted no chunk times`);
  return last.at;
}

/** nudge's real path: a detached job whose worker types over the control-mode transport.
 * Timed from the worker's `typing` event to the last byte reaching the pane's program. */
async function typeWithNudge(ctx: BenchContext, rec: TimedRecorder, text: string) {
  const expected = Buffer.from(text, 'utf8');
  rec.reset();
  const id = await submitJob(ctx, [
    '-S',
    ctx.server.socket,
    '--pane',
    rec.pane,
    '--no-clear',
    '--no-enter',
    '--no-notice',
    '--delay',
    '0',
    '--type-delay',
    '0',
    '--interval',
    '50ms',
    '--stable-checks',
    '2',
    '--timeout',
    '60s',
    '--',
    text,
  ]);
  const last = await lastByteAt(rec, expected, `nudge job ${id}`);
  const end = await waitForJobEnd(ctx, id);
  if (end.state !== 'done') throw new Error(`nudge job ${id} ended ${end.state}`);
  if (!String(end.transport).startsWith('control')) {
    throw new Error(`nudge job ${id} did not use the control transport: ${end.transport}`);
  }
  return last - eventTime(ctx, id, 'typing');
}

/** The baseline: one `tmux send-keys -l -- CHAR` process after another. */
async function typePerChar(ctx: BenchContext, rec: TimedRecorder, text: string) {
  const expected = Buffer.from(text, 'utf8');
  rec.reset();
  const started = epochNow();
  for (const ch of text) {
    await execFileP(
      'tmux',
      ['-S', ctx.server.socket, 'send-keys', '-t', rec.pane, '-l', '--', oneCharArg(ch)],
      {env: ctx.env},
    );
  }
  return (await lastByteAt(rec, expected, 'tmux send-keys per character')) - started;
}

/** Typing 50, 500 and 5000 characters at --type-delay 0: nudge vs a process per char. */
export const typing: Figure = {
  id: 'typing',
  title: 'typing N chars at --type-delay 0 (worker, control mode) vs one send-keys per char',
  async run(ctx) {
    const rec = await startTimedRecorder(ctx.server, ctx.dir, 'typing');
    const rows: FigureResult[] = [];
    // 5000 characters cost the baseline ~25 s a sample: one of those.
    for (const [length, runs, baselineRuns] of [
      [50, ctx.runs(5), ctx.runs(5)],
      [500, ctx.runs(5), ctx.runs(5)],
      [5000, ctx.runs(2), 1],
    ] as const) {
      const text = typingSample(length);
      await typeWithNudge(ctx, rec, text); // warm-up, and a first byte-exact check
      const s = await interleave(
        Math.min(runs, baselineRuns),
        () => typeWithNudge(ctx, rec, text),
        () => typePerChar(ctx, rec, text),
      );
      for (let i = baselineRuns; i < runs; i++) s.subject.push(await typeWithNudge(ctx, rec, text));
      const speedup = median(s.baseline) / median(s.subject);
      const bytes = Buffer.byteLength(text, 'utf8');
      rows.push({
        id: `typing-${length}`,
        subject: {label: `nudge job typing ${length} chars`, unit: 'ms', samples: s.subject},
        baseline: {
          label: `${length} × tmux send-keys -l -- CHAR`,
          unit: 'ms',
          samples: s.baseline,
        },
        ratio: 'baseline/subject',
        goal:
          length === 500
            ? {text: `≥ ${TYPING_GOAL}× faster, byte-exact`, met: speedup >= TYPING_GOAL}
            : undefined,
        notes: [
          `${length} characters, ${bytes} bytes; every sample of both sides arrived byte-exact`,
          `per character: nudge ${(median(s.subject) / length).toFixed(3)} ms, baseline ${(median(s.baseline) / length).toFixed(2)} ms`,
          'nudge: from the worker\'s "typing" event to the last byte at the pane\'s program; baseline: from its first spawn to the last byte',
        ],
      });
    }
    return rows;
  },
};
