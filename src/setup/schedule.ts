import {join} from 'node:path';
import {build as buildPlist, type PlistValue} from 'plist';
import {NudgeError} from '../base/errors.js';
import {shellWord} from '../base/shell.js';

/**
 * The three schedulers' files for one scheduled `nudge submit --wait`: a crontab line, a
 * launchd agent plist, a systemd user service and timer. Pure text from a ScheduleSpec; putting
 * them in place is the command's (src/verbs/schedule.ts). Formats and their pitfalls:
 * docs/install-and-scheduling.md.
 */

export type Scheduler = 'cron' | 'launchd' | 'systemd';
export const SCHEDULERS: readonly Scheduler[] = ['cron', 'launchd', 'systemd'];

export type When = {kind: 'every'; ms: number} | {kind: 'cron'; expr: string};

export interface ScheduleSpec {
  name: string;
  when: When;
  /** The whole command: absolute node, the CLI, `submit --wait -S SOCKET …`. */
  argv: string[];
  /** Set for the command (NUDGE_HOME, PATH): a scheduler's environment is nearly empty. */
  env: Record<string, string>;
  /** Where the command's output goes. */
  log: string;
}

/** A schedule's name: it names the crontab block, the plist and the units. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The crontab block's first line, which finds it again. */
export function cronMarker(name: string): string {
  return `# tmux-nudge schedule ${name}`;
}

export const launchdLabel = (name: string) => `dev.tmux-nudge.${name}`;
export const systemdUnit = (name: string) => `tmux-nudge-${name}`;

/** Where each scheduler's files for schedule `name` go: the plist, the two user units. */
export function schedulerFiles(
  home: string,
  env: NodeJS.ProcessEnv,
  name: string,
): {launchd: string; service: string; timer: string} {
  const units = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'systemd', 'user');
  return {
    launchd: join(home, 'Library', 'LaunchAgents', `${launchdLabel(name)}.plist`),
    service: join(units, `${systemdUnit(name)}.service`),
    timer: join(units, `${systemdUnit(name)}.timer`),
  };
}

// ---------------------------------------------------------------- cron expressions

const FIELDS = [
  {name: 'minute', min: 0, max: 59},
  {name: 'hour', min: 0, max: 23},
  {name: 'day of month', min: 1, max: 31},
  {name: 'month', min: 1, max: 12},
  {name: 'day of week', min: 0, max: 7},
] as const;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** One field: `*`, or the sorted values it allows; `star` keeps `*` and `*\/N` apart. */
export interface CronField {
  star: boolean;
  values: number[];
  /** The step of `*\/N` (star is then false). */
  step?: number;
}

function badCron(expr: string, why: string): NudgeError {
  return new NudgeError(
    'bad-usage',
    `--cron ${JSON.stringify(expr)} is not a cron expression: ${why}.`,
  );
}

function parseField(expr: string, text: string, i: number): CronField {
  const f = FIELDS[i]!;
  const names = i === 3 ? MONTHS : i === 4 ? DAYS : undefined;
  const num = (s: string): number => {
    const named = names?.indexOf(s.toLowerCase()) ?? -1;
    const v = named >= 0 ? named + (i === 3 ? 1 : 0) : /^\d+$/.test(s) ? Number(s) : Number.NaN;
    if (!Number.isInteger(v) || v < f.min || v > f.max)
      throw badCron(expr, `${JSON.stringify(s)} is not a ${f.name} (${f.min}-${f.max})`);
    return v;
  };
  if (text === '*') return {star: true, values: range(f.min, f.max, 1)};
  const values = new Set<number>();
  let step: number | undefined;
  for (const part of text.split(',')) {
    const m = /^(\*|[^/-]+(?:-[^/-]+)?)(?:\/(\d+))?$/.exec(part);
    if (!m) throw badCron(expr, `${JSON.stringify(part)} is not a ${f.name}`);
    const by = m[2] === undefined ? 1 : Number(m[2]);
    if (by < 1) throw badCron(expr, `a step of 0 in ${JSON.stringify(part)}`);
    const [a, b] =
      m[1] === '*'
        ? [f.min, f.max]
        : (m[1]!.split('-') as [string, string?]).map((s) =>
            s === undefined ? undefined : num(s),
          );
    const from = a as number;
    const to = b === undefined ? (m[2] === undefined ? from : f.max) : (b as number);
    if (to < from) throw badCron(expr, `the range ${JSON.stringify(part)} runs backwards`);
    for (const v of range(from, to, by)) values.add(i === 4 && v === 7 ? 0 : v);
    if (m[1] === '*' && text.split(',').length === 1) step = by;
  }
  return {star: false, values: [...values].sort((x, y) => x - y), ...(step ? {step} : {})};
}

function range(from: number, to: number, by: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v += by) out.push(v);
  return out;
}

/** The five fields of a cron expression, checked. */
export function parseCron(expr: string): CronField[] {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5)
    throw badCron(
      expr,
      `it has ${parts.length} field${parts.length === 1 ? '' : 's'}, not 5 (minute hour day-of-month month day-of-week)`,
    );
  return parts.map((p, i) => parseField(expr, p, i));
}

/** `--every` as a cron expression: whole minutes dividing an hour, hours dividing a day, or a day. */
export function everyAsCron(ms: number, given: string): string {
  const minutes = ms / 60_000;
  const bad = () =>
    new NudgeError(
      'bad-usage',
      `--every ${given} cannot be written for cron: use whole minutes that divide an hour (1m, 5m, 30m …), hours that divide a day (1h, 2h, 6h …) or 1d, or give --cron.`,
    );
  if (!Number.isInteger(minutes) || minutes < 1) throw bad();
  if (minutes < 60) {
    if (60 % minutes !== 0) throw bad();
    return minutes === 1 ? '* * * * *' : `*/${minutes} * * * *`;
  }
  const hours = minutes / 60;
  if (Number.isInteger(hours) && hours < 24 && 24 % hours === 0)
    return hours === 1 ? '0 * * * *' : `0 */${hours} * * *`;
  if (hours === 24) return '0 0 * * *';
  throw bad();
}

// ---------------------------------------------------------------- cron

/** `word` for the shell cron runs, with `%` escaped (a bare % is a newline to cron). */
function cronWord(word: string): string {
  return shellWord(word).replace(/%/g, '\\%');
}

/** The crontab block: a marker comment and the line. */
export function cronBlock(spec: ScheduleSpec): string {
  const expr =
    spec.when.kind === 'cron'
      ? spec.when.expr.trim().split(/\s+/).join(' ')
      : everyAsCron(spec.when.ms, '');
  const env = Object.entries(spec.env).map(([k, v]) => `${k}=${cronWord(v)}`);
  const command = [...env, ...spec.argv.map(cronWord), '>>', cronWord(spec.log), '2>&1'].join(' ');
  return `${cronMarker(spec.name)}\n${expr} ${command}\n`;
}

/** A crontab without the block of `name` (the marker line and the line after it). */
export function withoutCronBlock(crontab: string, name: string): string {
  const lines = crontab.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (lines[i] === cronMarker(name)) {
      i += 1; // and its line
      continue;
    }
    out.push(lines[i]!);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------- systemd

/** `word` for ExecStart=: quoted when needed, `%` and `$` doubled (specifiers, variables). */
function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /^[\w@%+=:,./-]+$/.test(escaped)
    ? escaped
    : `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const SYSTEMD_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function calendarField(f: CronField, i: number): string {
  if (f.star) return '*';
  if (f.step !== undefined && f.values[0] === FIELDS[i]!.min) return `${FIELDS[i]!.min}/${f.step}`;
  return f.values.map((v) => String(v).padStart(2, '0')).join(',');
}

/** A cron expression as systemd's OnCalendar=. */
export function cronAsCalendar(expr: string): string {
  const [min, hour, dom, month, dow] = parseCron(expr) as [
    CronField,
    CronField,
    CronField,
    CronField,
    CronField,
  ];
  if (!dom.star && !dow.star)
    throw badCron(
      expr,
      'systemd and launchd cannot say "this day of the month or this weekday" (cron\'s reading of both); give one of them',
    );
  const days = dow.star ? '' : `${dow.values.map((d) => SYSTEMD_DAYS[d]).join(',')} `;
  return `${days}*-${calendarField(month, 3)}-${calendarField(dom, 2)} ${calendarField(hour, 1)}:${calendarField(min, 0)}:00`;
}

export function systemdUnits(spec: ScheduleSpec): {service: string; timer: string} {
  const what = `tmux-nudge schedule ${spec.name}`;
  const env = Object.entries(spec.env).map(([k, v]) => `Environment=${systemdWord(`${k}=${v}`)}`);
  const service = [
    '[Unit]',
    `Description=${what}`,
    '',
    '[Service]',
    // --wait: a oneshot's leftover processes are killed when its main process exits
    'Type=oneshot',
    ...env,
    `ExecStart=${spec.argv.map(systemdWord).join(' ')}`,
    `StandardOutput=append:${spec.log.replace(/%/g, '%%')}`,
    `StandardError=append:${spec.log.replace(/%/g, '%%')}`,
    '',
  ].join('\n');
  const when =
    spec.when.kind === 'cron'
      ? [`OnCalendar=${cronAsCalendar(spec.when.expr)}`]
      : [
          `OnActiveSec=${Math.round(spec.when.ms / 1000)}s`,
          `OnUnitActiveSec=${Math.round(spec.when.ms / 1000)}s`,
        ];
  const timer = [
    '[Unit]',
    `Description=${what}`,
    '',
    '[Timer]',
    ...when,
    'AccuracySec=1s',
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return {service, timer};
}

// ---------------------------------------------------------------- launchd

/** A cron expression as launchd's StartCalendarInterval (one dict per combination). */
export function cronAsLaunchd(expr: string): Array<Record<string, number>> {
  const fields = parseCron(expr);
  if (!fields[2]!.star && !fields[4]!.star)
    throw badCron(
      expr,
      'systemd and launchd cannot say "this day of the month or this weekday" (cron\'s reading of both); give one of them',
    );
  const keys = ['Minute', 'Hour', 'Day', 'Month', 'Weekday'];
  let dicts: Array<Record<string, number>> = [{}];
  fields.forEach((f, i) => {
    if (f.star) return;
    dicts = dicts.flatMap((d) => f.values.map((v) => ({...d, [keys[i]!]: v})));
  });
  if (dicts.length > 1000)
    throw badCron(
      expr,
      `launchd would need ${dicts.length} calendar entries; give a coarser schedule`,
    );
  return dicts;
}

export function launchdPlist(spec: ScheduleSpec): string {
  const when: Record<string, PlistValue> =
    spec.when.kind === 'cron'
      ? {StartCalendarInterval: cronAsLaunchd(spec.when.expr)}
      : {StartInterval: Math.round(spec.when.ms / 1000)};
  return `${buildPlist({
    Label: launchdLabel(spec.name),
    ProgramArguments: spec.argv,
    EnvironmentVariables: spec.env,
    ...when,
    StandardOutPath: spec.log,
    StandardErrorPath: spec.log,
    // --wait keeps the job in the foreground; this keeps a detached worker alive too
    AbandonProcessGroup: true,
  })}\n`;
}
