import {mkdir, readFile, rename, stat} from 'node:fs/promises';
import {join} from 'node:path';
import {appendLine} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';

/**
 * Every call of an agent's hook (`nudge hook …`), proven or refused, one JSON line each in the
 * state dir's hooks/ (beside marks/, whose watchers wake the jobs): what `doctor` counts per hook (the newest mark of a pane replaces the one
 * before, so marks alone cannot say how many calls came). Bounded: past MAX_BYTES the log
 * becomes the previous one (one kept), so a day of calls is most of what it holds.
 */
export interface HookCall {
  atMs: number;
  /** The hook (`claude-stop`, `codex-notify` …). */
  source: string;
  /** Whether it proved its pane (and recorded its mark there). */
  proven: boolean;
  /** The pane it proved, or the one `$TMUX_PANE` claimed when it could not. */
  pane?: string | undefined;
  /** Why it could not (a clause). */
  why?: string | undefined;
  /** The turn was a side thread's, which no pane is (Codex's under its shared server). */
  side?: boolean | undefined;
}

/** The folder under the state dir. */
export const HOOK_CALLS_FOLDER = 'hooks';
const FILE = 'calls.jsonl';
const PREVIOUS = 'calls.old.jsonl';
/** About a day of calls for a person running a few agents (a call is ~120 bytes). */
const MAX_BYTES = 512 * 1024;

/** Append `call` to the log (never throws: a hook never fails over its bookkeeping). */
export async function logHookCall(stateDir: string, call: HookCall): Promise<void> {
  const dir = join(stateDir, HOOK_CALLS_FOLDER);
  await mkdir(dir, {recursive: true, mode: DIR_MODE}).catch(() => {});
  const size = await stat(join(dir, FILE)).then(
    (s) => s.size,
    () => 0,
  );
  if (size > MAX_BYTES) await rename(join(dir, FILE), join(dir, PREVIOUS)).catch(() => {});
  await appendLine(join(dir, FILE), JSON.stringify(call)).catch(() => {});
}

/** The calls logged in `dir` (the state dir's hooks/) since `sinceMs`, oldest first (lines
 * that do not parse skipped). */
export async function readHookCalls(dir: string, sinceMs: number): Promise<HookCall[]> {
  const calls: HookCall[] = [];
  for (const name of [PREVIOUS, FILE]) {
    const text = await readFile(join(dir, name), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const call = JSON.parse(line) as HookCall;
        if (typeof call.atMs === 'number' && call.atMs >= sinceMs) calls.push(call);
      } catch {
        // a line cut short (the disk full): skipped
      }
    }
  }
  return calls;
}
