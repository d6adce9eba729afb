import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {onTestFinished} from 'vitest';

/** A fresh temporary directory, removed when the current test finishes. */
export function useTempDir(prefix = 'nudge-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, {recursive: true, force: true, maxRetries: 3}));
  return dir;
}
