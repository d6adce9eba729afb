/**
 * The scripts a user runs (scripts/setup.sh, scripts/install-agents.sh) must run on macOS's own
 * bash 3.2 and without GNU tools: no bash-4 syntax, no GNU-only program or flag, and no empty
 * array expanded bare under `set -u` (an error before bash 4.4). bash 3.2 does not run here,
 * so this reads them; each rule is checked against a line that breaks it.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SCRIPTS = ['scripts/setup.sh', 'scripts/install-agents.sh'];

/** What breaks on bash 3.2 or without GNU tools, and why. */
const RULES: Array<{pattern: RegExp; why: string; breaks: string}> = [
  {
    pattern: /\bdeclare -A\b|\blocal -A\b/,
    why: 'associative arrays (bash 4)',
    breaks: 'declare -A m',
  },
  {pattern: /\b(mapfile|readarray)\b/, why: 'mapfile (bash 4)', breaks: 'mapfile -t lines'},
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of bash, not a template.
  {pattern: /\$\{\w+(,,|\^\^)\}/, why: 'case conversion (bash 4)', breaks: 'echo ${x,,}'},
  {pattern: /&>>|\|&/, why: '&>> and |& (bash 4)', breaks: 'make |& tee log'},
  {
    pattern: /\bcoproc\b|\blocal -n\b|\[\[ -v /,
    why: 'coproc, namerefs, -v (bash 4)',
    breaks: '[[ -v x ]]',
  },
  {
    pattern: /(^\s*|[;&|(]\s*)timeout\s+\d/,
    why: 'GNU timeout (not on macOS)',
    breaks: '  timeout 60 ls',
  },
  {
    pattern: /\bsed -i\b|\breadlink -f\b|\bdate -d\b|\bstat -c\b|\bgrep -P\b|\bnproc\b/,
    why: 'a GNU-only flag or tool',
    breaks: "sed -i 's/a/b/' f",
  },
  {
    pattern: /(?<![+}])"\$\{\w+\[@\]\}"/,
    why: 'an array that may be empty, expanded bare under set -u (bash < 4.4)',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a line of bash, not a template.
    breaks: 'run "${extra[@]}" x',
  },
];

/** Arrays a script fills before it expands them (never empty there). */
const NEVER_EMPTY = new Set(['agents']);

function offences(text: string): string[] {
  const out: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    const code = line.replace(/(^|\s)#.*$/, '');
    for (const r of RULES) {
      if (!r.pattern.test(code)) continue;
      const arrays = [...code.matchAll(/"\$\{(\w+)\[@\]\}"/g)].map((m) => m[1] ?? '');
      if (r.why.startsWith('an array') && arrays.every((a) => NEVER_EMPTY.has(a))) continue;
      out.push(`line ${i + 1}: ${r.why}: ${line.trim()}`);
    }
  }
  return out;
}

describe('the scripts a user runs', () => {
  test.each(SCRIPTS)('%s runs on bash 3.2 without GNU tools', (script) => {
    expect(offences(readFileSync(join(ROOT, script), 'utf8'))).toEqual([]);
  });

  test.each(RULES)('the rule "$why" catches a line that breaks it', (r) => {
    expect(offences(r.breaks)).toHaveLength(1);
  });
});
