/**
 * The macOS workflow (.github/workflows/macos.yml) cannot run on these machines; `.ci/run`
 * checks it against the workflow schema (npm run lint:workflows). This reads what it runs: the
 * runner and Node lines the issue names, tmux from Homebrew, and test files that exist (a test
 * renamed here would otherwise drop out of the Mac run unseen).
 */
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {expect, test} from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const WORKFLOW = readFileSync(join(ROOT, '.github', 'workflows', 'macos.yml'), 'utf8');

test('macOS 15, Node 20.19, 22 and 24, tmux from Homebrew, the setup script', () => {
  expect(WORKFLOW).toMatch(/^\s+runs-on: macos-15$/m);
  expect(WORKFLOW).toMatch(/^\s+node: \[["']20\.19["'], ["']22["'], ["']24["']\]$/m);
  expect(WORKFLOW).toContain('brew install tmux');
  expect(WORKFLOW).toContain('bash scripts/setup.sh');
  expect(WORKFLOW).toContain('npm run typecheck');
  expect(WORKFLOW).toContain('npx vitest run --project unit');
});

test('every test file it names exists, and it runs the process view, the corpus and launchd', () => {
  const files = [...WORKFLOW.matchAll(/test\/[\w/.-]+\.test\.ts/g)].map((m) => m[0]);
  expect(files.length).toBeGreaterThan(5);
  for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true);
  expect(files).toEqual(
    expect.arrayContaining([
      'test/integration/process-view.test.ts',
      'test/integration/detection-corpus.test.ts',
      'test/integration/schedule.test.ts',
    ]),
  );
  expect(WORKFLOW).toContain('schedule.test.ts -t launchd');
});
