/**
 * `npm run faults:table`: the Reliability table (docs/reliability.md) from the figures the fault suite
 * wrote. Every passing scenario of `npm run test:faults` appends one JSON line to
 * .faults/figures.jsonl (test/helpers/faults.ts); run the suite as often as you like, then
 * this prints one markdown row per scenario: how often it passed, jobs accounted for, how fast
 * the pane's lock was recovered (min / median / max), bytes verified, and other counts.
 */
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';

interface Figure {
  scenario: string;
  transport?: string;
  jobs: number;
  accounted: number;
  recoveryMs?: number;
  bytesVerified?: number;
  [extra: string]: unknown;
}

const FIGURES = fileURLToPath(new URL('../../.faults/figures.jsonl', import.meta.url));
const KNOWN = new Set([
  'at',
  'scenario',
  'transport',
  'jobs',
  'accounted',
  'recoveryMs',
  'bytesVerified',
]);

function main(): void {
  let text: string;
  try {
    text = readFileSync(FIGURES, 'utf8');
  } catch {
    process.stderr.write(`No figures at ${FIGURES}: run "npm run test:faults" first.\n`);
    process.exitCode = 1;
    return;
  }
  const rows = new Map<string, Figure[]>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const f = JSON.parse(line) as Figure;
    const list = rows.get(f.scenario) ?? [];
    list.push(f);
    rows.set(f.scenario, list);
  }
  const out = [
    '| scenario | transports | runs passed | jobs accounted for | pane usable again after (min / median / max) | bytes verified | also |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const [scenario, figures] of rows) {
    const transports = [...new Set(figures.map((f) => f.transport ?? 'n/a'))].join(', ');
    const jobs = sum(figures.map((f) => f.jobs));
    const accounted = sum(figures.map((f) => f.accounted));
    const recovery = figures.map((f) => f.recoveryMs).filter((v): v is number => v !== undefined);
    const bytes = figures.map((f) => f.bytesVerified).filter((v): v is number => v !== undefined);
    out.push(
      `| ${scenario} | ${transports} | ${figures.length} | ${jobs === 0 ? '—' : `${accounted} / ${jobs}`} | ${recovery.length ? spread(recovery) : '—'} | ${bytes.length ? sum(bytes).toLocaleString('en-US') : '—'} | ${extras(figures)} |`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** min / median / max, in seconds. */
function spread(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const median = s[Math.floor((s.length - 1) / 2)] ?? 0;
  const fmt = (v: number) => `${(v / 1000).toFixed(1)} s`;
  return `${fmt(s[0] ?? 0)} / ${fmt(median)} / ${fmt(s.at(-1) ?? 0)}`;
}

/** The other numbers a scenario recorded: summed when numbers, counted when values. */
function extras(figures: Figure[]): string {
  const parts = new Map<string, string>();
  for (const key of new Set(figures.flatMap((f) => Object.keys(f)))) {
    if (KNOWN.has(key)) continue;
    const values = figures.map((f) => f[key]).filter((v) => v !== undefined);
    if (values.every((v) => typeof v === 'number')) {
      const nums = values as number[];
      parts.set(key, key.endsWith('Ms') ? spread(nums) : `max ${Math.max(...nums)}`);
    } else if (values.every((v) => typeof v === 'object' && v !== null)) {
      const total: Record<string, number> = {};
      for (const v of values as Array<Record<string, number>>)
        for (const [k, n] of Object.entries(v)) total[k] = (total[k] ?? 0) + n;
      parts.set(
        key,
        Object.entries(total)
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
      );
    } else {
      const counts: Record<string, number> = {};
      for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
      parts.set(
        key,
        Object.entries(counts)
          .map(([k, n]) => `${k} ×${n}`)
          .join(', '),
      );
    }
  }
  return [...parts].map(([k, v]) => `${k}: ${v}`).join('; ') || '—';
}

main();
