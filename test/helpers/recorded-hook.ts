import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {onTestFinished} from 'vitest';
import {fixture} from './run-nudge.js';
import {useTempDir} from './temp-dir.js';

/** A call of the hook command, as record-call.mjs wrote it. */
export interface RecordedCall {
  args: string[];
  stdin: string;
}

/**
 * A program `nudge install` writes into an agent (data/hooks/`name`), loaded as the agent
 * loads it, whose hook command is a real program that records each call it is given
 * (record-call.mjs, through $NUDGE_CALLS_LOG, which the program's spawn inherits).
 */
export async function withRecordedHook<M>(
  name: string,
): Promise<{mod: M; calls: () => RecordedCall[]}> {
  const dir = useTempDir('nudge-hook-program-');
  const log = join(dir, 'calls.jsonl');
  process.env.NUDGE_CALLS_LOG = log;
  onTestFinished(() => {
    delete process.env.NUDGE_CALLS_LOG;
  });
  const source = readFileSync(new URL(`../../data/hooks/${name}`, import.meta.url), 'utf8')
    .replaceAll('NUDGE_NODE', JSON.stringify(process.execPath))
    .replaceAll('NUDGE_CLI', JSON.stringify(fixture('record-call.mjs')));
  const file = join(dir, name.endsWith('.js') ? name.replace(/\.js$/, '.mjs') : name);
  writeFileSync(file, source);
  const mod = (await import(pathToFileURL(file).href)) as M;
  const calls = () =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as RecordedCall)
      : [];
  return {mod, calls};
}
