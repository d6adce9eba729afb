/**
 * The fields of a `/proc/PID/stat` line after the command name. The name (field 2) is in
 * parentheses and may hold spaces or ")", so the fields start after the last ")": index 0 is
 * field 3 (state), so field N is at index N - 3 (ppid 4 → 1, pgrp 5 → 2, tpgid 8 → 5,
 * utime 14 → 11, starttime 22 → 19).
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
