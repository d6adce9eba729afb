import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {createServer} from 'node:net';
import {userInfo} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {CLI, cleanEnv, MAIN_SESSION, type TmuxClient, tmuxClient} from './private-tmux.js';
import {waitFor} from './wait-for.js';

/** What a test's tmux helpers offer (test/helpers/tmux-server.ts), so a host's tmux server
 * can stand where a local one does (a recorder pane there). */
export interface TmuxTestServer extends TmuxClient {
  dir: string;
  socket: string;
}

/** Where OpenSSH's server is (Debian's openssh-server; not on a user's PATH). */
export const SSHD = ['/usr/sbin/sshd', '/usr/bin/sshd'].find((p) => existsSync(p));

/**
 * One "host" for the remote tests: a real OpenSSH server of its own on 127.0.0.1 (a free
 * port, a host key and an authorized key made here), whose sessions get a home, a nudge
 * state folder and a tmux socket folder of their own (sshd's SetEnv) — so two of them on one
 * machine are two machines to nudge, and the user's own server, home and state are never
 * touched. nudge there is this build (`~/.local/bin/nudge`, where --host looks first),
 * wrapped so that each session it serves is counted: `+` when one starts, `-` when it ends.
 */
export interface SshHost extends TmuxTestServer {
  /** The alias in the test's ssh config. */
  name: string;
  port: number;
  /** The host's $HOME, $NUDGE_HOME and tmux socket. */
  home: string;
  state: string;
  tmuxSocket: string;
  /** The most sessions `nudge remote` served at once so far, and in all. */
  sessions(): {most: number; total: number};
  /** sshd's log (connections accepted). */
  log(): string;
  /** Stop this sshd (what was connected stays until it ends). */
  stop(): Promise<void>;
}

/** The hosts of one test, and what the local side needs to reach them. */
export interface SshWorld {
  hosts: SshHost[];
  /** The ssh config file with an alias per host (`-F`). */
  sshConfig: string;
  /** The local user's environment: its own NUDGE_HOME and config.toml naming the hosts. */
  env: Record<string, string>;
  localHome: string;
  localConfig: string;
  /** End the shared connections (as the user's `ssh -O exit` would). */
  closeConnections(): Promise<void>;
  /** End everything started here: the connections, then the relays of the local home, then
   * the hosts' tmux servers and sshds. */
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (for a server a test or the bench starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const {port} = server.address() as {port: number};
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Start `names.length` hosts in `root` (an empty temp folder, the caller's to remove) and
 * write the local side's ssh config and config.toml. */
export async function startSshHosts(
  root: string,
  names: readonly string[],
  o: {
    sessions?: number;
    config?: string;
    /** false: no nudge on the hosts (for `nudge host install` to put there). */
    nudge?: boolean;
  } = {},
): Promise<SshWorld> {
  if (!SSHD) throw new Error('no sshd: install openssh-server (scripts/install-test-programs.sh)');
  const stops: (() => Promise<void>)[] = [];
  const user = userInfo().username;
  // The user's key, shared by every host's authorized_keys.
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(root, 'id')]);
  // sshd as root needs its privilege-separation folder (the Debian service makes it).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', {recursive: true, mode: 0o755});
  const hosts: SshHost[] = [];
  const knownHosts: string[] = [];
  const aliases: string[] = [];
  for (const name of names) {
    const host = await startHost(root, name, user, o.nudge ?? true, stops);
    hosts.push(host);
    const key = readFileSync(join(host.dir, 'hostkey.pub'), 'utf8').split(' ').slice(0, 2);
    knownHosts.push(`[127.0.0.1]:${host.port} ${key.join(' ')}`);
    aliases.push(
      [
        `Host ${name}`,
        '  HostName 127.0.0.1',
        `  Port ${host.port}`,
        `  User ${user}`,
        `  IdentityFile ${join(root, 'id')}`,
        '  IdentitiesOnly yes',
        `  UserKnownHostsFile ${join(root, 'known_hosts')}`,
        '  StrictHostKeyChecking yes',
        '  LogLevel ERROR',
      ].join('\n'),
    );
  }
  writeFileSync(join(root, 'known_hosts'), `${knownHosts.join('\n')}\n`, {mode: 0o600});
  const sshConfig = join(root, 'ssh_config');
  writeFileSync(sshConfig, `${aliases.join('\n\n')}\n`, {mode: 0o600});
  const localHome = join(root, 'local', 'state');
  const localConfig = join(root, 'local', 'config');
  mkdirSync(join(localConfig, 'nudge'), {recursive: true, mode: 0o700});
  writeFileSync(
    join(localConfig, 'nudge', 'config.toml'),
    o.config ??
      [
        '[remote]',
        `hosts = [${names.map((n) => JSON.stringify(n)).join(', ')}]`,
        `ssh_config = ${JSON.stringify(sshConfig)}`,
        ...(o.sessions ? [`sessions = ${o.sessions}`] : []),
        '',
      ].join('\n'),
  );
  const env = cleanEnv({NUDGE_HOME: localHome, XDG_CONFIG_HOME: localConfig});
  const closeConnections = async () => {
    // The shared connections are ours: end each master by its socket.
    const dir = join(localHome, 'ssh');
    if (!existsSync(dir)) return;
    for (const f of readdirSync(dir).filter((f) => f.endsWith('.sock')))
      await execa(
        'ssh',
        ['-F', sshConfig, '-o', `ControlPath=${join(dir, f)}`, '-O', 'exit', 'unused'],
        {reject: false},
      );
  };
  const close = async () => {
    await closeConnections();
    killRelays(localHome);
    for (const stop of stops.reverse()) await stop();
  };
  return {hosts, sshConfig, env, localHome, localConfig, closeConnections, close};
}

/** Relay workers of this local home still running (a test that failed half-way). */
function killRelays(home: string): void {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('relay-worker.js') && environ.includes(`NUDGE_HOME=${home}\0`))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone, or not ours to read
    }
  }
}

async function startHost(
  root: string,
  name: string,
  user: string,
  withNudge: boolean,
  stops: (() => Promise<void>)[],
): Promise<SshHost> {
  const dir = join(root, name);
  const home = join(dir, 'home');
  const state = join(dir, 'state');
  const tmuxDir = join(dir, 'tmux');
  for (const d of [dir, home, state, tmuxDir, join(home, '.local', 'bin')])
    mkdirSync(d, {recursive: true, mode: 0o700});
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'hostkey')]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(root, 'id.pub')), {mode: 0o600});
  // This build, as an install would put it, counting the sessions it serves.
  const count = join(dir, 'sessions');
  writeFileSync(count, '');
  const nudge = join(home, '.local', 'bin', 'nudge');
  if (withNudge)
    writeFileSync(
      nudge,
      [
        '#!/bin/sh',
        `echo + >> '${count}'`,
        `'${process.execPath}' '${CLI}' "$@"`,
        'rc=$?',
        `echo - >> '${count}'`,
        'exit $rc',
        '',
      ].join('\n'),
    );
  if (withNudge) chmodSync(nudge, 0o755);
  const port = await freePort();
  const log = join(dir, 'sshd.log');
  const tmuxSocket = join(tmuxDir, `tmux-${process.getuid?.() ?? 0}`, 'default');
  // Where tmux itself would make it: the host's default server, as its nudge finds it.
  mkdirSync(join(tmuxDir, `tmux-${process.getuid?.() ?? 0}`), {mode: 0o700});
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'hostkey')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AllowUsers ${user}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'LogLevel VERBOSE',
      // The host's own home, state, tmux and config: a second machine.
      `SetEnv HOME=${home} NUDGE_HOME=${state} TMUX_TMPDIR=${tmuxDir} XDG_CONFIG_HOME=${join(dir, 'config')} XDG_STATE_HOME=${join(dir, 'xdg-state')}${caVars()}`,
      '',
    ].join('\n'),
  );
  const sshd = execa(SSHD!, ['-D', '-f', join(dir, 'sshd_config'), '-E', log], {
    reject: false,
    stdio: 'ignore',
  });
  await waitFor(
    `sshd ${name} listening on ${port}`,
    async () => (readLog(log).includes('Server listening') ? true : undefined),
    {
      timeoutMs: 20_000,
      describe: () => readLog(log),
    },
  );
  const env = cleanEnv({HOME: home, TMUX_TMPDIR: tmuxDir, HISTFILE: '', PS1: '$ '});
  const client = tmuxClient(tmuxSocket, env, ` on ${name}`);
  const {tmux} = client;
  await tmux(...MAIN_SESSION, 'bash', '--norc', '--noprofile');
  const stop = async () => {
    sshd.kill('SIGTERM');
    await sshd;
  };
  stops.push(async () => {
    await execa('tmux', ['-S', tmuxSocket, 'kill-server'], {reject: false, env, extendEnv: false});
    await stop();
  });
  return {
    name,
    port,
    dir,
    socket: tmuxSocket,
    home,
    state,
    tmuxSocket,
    ...client,
    sessions: () => {
      let now = 0;
      let most = 0;
      let total = 0;
      for (const c of readFileSync(count, 'utf8')) {
        if (c === '+') {
          now++;
          total++;
          most = Math.max(most, now);
        } else if (c === '-') now--;
      }
      return {most, total};
    },
    log: () => readLog(log),
    stop,
  };
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The machine's own CA settings, as a real host has its own: npm on the "host" (nudge host
 * install) reaches the registry as npm here does. */
function caVars(): string {
  return ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR']
    .filter((k) => process.env[k] && !/\s/.test(process.env[k] ?? ''))
    .map((k) => ` ${k}=${process.env[k]}`)
    .join('');
}
