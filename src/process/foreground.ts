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
