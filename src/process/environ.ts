import {readFile} from 'node:fs/promises';
import {processView} from './view.js';

/** The variables that say where an agent keeps its records. */
export const RECORD_VARIABLES = [
  'HOME',
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'PI_CODING_AGENT_DIR',
  'COPILOT_HOME',
] as const;

/** The most of /proc/<pid>/environ read (a process's environment is far smaller). */
const ENVIRON_LIMIT = 1024 * 1024;

/**
 * Where the program `pid` keeps its records: its own values of {@link RECORD_VARIABLES}, read
 * from /proc/<pid>/environ (the environment it started with; readable for a process of the
 * same user), or undefined where the process view is `ps` (macOS shows no environment of
 * another process in a form that can be read back exactly) or it cannot be read — the
 * caller's own environment is then used (docs/ask.md).
 */
export async function recordEnvironment(
  pid: number,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string> | undefined> {
  if (processView(env) !== 'proc' || !Number.isSafeInteger(pid) || pid <= 0) return undefined;
  let raw: Buffer;
  try {
    raw = await readFile(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const pair of raw.subarray(0, ENVIRON_LIMIT).toString('utf8').split('\0')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (eq > 0 && (RECORD_VARIABLES as readonly string[]).includes(name))
      out[name] = pair.slice(eq + 1);
  }
  return out;
}
