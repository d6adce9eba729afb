import {loadBuiltinProfiles} from '../../src/agents/builtin.js';
import {linearPattern} from '../../src/base/pattern.js';
import {type Figure, interleave, median} from './bench-kit.js';

/** A screen as a wait reads it: 40 rows of a busy agent's transcript and its composer. */
const SCREEN = [
  ...Array.from(
    {length: 36},
    (_, i) => `  ⎿  Read src/module-${i}.ts (120 lines) — building the index ${i * 7}%`,
  ),
  '✻ Thinking… (12s · ↓ 1.2k tokens · esc to interrupt)',
  '─'.repeat(118),
  '❯ summarise the build log',
  '─'.repeat(118),
];

/**
 * What reading a screen costs on RE2's linear-time engine (re2js, every pattern from outside:
 * `expect`, `--until regex:`, `--ignore`, a user's profile file) beside JavaScript's RegExp
 * (the built-in profiles), for the same patterns on the same rows: every built-in pattern of
 * Claude Code's profile tested against each row of a 40-row screen, 200 times a sample. And
 * what it buys: `(a+)+$` against 30 `a` and a `b`, which RegExp takes seconds over and RE2
 * microseconds.
 */
export const patterns: Figure = {
  id: 'patterns',
  title: 'patterns: RE2 (re2js) vs JavaScript RegExp, one screen read with a profile',
  async run(ctx) {
    const runs = ctx.runs(7);
    const claude = loadBuiltinProfiles().claude;
    const native: RegExp[] = [];
    const walk = (v: unknown): void => {
      if (v instanceof RegExp) native.push(v);
      else if (Array.isArray(v)) for (const x of v) walk(x);
      else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
    };
    walk(claude);
    const linear = native.map((re) => linearPattern(re.source, re.flags));
    const read = (ps: ReadonlyArray<{test(s: string): boolean}>) => () => {
      const started = performance.now();
      let hits = 0;
      for (let n = 0; n < 200; n++)
        for (const row of SCREEN) for (const p of ps) if (p.test(row)) hits++;
      if (hits === 0) throw new Error('no pattern matched the screen');
      return Promise.resolve(performance.now() - started);
    };
    const {subject, baseline} = await interleave(runs, read(linear), read(native));
    const line = `${'a'.repeat(30)}b`;
    const t0 = performance.now();
    linearPattern('(a+)+$').test(line);
    const re2Ms = performance.now() - t0;
    const t1 = performance.now();
    /(a+)+$/.test(line.slice(8)); // 22 a's: RegExp's 2^22 steps already take a while
    const regexpMs = performance.now() - t1;
    ctx.log(
      `patterns: ${native.length} patterns, re2js ${median(subject).toFixed(1)} ms, RegExp ${median(baseline).toFixed(1)} ms`,
    );
    return [
      {
        id: 'patterns',
        subject: {
          label: `re2js, ${native.length} patterns × 40 rows × 200`,
          unit: 'ms',
          samples: subject,
        },
        baseline: {label: 'JavaScript RegExp, the same', unit: 'ms', samples: baseline},
        ratio: 'subject/baseline',
        notes: [
          `(a+)+$ on 30 a and a b: re2js ${re2Ms.toFixed(2)} ms; RegExp on only 22 a and a b: ${regexpMs.toFixed(0)} ms (each further a doubles it)`,
        ],
      },
    ];
  },
};
