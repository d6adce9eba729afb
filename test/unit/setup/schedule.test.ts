import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {parse as parsePlist} from 'plist';
import {describe, expect, test} from 'vitest';
import {
  cronAsCalendar,
  cronAsLaunchd,
  cronBlock,
  everyAsCron,
  launchdPlist,
  parseCron,
  type ScheduleSpec,
  systemdUnits,
  withoutCronBlock,
} from '../../../src/setup/schedule.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** Words a shell would mangle if they were not quoted and escaped exactly. */
const HARD = ['%3', "it's 50% done", '$HOME `x` "q" \\ ;|&', 'ünï cödé ✓', '--', 'a  b'];

function spec(over: Partial<ScheduleSpec> = {}): ScheduleSpec {
  return {
    name: 'nightly',
    when: {kind: 'every', ms: 30 * 60_000},
    argv: [
      '/usr/bin/node',
      '/opt/tmux nudge/dist/src/cli.js',
      'submit',
      '--wait',
      '-S',
      '/tmp/tmux-0/default',
      '--pane',
      ...HARD,
    ],
    env: {NUDGE_HOME: '/home/me/.local/state/tmux-nudge', PATH: '/usr/bin:/bin'},
    log: '/home/me/.local/state/tmux-nudge/schedule/nightly.log',
    ...over,
  };
}

describe('cron expressions', () => {
  test('--every as cron', () => {
    expect(everyAsCron(60_000, '1m')).toBe('* * * * *');
    expect(everyAsCron(30 * 60_000, '30m')).toBe('*/30 * * * *');
    expect(everyAsCron(3_600_000, '1h')).toBe('0 * * * *');
    expect(everyAsCron(6 * 3_600_000, '6h')).toBe('0 */6 * * *');
    expect(everyAsCron(24 * 3_600_000, '1d')).toBe('0 0 * * *');
    for (const [ms, given] of [
      [45 * 60_000, '45m'],
      [90_000, '90s'],
      [5 * 3_600_000, '5h'],
      [2 * 86_400_000, '2d'],
    ] as const)
      expect(() => everyAsCron(ms, given)).toThrow(
        new RegExp(`--every ${given} cannot be written for cron`),
      );
  });

  test('bad expressions are one sentence', () => {
    expect(() => parseCron('* * * *')).toThrow(/has 4 fields, not 5/);
    expect(() => parseCron('61 * * * *')).toThrow(/"61" is not a minute \(0-59\)/);
    expect(() => parseCron('0 17-9 * * *')).toThrow(/the range "17-9" runs backwards/);
    expect(() => parseCron('*/0 * * * *')).toThrow(/a step of 0/);
    expect(parseCron('0 9 * JAN-mar mon-fri,sun')[4]?.values).toEqual([0, 1, 2, 3, 4, 5]);
  });

  test('as systemd OnCalendar and launchd StartCalendarInterval', () => {
    expect(cronAsCalendar('*/15 9-17 * * mon-fri')).toBe(
      'Mon,Tue,Wed,Thu,Fri *-*-* 09,10,11,12,13,14,15,16,17:0/15:00',
    );
    expect(cronAsCalendar('0 0 1 * *')).toBe('*-*-01 00:00:00');
    expect(cronAsLaunchd('0 9 * * 1-5')).toEqual(
      [1, 2, 3, 4, 5].map((d) => ({Minute: 0, Hour: 9, Weekday: d})),
    );
    expect(cronAsLaunchd('*/20 * * * *')).toEqual([{Minute: 0}, {Minute: 20}, {Minute: 40}]);
    // cron reads a day of month and a weekday as "either"; the others cannot say that
    expect(() => cronAsCalendar('0 9 1 * 1')).toThrow(/give one of them/);
    expect(() => cronAsLaunchd('0 9 1 * 1')).toThrow(/give one of them/);
  });
});

describe('the crontab block', () => {
  test('% escaped, every word quoted: the shell cron runs gets the argv byte for byte', async () => {
    const dir = useTempDir('nudge-cron-');
    const argsFile = join(dir, 'args');
    const program = join(dir, 'print-args');
    writeFileSync(
      program,
      `#!/bin/sh\nfor a in "$@"; do printf '%s\\0' "$a"; done > '${argsFile}'\nprintf 'env %s %s\\n' "$NUDGE_HOME" "$PATH"\n`,
      {mode: 0o755},
    );
    const s = spec({argv: [program, ...HARD]});
    const block = cronBlock(s);
    const [marker, line] = block.split('\n');
    expect(marker).toBe('# tmux-nudge schedule nightly');
    expect(block.endsWith('\n')).toBe(true);
    expect(line).toMatch(/^\*\/30 \* \* \* \* /);
    const command = line!.replace(/^(\S+ ){5}/, '');
    expect(command).not.toMatch(/(^|[^\\])%/); // no bare %: cron would cut the line there
    // what cron does with the command: \% becomes %, then /bin/sh -c runs it
    const log = join(dir, 'out.log');
    const r = await execa('/bin/sh', ['-c', command.replace(/\\%/g, '%').replace(s.log, log)]);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(argsFile, 'utf8').split('\0').slice(0, -1)).toEqual(HARD);
    expect(readFileSync(log, 'utf8')).toBe(`env ${s.env.NUDGE_HOME} ${s.env.PATH}\n`);
  });

  test('taking a block out leaves every other line as it was', () => {
    const theirs = 'MAILTO=me\n# my backups\n0 3 * * * backup.sh\n';
    const withBlock = `${theirs}${cronBlock(spec())}`;
    expect(withoutCronBlock(withBlock, 'nightly')).toBe(theirs);
    expect(withoutCronBlock(withBlock, 'other')).toBe(withBlock);
  });
});

describe('systemd units', () => {
  test('% and $ escaped for unit files; the timer from --every or --cron', () => {
    const {service, timer} = systemdUnits(spec());
    const exec = service.split('\n').find((l) => l.startsWith('ExecStart='))!;
    for (const part of [
      ' --pane %%3 ',
      ' "it\'s 50%% done" ',
      ' "$$HOME `x` \\"q\\" \\\\ ;|&" ',
      ' "/opt/tmux nudge/dist/src/cli.js" ',
    ])
      expect(exec).toContain(part);
    expect(service).toContain('Type=oneshot\n');
    expect(service).toContain('Environment=NUDGE_HOME=/home/me/.local/state/tmux-nudge\n');
    expect(service).toContain(`StandardOutput=append:${spec().log}\n`);
    expect(timer).toContain('OnUnitActiveSec=1800s\n');
    expect(systemdUnits(spec({when: {kind: 'cron', expr: '0 9 * * 1-5'}})).timer).toContain(
      'OnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 09:00:00\n',
    );
  });
});

describe('launchd plist', () => {
  test('round-trips through a plist parser: the argv, environment, interval and log exactly', () => {
    const s = spec();
    const parsed = parsePlist(launchdPlist(s)) as Record<string, unknown>;
    expect(parsed).toEqual({
      Label: 'dev.tmux-nudge.nightly',
      ProgramArguments: s.argv,
      EnvironmentVariables: s.env,
      StartInterval: 1800,
      StandardOutPath: s.log,
      StandardErrorPath: s.log,
      AbandonProcessGroup: true,
    });
    const cal = parsePlist(
      launchdPlist(spec({when: {kind: 'cron', expr: '30 8 * * 1'}})),
    ) as Record<string, unknown>;
    expect(cal.StartCalendarInterval).toEqual([{Minute: 30, Hour: 8, Weekday: 1}]);
    expect(cal.StartInterval).toBeUndefined();
  });
});
