import {mkdir, rm} from 'node:fs/promises';
import {dirname} from 'node:path';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import type {CommandRun} from '../process/run-command.js';
import {
  cronMarker,
  launchdLabel,
  type Scheduler,
  systemdUnit,
  withoutCronBlock,
} from './schedule.js';

/**
 * A schedule put in place or taken out with the scheduler's own programs: `crontab`,
 * `launchctl` (the person's GUI domain) and `systemctl --user`. A program that fails is one
 * sentence that says what was left as it was.
 */

/** What the steps need: the schedule's name, its files, the person's uid, and a way to run a
 * program (recorded by the caller: `nudge schedule` shows what it ran). */
export interface SchedulerSteps {
  name: string;
  files: {launchd: string; service: string; timer: string};
  uid: number;
  exec: (file: string, args: string[], input?: string) => Promise<CommandRun>;
}

/** A failed program as one sentence: what ran, why it failed, what that left. */
export function failed(what: string, r: CommandRun, after: string): NudgeError {
  const why =
    r.startError ?? (r.stderr.trim() || r.output.trim() || `exit ${r.exitCode}`).split('\n')[0];
  return new NudgeError('scheduler-failed', `${what} failed (${why})${after}`);
}

/** The person's crontab now ('' when they have none). */
async function crontabNow({exec}: SchedulerSteps): Promise<string> {
  const r = await exec('crontab', ['-l']);
  if (r.exitCode === 0) return r.output;
  if (/no crontab/i.test(r.stderr)) return '';
  throw failed('crontab -l', r, '; nothing was changed.');
}

/** Take schedule `name` out of the scheduler (what is not there is not an error). */
export async function uninstallFrom(scheduler: Scheduler, steps: SchedulerSteps): Promise<void> {
  const {name, files, uid, exec} = steps;
  switch (scheduler) {
    case 'cron': {
      const now = await crontabNow(steps);
      if (!now.split('\n').includes(cronMarker(name))) return;
      const r = await exec('crontab', ['-'], withoutCronBlock(now, name));
      if (r.exitCode !== 0) throw failed('crontab -', r, '; the crontab is unchanged.');
      return;
    }
    case 'launchd':
      // In whichever domain it was loaded (not loaded: fine).
      for (const domain of launchdDomains(uid))
        await exec('launchctl', ['bootout', `${domain}/${launchdLabel(name)}`]);
      await rm(files.launchd, {force: true});
      return;
    case 'systemd': {
      await exec('systemctl', ['--user', 'disable', '--now', `${systemdUnit(name)}.timer`]);
      await rm(files.timer, {force: true});
      await rm(files.service, {force: true});
      const r = await exec('systemctl', ['--user', 'daemon-reload']);
      if (r.exitCode !== 0)
        throw failed('systemctl --user daemon-reload', r, '; the unit files are removed.');
      return;
    }
  }
}

/** Put schedule `name`'s files (`out`: its crontab block, plist or units) in place and load
 * them. */
export async function installInto(
  scheduler: Scheduler,
  out: ReadonlyArray<{path: string; content: string}>,
  steps: SchedulerSteps,
): Promise<void> {
  const {name, files, uid, exec} = steps;
  switch (scheduler) {
    case 'cron': {
      const now = withoutCronBlock(await crontabNow(steps), name);
      const next = `${now}${now === '' || now.endsWith('\n') ? '' : '\n'}${out[0]?.content ?? ''}`;
      const r = await exec('crontab', ['-'], next);
      if (r.exitCode !== 0) throw failed('crontab -', r, '; the crontab is unchanged.');
      return;
    }
    case 'launchd': {
      await mkdir(dirname(files.launchd), {recursive: true});
      await writeFileAtomic(files.launchd, out[0]?.content ?? '');
      // The person's GUI domain, where they are logged in at the Mac; over ssh (no GUI
      // session) bootstrap there fails, and their user domain takes the job instead.
      const tried: CommandRun[] = [];
      for (const domain of launchdDomains(uid)) {
        await exec('launchctl', ['bootout', `${domain}/${launchdLabel(name)}`]); // an older one
        const r = await exec('launchctl', ['bootstrap', domain, files.launchd]);
        if (r.exitCode === 0) return;
        tried.push(r);
      }
      throw failed(
        `launchctl bootstrap gui/${uid} ${files.launchd}`,
        tried[0] as CommandRun,
        `; the plist is written, load it with that command (or user/${uid} over ssh).`,
      );
    }
    case 'systemd': {
      await mkdir(dirname(files.service), {recursive: true});
      for (const f of out) await writeFileAtomic(f.path, f.content);
      for (const args of [
        ['--user', 'daemon-reload'],
        ['--user', 'enable', '--now', `${systemdUnit(name)}.timer`],
      ]) {
        const r = await exec('systemctl', args);
        if (r.exitCode !== 0)
          throw failed(
            `systemctl ${args.join(' ')}`,
            r,
            `; the units are written, run it yourself once your user manager runs (loginctl enable-linger).`,
          );
      }
      return;
    }
  }
}

/** Where a schedule is loaded into launchd, in the order tried: the person's GUI domain (a
 * login at the Mac), then their user domain (there with no GUI session: over ssh). */
export function launchdDomains(uid: number | undefined): string[] {
  return [`gui/${uid}`, `user/${uid}`];
}
