import {readdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import {READ_LIMITS, readTextCapped} from '../base/bounded-read.js';
import {soundStateFolder} from '../base/paths.js';
import {runFile} from '../process/spawn.js';
import {type Check, fail, ok} from './check.js';
import {type Manifest, readManifest} from './install.js';
import {defaultHome} from './place.js';
import {cronMarker, launchdLabel, systemdUnit} from './schedule.js';
import {gonePaths} from './self-paths.js';

/** Where one thing nudge wrote runs nudge from, and what mends it. */
interface Written {
  what: string;
  text: string;
  fix: string;
}

/**
 * `doctor`'s look at every node and CLI path nudge wrote — into agents' files (the files each
 * install record names) and into schedules (the crontab's nudge lines, launchd plists,
 * systemd units): a path that no longer exists (node upgraded or moved, nudge reinstalled
 * elsewhere) fails, naming the command that writes this nudge's paths again.
 */
export async function checkWrittenPaths(o: {
  env: Record<string, string | undefined>;
}): Promise<Check[]> {
  const written = [...(await installed(o.env)), ...(await scheduled(o.env))];
  const checks: Check[] = [];
  for (const w of written) {
    const gone = gonePaths(w.text);
    if (gone.length > 0)
      checks.push(
        fail(
          'written paths',
          `${w.what} runs nudge with ${gone.join(' and ')}, which ${gone.length > 1 ? 'no longer exist' : 'no longer exists'} (node upgraded or moved?).`,
          w.fix,
        ),
      );
  }
  if (checks.length === 0 && written.length > 0)
    checks.push(
      ok(
        'written paths',
        `Every node and nudge path in the ${written.length} files nudge wrote exists.`,
      ),
    );
  return checks;
}

/** The files of each install record under the state dir. */
async function installed(env: Record<string, string | undefined>): Promise<Written[]> {
  const dir = soundStateFolder(env, 'install');
  if (dir === undefined) return [];
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Written[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const manifest: Manifest | undefined = await readManifest(join(dir, name)).catch(
      () => undefined,
    );
    if (!manifest) continue;
    const scope = manifest.scope === 'project' ? ` --scope project (in ${manifest.root})` : '';
    for (const file of Object.keys(manifest.files)) {
      const text = await readTextCapped(file, READ_LIMITS.record).catch(() => undefined);
      if (text !== undefined)
        out.push({
          what: file,
          text,
          fix: `Run nudge install ${manifest.agent}${scope}: it writes this node's and nudge's paths.`,
        });
    }
  }
  return out;
}

/** The crontab's lines and the launchd and systemd files of nudge's schedules. */
async function scheduled(env: Record<string, string | undefined>): Promise<Written[]> {
  const fix =
    'Run nudge schedule again with its --name and --install (installing a name again replaces it), or take it out with --uninstall.';
  const out: Written[] = [];
  const cron = await runFile('crontab', ['-l'], {timeoutMs: 10_000, maxBuffer: 1024 * 1024});
  if (cron.ok && cron.stdout.includes(cronMarker('').trimEnd()))
    out.push({what: 'your crontab', text: cron.stdout, fix});
  const home = defaultHome(env);
  const places = [
    {dir: join(home, 'Library', 'LaunchAgents'), prefix: launchdLabel('')},
    {
      dir: join(env.XDG_CONFIG_HOME || join(home, '.config'), 'systemd', 'user'),
      prefix: systemdUnit(''),
    },
  ];
  for (const {dir, prefix} of places) {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (!name.startsWith(prefix)) continue;
      const text = await readFile(join(dir, name), 'utf8').catch(() => undefined);
      if (text !== undefined) out.push({what: join(dir, name), text, fix});
    }
  }
  return out;
}
