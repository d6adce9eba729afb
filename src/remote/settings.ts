import {homedir} from 'node:os';
import {join} from 'node:path';
import {type ConfigEnv, configTable} from '../base/config.js';
import {parseDuration} from '../base/durations.js';
import {NudgeError} from '../base/errors.js';
import {checkHost} from './dest.js';

/** How nudge reaches other hosts: the `[remote]` table of config.toml, with defaults. */
export interface RemoteSettings {
  /** The hosts `nudge jobs` lists besides this machine. */
  hosts: string[];
  /** At most this many ssh sessions to one host at once, from all of this user's nudge
   * processes together (sshd's own MaxSessions is 10 by default). */
  sessions: number;
  /** How long the shared connection to a host stays up after its last session (seconds). */
  persistS: number;
  /** The ssh program. */
  ssh: string;
  /** An ssh config file to use instead of ~/.ssh/config (`ssh -F`). */
  sshConfig: string | undefined;
  /** The command that starts nudge on a host, where it is not `nudge` on the PATH of a
   * non-interactive ssh session (nor ~/.local/bin/nudge). */
  nudge: Record<string, string>;
}

export const REMOTE_DEFAULTS = {sessions: 8, persist: '10m', ssh: 'ssh'} as const;

/** The `[remote]` settings of the user's config file (one sentence naming the file and the
 * key for a bad one, exit 2). */
export function remoteSettings(env: ConfigEnv): RemoteSettings {
  const found = configTable(env, 'remote');
  const t = found?.table ?? {};
  const file = found?.file ?? 'config.toml';
  const bad = (key: string, want: string) =>
    new NudgeError('bad-config', `${file}: remote.${key} must be ${want}.`);

  const hosts = t.hosts ?? [];
  if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === 'string'))
    throw bad('hosts', 'a list of ssh destinations, e.g. hosts = ["gpu", "me@mini"]');
  for (const h of hosts) checkHost(h, `${file}: remote.hosts has`);

  const sessions = t.sessions ?? REMOTE_DEFAULTS.sessions;
  if (typeof sessions !== 'number' || !Number.isInteger(sessions) || sessions < 1 || sessions > 64)
    throw bad('sessions', 'a whole number from 1 to 64');

  const persist = t.persist ?? REMOTE_DEFAULTS.persist;
  if (typeof persist !== 'string') throw bad('persist', 'a duration such as "10m"');
  const persistS = Math.max(
    1,
    Math.round(parseDuration(persist, `${file}: remote.persist`) / 1000),
  );

  const ssh = t.ssh ?? REMOTE_DEFAULTS.ssh;
  if (typeof ssh !== 'string' || ssh === '') throw bad('ssh', 'the ssh program, e.g. "ssh"');

  const sshConfig = t.ssh_config;
  if (sshConfig !== undefined && typeof sshConfig !== 'string')
    throw bad('ssh_config', 'the path of an ssh config file');

  const nudge = t.nudge ?? {};
  if (
    typeof nudge !== 'object' ||
    nudge === null ||
    Array.isArray(nudge) ||
    !Object.values(nudge).every((v) => typeof v === 'string' && v.trim() !== '')
  )
    throw bad('nudge', 'a table of host = "command", e.g. gpu = "/opt/node/bin/nudge"');

  return {
    hosts: [...new Set(hosts as string[])],
    sessions,
    persistS,
    ssh,
    sshConfig: sshConfig === undefined ? undefined : expandHome(sshConfig, env),
    nudge: nudge as Record<string, string>,
  };
}

function expandHome(path: string, env: ConfigEnv): string {
  return path === '~' || path.startsWith('~/') ? join(env.HOME || homedir(), path.slice(1)) : path;
}
