import {readFileSync} from 'node:fs';
import {join} from 'node:path';

/**
 * The versions of tmux and of each agent CLI that nudge's tests verified, and the least each
 * needs: `data/verified-versions.json`, shipped in the package. The test runs write it (the
 * tmux-facing core on each tmux of the matrix, the at-model scenarios on each agent release:
 * `npm run verified`); `nudge doctor` reads it to say ok (verified), warn (never verified) or
 * fail (below the minimum) for what is installed.
 */

/** What one run verified: one program at one version, on one tmux and Node. */
export interface VerifiedEntry {
  /** `tmux`, or an agent's name. */
  program: string;
  version: string;
  tmux: string;
  node: string;
  /** Scenarios that passed and failed, and their names. */
  passed: number;
  failed: number;
  scenarios: string[];
  /** The day of the run (YYYY-MM-DD). */
  date: string;
}

export interface VerifiedTable {
  /** The least version of each program nudge supports: below it, doctor fails. */
  minimum: Record<string, string>;
  entries: VerifiedEntry[];
}

/** The table's file in the package's data folder. */
export const VERIFIED_FILE = 'verified-versions.json';

/** Read the table from `dataDir`; an empty table when the file is missing or unreadable (a
 * broken install then says "never verified", never crashes doctor). */
export function readVerifiedTable(dataDir: string): VerifiedTable {
  try {
    const raw = JSON.parse(readFileSync(join(dataDir, VERIFIED_FILE), 'utf8')) as unknown;
    const t = raw as Partial<VerifiedTable>;
    if (!t || typeof t !== 'object' || !Array.isArray(t.entries)) return {minimum: {}, entries: []};
    return {
      minimum: t.minimum && typeof t.minimum === 'object' ? t.minimum : {},
      entries: t.entries.filter(isEntry),
    };
  } catch {
    return {minimum: {}, entries: []};
  }
}

function isEntry(e: unknown): e is VerifiedEntry {
  const x = e as Partial<VerifiedEntry>;
  return (
    !!x &&
    typeof x.program === 'string' &&
    typeof x.version === 'string' &&
    typeof x.passed === 'number' &&
    typeof x.failed === 'number'
  );
}

/**
 * Compare two version strings part by part: numbers numerically, a letter suffix after its
 * number (tmux's `3.3a` is after `3.3`, before `3.4`). Negative when `a` is older.
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    (v.match(/\d+[a-z]?/g) ?? []).map((p) => {
      const m = /^(\d+)([a-z]?)$/.exec(p);
      return [Number(m?.[1] ?? 0), m?.[2] ? m[2].charCodeAt(0) - 96 : 0] as const;
    });
  const pa = parts(a);
  const pb = parts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [na, la] = pa[i] ?? [0, 0];
    const [nb, lb] = pb[i] ?? [0, 0];
    if (na !== nb) return na - nb;
    if (la !== lb) return la - lb;
  }
  return 0;
}

/** The version a program printed (`tmux 3.5a`, `2.1.331 (Claude Code)`, `codex-cli 0.169.0`). */
export function versionIn(text: string): string | undefined {
  return /\d+\.\d+(?:\.\d+)?[a-z]?/.exec(text)?.[0];
}

export interface VersionVerdict {
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** The doors into `program` its tests proved at `version` (suites named `<agent> door
 * (<kind>): …`, every test of the kind passed). */
export function doorsVerified(table: VerifiedTable, program: string, version: string): string[] {
  // tmux's entries hold every test run on it: a door is an agent's, never tmux's.
  if (program === 'tmux') return [];
  const passed = new Set<string>();
  const failed = new Set<string>();
  for (const e of table.entries.filter((x) => x.program === program && x.version === version)) {
    for (const name of e.scenarios) {
      const kind = /\bdoor \(([a-z-]+)\)/.exec(name)?.[1];
      if (kind) (name.startsWith('FAILED: ') ? failed : passed).add(kind);
    }
  }
  return [...passed].filter((k) => !failed.has(k)).sort();
}

/** What the table says of `program` at `version`: verified, never verified, or too old. */
export function judgeVersion(
  table: VerifiedTable,
  program: string,
  version: string,
): VersionVerdict {
  const passing = table.entries.filter(
    (e) => e.program === program && e.failed === 0 && e.passed > 0,
  );
  const seen = [...new Set(passing.map((e) => e.version))].sort(compareVersions);
  const list = seen.length ? seen.join(', ') : 'none';
  const minimum = table.minimum[program];
  if (minimum && compareVersions(version, minimum) < 0) {
    return {
      status: 'fail',
      detail: `${program} ${version} is older than ${minimum}, the oldest nudge supports (verified: ${list}).`,
      fix: `Upgrade ${program} to ${seen.at(-1) ?? minimum} or newer.`,
    };
  }
  const mine = passing.filter((e) => e.version === version);
  if (mine.length > 0) {
    const last = mine
      .map((e) => e.date)
      .sort()
      .at(-1);
    const on = [...new Set(mine.map((e) => e.tmux))].sort(compareVersions).join(', ');
    const scenarios = Math.max(...mine.map((e) => e.passed));
    const doors = doorsVerified(table, program, version);
    const through = doors.length ? `; notices through ${doors.join(', ')}` : '';
    return {
      status: 'ok',
      detail: `${program} ${version}, verified on ${last} (${scenarios} scenarios${program === 'tmux' ? '' : `, tmux ${on}`}${through}).`,
    };
  }
  const newer = seen.length > 0 && compareVersions(version, seen.at(-1) ?? '') > 0;
  return {
    status: 'warn',
    detail: `${program} ${version} was never verified by nudge's tests (${newer ? 'newer than' : 'verified'}: ${newer ? seen.at(-1) : list}).`,
    fix: `It may work; if something goes wrong, report it with the output of nudge doctor --json (verified: ${list}).`,
  };
}
