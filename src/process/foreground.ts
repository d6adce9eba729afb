import {readFile} from 'node:fs/promises';

/**
 * What runs in the foreground of a pane's terminal, read from Linux's /proc: the terminal's
 * foreground process group (`tpgid`, field 8 of /proc/<pane pid>/stat) and the command line of
 * its leader. tmux's `pane_current_command` only says `node` for Gemini CLI and Codex (both
 * start from a Node launcher); the command line says which program it is. undefined where
 * /proc cannot tell (macOS, another user's process, a process that just ended).
 */
export async function foregroundCommandLine(panePid: number): Promise<string[] | undefined> {
  if (!Number.isSafeInteger(panePid) || panePid <= 0) return undefined;
  try {
    const stat = await readFile(`/proc/${panePid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ")": fields after
    // the last ")" are fixed. They start at field 3 (state), so tpgid (field 8) is the 6th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const tpgid = Number.parseInt(fields[5] ?? '', 10);
    const leader = Number.isSafeInteger(tpgid) && tpgid > 0 ? tpgid : panePid;
    const cmdline = await readFile(`/proc/${leader}/cmdline`, 'utf8');
    const argv = cmdline.split('\0').filter(Boolean);
    return argv.length > 0 ? argv : undefined;
  } catch {
    return undefined;
  }
}

/** The agent CLI a command line runs, by its executable or script path (`node
 * …/bin/codex`, `…/@google/gemini-cli/dist/index.js`, `claude`), if any. */
export function agentOfCommandLine(
  argv: readonly string[],
): 'claude' | 'gemini' | 'codex' | undefined {
  // The interpreter, then its script (skipping interpreter options such as
  // --max-old-space-size=…).
  const words = argv.slice(0, 4).filter((w, i) => i === 0 || !w.startsWith('-'));
  for (const word of words.slice(0, 2)) {
    const base = word.split('/').pop() ?? '';
    if (/^claude(\.exe)?$/.test(base) || word.includes('/@anthropic-ai/claude-code/'))
      return 'claude';
    if (/^codex(\.js)?$/.test(base) || word.includes('/@openai/codex/')) return 'codex';
    if (/^gemini(\.js)?$/.test(base) || word.includes('/@google/gemini-cli/')) return 'gemini';
  }
  return undefined;
}
