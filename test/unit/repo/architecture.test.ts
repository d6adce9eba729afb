import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {basename, dirname, join, normalize} from 'node:path';
import {fileURLToPath} from 'node:url';
import ts from 'typescript';
import {describe, expect, test} from 'vitest';
import {MAY_IMPORT} from './layers.js';

/**
 * The map of the code (CONTRIBUTING.md) as rules, each a function of the source tree that
 * returns its violations. Each runs on the repository (no violation) and on a small tree made
 * to break it (it must find the break), so no rule can pass by being unable to fail.
 */

/** Which top-level folder may import which: the entries wire src/ together; tests and the
 * bench share the harness in test/; nothing imports scripts/ but scripts/. */
const TOP_MAY_IMPORT: Record<string, readonly string[]> = {
  src: ['src'],
  workers: ['src', 'workers'],
  scripts: ['src', 'scripts', 'test/harness'],
  test: ['src', 'workers', 'test'],
};

/** The entries: the only files that read `process` for its global state, besides src/process/
 * (starting and signalling processes) and src/base/this-process.ts (this process's identity). */
const PROCESS_ALLOWED = [
  /^src\/cli\.ts$/,
  /^src\/main\.ts$/,
  /^src\/front-end\.ts$/,
  /^workers\//,
  /^src\/process\//,
];
const PROCESS_IDENTITY = 'src/base/this-process.ts';

/** tmux commands, as they would appear in an argv built outside src/tmux/. */
const TMUX_COMMANDS =
  /'(send-keys|capture-pane|display-message|list-panes|list-windows|list-sessions|new-window|new-session|split-window|kill-pane|kill-server|set-option|show-options|paste-buffer|load-buffer|set-buffer|delete-buffer|has-session|select-pane|copy-mode|refresh-client|respawn-pane|resize-pane|wait-for)'/;

/** Files the code writes at run time (named in comments, never in the repository). */
const RUNTIME_FILES = new Set([
  'state.json',
  'request.json',
  'report.md',
  'events.jsonl',
  'worker.log',
  'worker.pid',
  'package.json',
  'settings.json',
  'config.toml',
  'cli.js',
  'main.js',
]);

interface SourceFile {
  /** Path from the repository root, with `/`. */
  path: string;
  text: string;
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir), {withFileTypes: true}).flatMap((e) =>
    e.isDirectory()
      ? e.name === 'node_modules'
        ? []
        : walk(`${dir}/${e.name}`)
      : e.name.endsWith('.ts')
        ? [`${dir}/${e.name}`]
        : [],
  );
}

function repoTree(): SourceFile[] {
  return (
    ['src', 'workers', 'scripts', 'test']
      .flatMap(walk)
      // Not this file: its broken examples would count.
      .filter((path) => path !== 'test/unit/repo/architecture.test.ts')
      .map((path) => ({path, text: readFileSync(join(ROOT, path), 'utf8')}))
  );
}

/** The text without comments (what runs), and the comments alone. */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, '$1');
}
function commentsOf(text: string): string {
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?:^|[^:'"`\\])\/\/[^\n]*/g)]
    .map((m) => m[0])
    .join('\n');
}

/** Relative imports (static, dynamic, type-only, re-exports), resolved to repository paths. */
function importsOf(file: SourceFile): string[] {
  const specs = [...codeOf(file.text).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(
    (m) => m[1] ?? '',
  );
  return specs.map((s) => normalize(join(dirname(file.path), s)).replace(/\.js$/, '.ts'));
}

function srcFolder(path: string): string {
  const parts = path.split('/');
  return parts[0] === 'src' && parts.length > 2 ? (parts[1] ?? '') : '';
}

function topFolder(path: string): string {
  return path.startsWith('test/harness/') ? 'test/harness' : (path.split('/')[0] ?? '');
}

// --- the rules ------------------------------------------------------------------------------

/** Every folder of src/ is on the map, and imports only what the map allows. */
function srcMapViolations(tree: SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of tree.filter((f) => f.path.startsWith('src/'))) {
    const from = srcFolder(file.path);
    if (from === '') continue; // src/cli.ts and src/main.ts wire everything
    if (!MAY_IMPORT[from]) {
      out.push(`${file.path}: folder src/${from} is not on the map`);
      continue;
    }
    const allowed = new Set([from, ...(MAY_IMPORT[from] ?? [])]);
    for (const target of importsOf(file)) {
      if (!target.startsWith('src/')) out.push(`${file.path} imports ${target} (outside src/)`);
      else if (!allowed.has(srcFolder(target))) out.push(`${file.path} imports ${target}`);
    }
  }
  return out;
}

/** workers/, scripts/ and test/ import only what their row allows (tests never scripts/). */
function topMapViolations(tree: SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of tree) {
    const from = file.path.split('/')[0] ?? '';
    const allowed = TOP_MAY_IMPORT[from];
    if (!allowed) continue;
    for (const target of importsOf(file)) {
      const to = topFolder(target);
      const ok = allowed.some((a) => to === a || (a === 'test' && to === 'test/harness'));
      if (!ok) out.push(`${file.path} imports ${target}`);
    }
  }
  return out;
}

/** No import cycle between files of src/ and workers/, type-only imports included. */
function cycleViolations(tree: SourceFile[]): string[] {
  const graph = new Map(
    tree.filter((f) => /^(src|workers)\//.test(f.path)).map((f) => [f.path, importsOf(f)] as const),
  );
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const out: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open')
        out.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return out;
}

/** `process` is read only by the entries, src/process/ and this-process.ts (its identity). */
function processViolations(tree: SourceFile[]): string[] {
  return tree
    .filter((f) => f.path.startsWith('src/'))
    .filter((f) => f.path !== PROCESS_IDENTITY && !PROCESS_ALLOWED.some((r) => r.test(f.path)))
    .filter((f) => /(?<![\w.\-/])process\.\w/.test(codeOf(f.text)))
    .map((f) => f.path);
}

/** Only src/process/ starts processes (node:child_process) or signals them. */
function childProcessViolations(tree: SourceFile[]): string[] {
  return tree
    .filter((f) => f.path.startsWith('src/') && srcFolder(f.path) !== 'process')
    .filter((f) => {
      const code = codeOf(f.text).replace(/import type[^;]*;/g, '');
      return /from 'node:child_process'/.test(code) || /process\.kill\(/.test(code);
    })
    .map((f) => f.path);
}

/** proper-lockfile only in src/locks/. */
function lockfileViolations(tree: SourceFile[]): string[] {
  return tree
    .filter((f) => f.path.startsWith('src/') && srcFolder(f.path) !== 'locks')
    .filter((f) => /['"]proper-lockfile['"]/.test(codeOf(f.text)))
    .map((f) => f.path);
}

/** tmux command lines are built only in src/tmux/. */
function tmuxArgvViolations(tree: SourceFile[]): string[] {
  return tree
    .filter((f) => /^(src|workers)\//.test(f.path) && srcFolder(f.path) !== 'tmux')
    .filter((f) => TMUX_COMMANDS.test(codeOf(f.text)))
    .map((f) => f.path);
}

/** A comment that names a source file or a document names one that exists (in the
 * repository: from the root, beside the file, or a file of that name anywhere). */
function staleCitationViolations(tree: SourceFile[], exists: (path: string) => boolean) {
  const names = new Set(tree.map((f) => basename(f.path)));
  const out: string[] = [];
  for (const file of tree.filter((f) => /^(src|workers|scripts|test)\//.test(f.path))) {
    const cited = commentsOf(file.text).matchAll(
      /(?<![\w@./-])((?:[\w.-]+\/)*[\w-]+\.(?:ts|md))\b/g,
    );
    for (const m of cited) {
      const name = m[1] ?? '';
      if (RUNTIME_FILES.has(basename(name))) continue;
      if (exists(name) || exists(join(dirname(file.path), name))) continue;
      if (!name.includes('/') && (names.has(name) || exists(`docs/${name}`))) continue;
      out.push(`${file.path}: ${name}`);
    }
  }
  return out;
}

/** The longest a function of src/ or workers/ may be, in lines (a closure counts within its
 * function too): a longer one does more than one thing. */
const MAX_FUNCTION_LINES = 80;

/** Functions (declarations, expressions, arrows, methods) of src/ and workers/ over the limit,
 * found by TypeScript's own parser. */
function longFunctionViolations(tree: SourceFile[]): string[] {
  const out: string[] = [];
  for (const file of tree.filter((f) => /^(src|workers)\//.test(f.path))) {
    const sf = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node)
      ) {
        const from = sf.getLineAndCharacterOfPosition(node.getStart()).line;
        const to = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (to - from + 1 > MAX_FUNCTION_LINES)
          out.push(`${file.path}:${from + 1} is ${to - from + 1} lines`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

const RULES: Record<string, (tree: SourceFile[]) => string[]> = {
  'the folders of src/ import only what the map allows': srcMapViolations,
  'workers/, scripts/ and test/ import only what theirs allows (tests never scripts/)':
    topMapViolations,
  'no import cycle, type-only imports included': cycleViolations,
  'process is read only by the entries, src/process/ and base/this-process.ts': processViolations,
  'only src/process/ starts or signals processes': childProcessViolations,
  'proper-lockfile only in src/locks/': lockfileViolations,
  'tmux argv only in src/tmux/': tmuxArgvViolations,
  'comments cite files that exist': (tree) =>
    staleCitationViolations(tree, (p) => existsSync(join(ROOT, p))),
  'each module of a rule folder has its unit test at its mirror path': mirrorViolations,
  'no code lists the agents by name (the registry and data/agents/ do)': (tree) =>
    tree
      .filter((f) => f.path !== 'src/agents/registry.ts')
      .filter((f) => /'claude',\s*'gemini',\s*'codex'/.test(codeOf(f.text)))
      .map((f) => f.path),
  'no file of src/verbs/ imports another verb': verbImportViolations,
  'the host is resolved in one function; src/main.ts holds no host logic': hostViolations,
  'no numeric exit code outside the one table': exitCodeViolations,
  'every file of workers/ is under 30 lines': (tree) =>
    tree
      .filter((f) => f.path.startsWith('workers/'))
      .map((f) => [f.path, f.text.split('\n').length] as const)
      .filter(([, lines]) => lines >= MAX_WORKER_LINES)
      .map(([path, lines]) => `${path}: ${lines} lines`),
  'no file of src/ is over 350 lines': (tree) =>
    tree
      .filter((f) => f.path.startsWith('src/'))
      .map((f) => [f.path, linesOf(f.text)] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([path, lines]) => `${path}: ${lines} lines`),
  'no function of src/ or workers/ is over 80 lines': longFunctionViolations,
};

/** A file of src/verbs/ is a verb: it imports of src/verbs/ only the context and the
 * options tables, never another command (what two commands share lives below them). */
function verbImportViolations(tree: SourceFile[]): string[] {
  const shared = /^src\/verbs\/(context\.ts|options\/)/;
  return tree
    .filter((f) => /^src\/verbs\/[^/]+\.ts$/.test(f.path))
    .flatMap((f) =>
      importsOf(f)
        .filter((t) => t.startsWith('src/verbs/') && !shared.test(t))
        .map((t) => `${f.path} imports ${t}`),
    );
}

/** Where a command runs is decided in one place: the host is resolved by hostOf, called only
 * by src/front/dispatch.ts (whereTo); $NUDGE_HOST is read only by hostOf (src/remote/
 * dest.ts); src/main.ts holds no host logic (it calls dispatch). */
function hostViolations(tree: SourceFile[]): string[] {
  const out: string[] = [];
  for (const f of tree.filter((t) => /^(src|workers)\//.test(t.path))) {
    const code = codeOf(f.text);
    if (
      f.path !== 'src/front/dispatch.ts' &&
      /(?<![\w.])hostOf\(/.test(code.replace(/export function hostOf\(/, ''))
    )
      out.push(`${f.path} resolves a host (hostOf)`);
    if (f.path !== 'src/remote/dest.ts' && /\.NUDGE_HOST\b/.test(code))
      out.push(`${f.path} reads $NUDGE_HOST`);
    if (
      f.path === 'src/main.ts' &&
      /host|anywhere/i.test(code.replace(/\/front\/dispatch\.js/, ''))
    )
      out.push('src/main.ts decides where a command runs');
  }
  return out;
}

/** Every worker is a few lines handing its kind to the one entry (src/process/worker-main.ts). */
const MAX_WORKER_LINES = 30;

/** nudge's own exit codes come from the one table (src/base/errors.ts: EXIT_CODES,
 * exitCodeOfState): no number is set as this process's exit code, or compared with a
 * NudgeError's, anywhere else. */
function exitCodeViolations(tree: SourceFile[]): string[] {
  return tree
    .filter((f) => /^(src|workers)\//.test(f.path) && f.path !== 'src/base/errors.ts')
    .filter((f) =>
      /process\.exit(Code\s*=\s*|\(\s*)\d|\b(error|err|e)\.exitCode\s*[!=]==?\s*\d/.test(
        codeOf(f.text),
      ),
    )
    .map((f) => f.path);
}

/** The folders whose modules hold rules: each module has its unit test at its mirror path
 * (test/unit/<folder>/<name>.test.ts, or <name>.<aspect>.test.ts). */
const RULE_FOLDERS = [
  'detect',
  'pane',
  'job-options',
  'jobs',
  'submit',
  'job-worker',
  'waiter',
  'status-bar',
  'agents',
  'locks',
  'relay',
];
function mirrorViolations(tree: SourceFile[]): string[] {
  const tests = tree.map((f) => f.path).filter((p) => p.startsWith('test/unit/'));
  const out: string[] = [];
  // A module of types alone holds no rule to test (its checks are the compiler's).
  const holdsCode = (f: SourceFile) =>
    /\b(function|class)\b|\bconst\s+\w+(\s*:[^=]+)?\s*=\s*(async\s*)?\(/.test(codeOf(f.text));
  for (const file of tree.filter((f) => RULE_FOLDERS.includes(srcFolder(f.path)) && holdsCode(f))) {
    const name = basename(file.path, '.ts');
    const mirror = `test/unit/${srcFolder(file.path)}/${name}.`;
    const has = tests.some((t) => t.startsWith(mirror) && t.endsWith('.test.ts'));
    if (!has) out.push(`${file.path} has no unit test at ${mirror}test.ts`);
  }
  return out;
}

/** The longest a source file may grow before it is split. */
const MAX_LINES = 350;

/** A file's lines, as `wc -l` counts them (a last line without its newline counts too). */
const linesOf = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** A tree that breaks each rule once: [path, text] of each file. */
const BROKEN_FILES: Record<string, Array<[path: string, text: string]>> = {
  'the folders of src/ import only what the map allows': [
    ['src/base/clock.ts', "import {x} from '../jobs/job.js';"],
  ],
  'workers/, scripts/ and test/ import only what theirs allows (tests never scripts/)': [
    ['test/unit/a.test.ts', "import {bench} from '../../scripts/bench.js';"],
  ],
  'no import cycle, type-only imports included': [
    ['src/jobs/a.ts', "import type {B} from './b.js';"],
    ['src/jobs/b.ts', "import type {A} from './a.js';"],
  ],
  'process is read only by the entries, src/process/ and base/this-process.ts': [
    ['src/jobs/a.ts', 'const home = process.env.HOME;'],
  ],
  'only src/process/ starts or signals processes': [
    ['src/jobs/a.ts', "import {spawn} from 'node:child_process';"],
  ],
  'proper-lockfile only in src/locks/': [
    ['src/watch/a.ts', "const lockfile = await import('proper-lockfile');"],
  ],
  'tmux argv only in src/tmux/': [
    ['src/pane/a.ts', "await run(['send-keys', '-t', pane, 'Enter']);"],
  ],
  'comments cite files that exist': [
    ['src/jobs/a.ts', '/** See src/jobs/gone.ts and tmux-facts.md §3. */'],
  ],
  'no file of src/ is over 350 lines': [['src/jobs/a.ts', 'x\n'.repeat(351)]],
  'each module of a rule folder has its unit test at its mirror path': [
    ['src/detect/new-rule.ts', 'export function rule() {\n  return 1;\n}'],
  ],
  'no code lists the agents by name (the registry and data/agents/ do)': [
    ['src/agents/profile.ts', "export const AGENT_NAMES = ['claude', 'gemini', 'codex'];"],
  ],
  'no file of src/verbs/ imports another verb': [
    ['src/verbs/doctor.ts', "import {projectRoot} from './install.js';"],
  ],
  'the host is resolved in one function; src/main.ts holds no host logic': [
    ['src/front/anywhere.ts', 'const host = hostOf(o.host, ctx.env);'],
    ['src/main.ts', 'const elsewhere = options.host !== undefined;'],
  ],
  'no numeric exit code outside the one table': [
    ['workers/job-worker.ts', 'process.exitCode = 1;'],
  ],
  'every file of workers/ is under 30 lines': [['workers/a.ts', 'x\n'.repeat(30)]],
  'no function of src/ or workers/ is over 80 lines': [
    ['src/jobs/a.ts', `export function long() {\n${'  step();\n'.repeat(79)}}`],
  ],
};

const BROKEN: Record<string, SourceFile[]> = Object.fromEntries(
  Object.entries(BROKEN_FILES).map(([rule, files]) => [
    rule,
    files.map(([path, text]) => ({path, text})),
  ]),
);

describe('the map of the code', () => {
  const tree = repoTree();

  test('every folder of src/ is on the map', () => {
    const folders = new Set(tree.map((f) => srcFolder(f.path)).filter(Boolean));
    expect([...folders].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  test("CONTRIBUTING.md's import table is this map", () => {
    const text = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const table: Record<string, string[]> = {};
    for (const m of text.matchAll(/^\| `([\w-]+)` +\| ([^|]+)\|$/gm)) {
      const list = (m[2] ?? '').replace(/\(.*\)/, '').trim();
      table[m[1] ?? ''] = list === '—' ? [] : list.split(', ').map((w) => w.trim());
    }
    const sorted = (r: Record<string, readonly string[]>) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, [...v].sort()]));
    expect(sorted(table)).toEqual(sorted(MAY_IMPORT));
  });

  test('unit tests mirror src/: test/unit/<folder of src>/<file>.test.ts (repo/ and harness/ for the rest)', () => {
    const misplaced = walk('test/unit').filter((path) => {
      const folder = path.split('/')[2] ?? '';
      return (
        path.split('/').length !== 4 ||
        !(folder in MAY_IMPORT || ['repo', 'harness'].includes(folder))
      );
    });
    expect(misplaced).toEqual([]);
  });

  test.each(Object.keys(RULES))('%s', (rule) => {
    expect(RULES[rule]?.(tree)).toEqual([]);
  });

  test.each(Object.keys(RULES))('%s: fails on a tree that breaks it', (rule) => {
    const broken = BROKEN[rule] ?? [];
    const found =
      rule === 'comments cite files that exist'
        ? staleCitationViolations(broken, () => false)
        : (RULES[rule]?.(broken) ?? []);
    expect(found.length, `${rule} found nothing in ${JSON.stringify(broken)}`).toBeGreaterThan(0);
  });
});
