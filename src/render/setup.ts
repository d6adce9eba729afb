import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {HostInstallResult} from '../front/host-install.js';
import type {DoctorResult} from '../verbs/doctor.js';
import type {InstallResult} from '../verbs/install.js';
import type {ScheduleResult} from '../verbs/schedule.js';
import type {Output} from './render.js';
import {wrapped} from './wrap.js';

const MARK = {
  add: '+',
  update: '~',
  present: '=',
  conflict: '!',
  remove: '-',
  absent: '.',
} as const;

const SAYS = {
  add: 'add',
  update: 'update',
  present: 'already there',
  conflict: 'left alone',
  remove: 'remove',
  absent: 'already gone',
} as const;

/** `nudge install`: one line per piece, the files, the backups, what to do next. Exit 1 when
 * a piece was left alone because something else was in its place. */
export function renderInstall(r: InstallResult, json: boolean, out: Output): ExitCode {
  const conflict = r.pieces.some((p) => p.action === 'conflict');
  if (json) {
    out.stdout(JSON.stringify(r));
    return conflict ? EXIT_CODES.failure : EXIT_CODES.ok;
  }
  const verb = r.mode === 'install' ? 'install' : 'uninstall';
  const where = r.scope === 'project' ? `project scope: ${r.root}` : 'user scope';
  out.stdout(`nudge ${verb} ${r.agent} (${where})${r.dryRun ? ' — dry run, nothing written' : ''}`);
  for (const p of r.pieces) {
    out.stdout(`  ${MARK[p.action]} ${p.what}: ${SAYS[p.action]} — ${p.file}`);
    if (p.note) out.stdout(`      ${p.note}`);
  }
  const changed = r.files.filter((f) => f.action !== 'none');
  const tense = r.dryRun ? 'would' : '';
  for (const f of changed) {
    const what = {create: 'create', edit: 'edit', delete: 'delete', restore: 'restore', none: ''}[
      f.action
    ];
    out.stdout(`${tense ? `would ${what}` : `${what.replace(/e?$/, 'ed')}`} ${f.file}`);
  }
  if (changed.length === 0 && r.pieces.length > 0) out.stdout('nothing to change');
  for (const b of r.backups) out.stdout(`backup: ${b}`);
  for (const n of r.notes) out.stdout(n);
  if (conflict) out.stderr('nudge: some pieces were left alone (marked !); see the lines above.');
  return conflict ? EXIT_CODES.failure : EXIT_CODES.ok;
}

/** `nudge host install`: what went where; a warning for what the host lacks. */
export function renderHostInstall(r: HostInstallResult, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  out.stdout(`nudge ${r.version} is on ${r.host}: ${r.command}.`);
  out.stdout(
    r.added
      ? `${r.host} was added to the hosts of ${r.config} (nudge jobs lists its jobs).`
      : `${r.host} was already among the hosts of ${r.config}.`,
  );
  for (const w of r.warnings) out.stderr(`nudge: ${w}`);
  return EXIT_CODES.ok;
}

/** `nudge doctor`: one line per check, its fix under it; exit 1 when one failed. */
export function renderDoctor(r: DoctorResult, json: boolean, out: Output): ExitCode {
  if (json) out.stdout(JSON.stringify(r));
  else {
    const name = Math.max(...r.checks.map((c) => c.name.length));
    const indent = name + 8;
    for (const c of r.checks) {
      const lead = `${c.status.padEnd(4)}  ${c.name.padEnd(name)}  `;
      for (const line of wrapped(c.detail, out.width, indent, lead)) out.stdout(line);
      if (c.fix)
        for (const line of wrapped(`fix: ${c.fix}`, out.width, indent, ' '.repeat(indent)))
          out.stdout(line);
    }
  }
  return r.ok ? EXIT_CODES.ok : EXIT_CODES.failure;
}

/** `nudge schedule`: the file(s) as text (a systemd unit or the plist preceded by its path
 * as a comment), or what was installed or removed. */
export function renderSchedule(r: ScheduleResult, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  if (r.action === 'print') {
    for (const f of r.files) {
      if (r.scheduler === 'systemd') out.stdout(`# ${f.path}`);
      out.stdout(f.content.replace(/\n$/, ''));
    }
    if (r.job === undefined)
      out.stderr(
        'nudge: a preview: nothing is written and no pane is marked; run this again with --write to keep the text and mark the pane for lines you put in place yourself, or with --install to put them in place too.',
      );
    else {
      if (r.scheduler === 'launchd')
        out.stderr(`nudge: save it as ${r.files[0]?.path}, or run this again with --install.`);
      out.stderr(
        `nudge: the text is in ${r.job} (0600); it types into ${r.pane}, the pane marked @nudge-schedule-${r.name}.`,
      );
    }
    return EXIT_CODES.ok;
  }
  if (r.action === 'install') {
    const where =
      r.scheduler === 'cron' ? 'your crontab' : r.files.map((f) => f.path).join(' and ');
    out.stdout(`installed schedule ${r.name} (${r.scheduler}) in ${where}`);
    out.stdout(
      `text: ${r.job} (0600); it types into ${r.pane}, the pane marked @nudge-schedule-${r.name}`,
    );
    out.stdout(`log: ${r.log}`);
  } else {
    out.stdout(
      r.ran.length === 0 && r.scheduler === 'cron'
        ? `no schedule ${r.name} in your crontab; nothing to remove`
        : `removed schedule ${r.name} (${r.scheduler})`,
    );
  }
  for (const cmd of r.ran) out.stdout(`ran: ${cmd.join(' ')}`);
  return EXIT_CODES.ok;
}
