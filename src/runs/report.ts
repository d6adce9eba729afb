import {formatDuration} from '../base/durations.js';
import type {FileChange, RunReport, RunStatus} from '../jobs/run-report.js';
import type {TerminalState} from '../jobs/states.js';

/** The notice's word for an ending. */
export function runStatusOf(state: TerminalState, timeout?: 'idle' | 'total'): RunStatus {
  switch (state) {
    case 'done':
      return 'success';
    case 'failed':
      return 'failed';
    case 'timeout':
      return timeout === 'idle' ? 'idle-timeout' : 'timeout';
    case 'cancelled':
      return 'cancelled';
    case 'blocked':
      return 'blocked';
    case 'lost':
      return 'lost';
  }
}

/** `3 files changed`, `1 file changed`, `no files changed`, or nothing outside git. */
function filesPhrase(changes: FileChange[] | null): string | undefined {
  if (changes === null) return undefined;
  const n = changes.length;
  return n === 0 ? 'no files changed' : `${n} file${n === 1 ? '' : 's'} changed`;
}

/**
 * The one-line notice typed into the calling pane:
 * `[nudge run <job>] success|failed (exit N)|idle-timeout|timeout after 3m42s — 3 files changed — report: <path>`.
 */
export function runNotice(r: RunReport): string {
  const status =
    r.status === 'failed' && r.exitCode !== undefined ? `failed (exit ${r.exitCode})` : r.status;
  const files = filesPhrase(r.changes);
  return [
    `[nudge run ${r.job}] ${status} after ${formatDuration(r.durationMs)}`,
    ...(files ? [files] : []),
    `report: ${r.path}`,
  ].join(' — ');
}

/** `file (+a, -d)`, binary files as `file (binary)`. */
export function changeLine(c: FileChange): string {
  return c.added === null || c.deleted === null
    ? `${c.file} (binary)`
    : `${c.file} (+${c.added}, -${c.deleted})`;
}

/** report.md. */
export function renderReport(r: RunReport): string {
  const lines = [`# nudge run ${r.job}: ${r.status}`, ''];
  const field = (name: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') lines.push(`- **${name}:** ${value}`);
  };
  field('Status', r.status);
  field('Reason', r.reason);
  field('Exit code', r.exitCode);
  field('Duration', `${formatDuration(r.durationMs)} (${r.startedAt} → ${r.endedAt})`);
  field('Command', r.command === undefined ? undefined : `\`${r.command.replace(/`/g, "'")}\``);
  field('Agent', r.agent);
  field('Pane', r.pane);
  field('Folder', r.cwd);
  field('Worktree', r.worktree);
  field('Branch', r.branch);
  if (r.pr) field('Pull request', r.pr.url ?? `skipped: ${r.pr.skipped ?? ''}`);
  field('Log', r.log);
  field('Events', r.events);
  if (r.prompt !== undefined) lines.push('', '## Prompt', '', fenced(r.prompt));
  lines.push('', '## Changes', '');
  if (r.changes === null) lines.push('Not a git work tree: files were not tracked.');
  else if (r.changes.length === 0) lines.push('No files changed.');
  else for (const c of r.changes) lines.push(`- ${changeLine(c)}`);
  lines.push('', '## Commits', '');
  if (r.commits.length === 0) lines.push('None.');
  else for (const c of r.commits) lines.push(`- ${c}`);
  if (r.permissionStops.length > 0) {
    lines.push('', '## Permission stops', '');
    for (const p of r.permissionStops) {
      const detail = p.detail.length ? ` (${p.detail.join(' / ')})` : '';
      lines.push(`- ${p.at}: ${p.question}${detail} — ${p.answer}`);
    }
  }
  lines.push('', '## Last lines of output', '', fenced(r.outputTail.join('\n')), '');
  return lines.join('\n');
}

/** Text in a code fence longer than any run of backticks in it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}text\n${text}\n${fence}`;
}
