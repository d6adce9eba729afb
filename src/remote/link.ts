import {createHash} from 'node:crypto';
import {rm} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {realClock} from '../base/clock.js';
import {NudgeError} from '../base/errors.js';
import {shellWord} from '../base/shell.js';
import {thisProcess} from '../base/this-process.js';
import {nudgeVersion} from '../base/version.js';
import {SlotsBusy, takeSlot, withLock} from '../locks/session-slots.js';
import {type Piped, type PipedEnd, startPiped} from '../process/piped.js';
import {runCommand} from '../process/run-command.js';
import {controlDir, ensurePrivateDir, socketAlive} from './control-dir.js';
import {type Hello, parseMessage, REMOTE_PROTOCOL, type RemoteMessage} from './protocol.js';
import type {RemoteSettings} from './settings.js';

/** How long a caller waits for one of the host's session slots before giving up. */
const SLOT_WAIT_MS = 120_000;
/** How long setting up the shared connection may take (ssh's ConnectTimeout is less). */
const MASTER_TIMEOUT_MS = 60_000;

/** What a session to a host needs from its caller. */
export interface LinkEnv {
  stateDir: string;
  settings: RemoteSettings;
  /** The environment ssh runs in (SSH_AUTH_SOCK, HOME). */
  env: Record<string, string | undefined>;
  /** Who asks: sent with each request, for the host to apply (src/pane/reach.ts). */
  asker: unknown;
}

/** The answer of one session: the messages up to the first result, error or end. */
export interface Session {
  hello: Hello;
  messages: AsyncIterable<RemoteMessage>;
  /** Close the session (the remote side sees its stdin end) and give back the slot. */
  close(): Promise<void>;
}

/**
 * One host as ssh reaches it. Every session goes over one shared connection (ssh's
 * ControlMaster, its socket in a private folder, kept ControlPersist after the last session),
 * BatchMode (never a password or host-key prompt; the user's own StrictHostKeyChecking
 * decides), and no more than `sessions` at once from all of this user's nudge processes.
 */
export class HostLink {
  readonly dest: string;
  readonly #o: LinkEnv;
  readonly #key: string;

  constructor(dest: string, o: LinkEnv) {
    this.dest = dest;
    this.#o = o;
    this.#key = createHash('sha256')
      .update(`${dest}\0${o.settings.sshConfig ?? ''}`)
      .digest('hex')
      .slice(0, 16);
  }

  /** Where the control socket and the slot locks live (controlDir). */
  get dir(): string {
    return controlDir({
      stateDir: this.#o.stateDir,
      key: this.#key,
      platform: thisProcess.platform,
      tmp: tmpdir(),
      uid: thisProcess.uid,
    });
  }

  get controlPath(): string {
    return join(this.dir, `${this.#key}.sock`);
  }

  /** The ssh options every call shares. */
  #common(): string[] {
    const {sshConfig} = this.#o.settings;
    return [
      ...(sshConfig ? ['-F', sshConfig] : []),
      '-o',
      'BatchMode=yes',
      '-o',
      `ControlPath="${this.controlPath.replace(/%/g, '%%')}"`,
    ];
  }

  /** ssh with the shared options and `args`, its output kept apart from its errors; ssh that
   * cannot start is the one sentence of noSsh. */
  async #ssh(
    args: string[],
    o: {inputFile?: string | undefined; timeoutMs: number; maxBytes: number; signal: AbortSignal},
  ) {
    const {ssh} = this.#o.settings;
    const run = await runCommand(ssh, [...this.#common(), ...args], {
      ...o,
      env: this.#o.env,
      merged: false,
    });
    if (run.startError) throw noSsh(ssh, run.startError);
    return run;
  }

  /** The words that run `command` on the host over the shared connection (never a new one). */
  #onConnection(command: string): string[] {
    return ['-o', 'ControlMaster=no', '--', this.dest, command];
  }

  /** The command line the remote user's shell runs: no user text, ever (the request comes
   * on stdin). nudge from the config file, else ~/.local/bin/nudge (where `nudge host
   * install` puts it), else nudge on the PATH. */
  remoteCommand(verb = 'remote'): string {
    const own = this.#o.settings.nudge[this.dest];
    const start = own
      ? `exec ${own} ${verb}`
      : `n="$HOME/.local/bin/nudge"; [ -x "$n" ] || n=nudge; exec "$n" ${verb}`;
    return `sh -c ${shellWord(start)}`;
  }

  /** Make sure the shared connection is up: one setup at a time per host (a lock), so a
   * burst of callers opens one connection, not one each. */
  async ensureConnection(signal: AbortSignal): Promise<void> {
    if (await socketAlive(this.controlPath)) return;
    await ensurePrivateDir(this.dir);
    await withLock(this.dir, `${this.#key}.connecting`, async () => {
      if (await socketAlive(this.controlPath)) return;
      // A socket left by a master that was killed: ssh would refuse to bind over it.
      await rm(this.controlPath, {force: true});
      const run = await this.#ssh(
        [
          '-o',
          'ControlMaster=yes',
          '-o',
          `ControlPersist=${this.#o.settings.persistS}`,
          '-o',
          'ServerAliveInterval=15',
          '-o',
          'ServerAliveCountMax=4',
          '-o',
          'ConnectTimeout=20',
          '-N',
          '-f',
          '--',
          this.dest,
        ],
        {timeoutMs: MASTER_TIMEOUT_MS, maxBytes: 64 * 1024, signal},
      );
      if (run.exitCode !== 0)
        throw sshFailure(this.dest, run.stderr, run.timedOut ? 'timed out' : undefined);
    });
  }

  /**
   * Run one command on the host: take a session slot, make sure the connection is up, start
   * `nudge remote` there, send the request. The remote's hello is checked (its version must
   * be this one's unless `anyVersion`); the messages that follow are the caller's to read.
   */
  async open(
    request: {command: string; options: unknown},
    o: {signal: AbortSignal; anyVersion?: boolean},
  ): Promise<Session> {
    await ensurePrivateDir(this.dir);
    let slot: Awaited<ReturnType<typeof takeSlot>>;
    try {
      slot = await takeSlot(this.dir, this.#key, this.#o.settings.sessions, {
        deadlineMs: realClock.now() + SLOT_WAIT_MS,
        signal: o.signal,
      });
    } catch (error) {
      if (error instanceof SlotsBusy)
        throw new NudgeError(
          'host-busy',
          `All ${error.count} ssh sessions to ${this.dest} stayed busy for ${SLOT_WAIT_MS / 1000} s (long waits or follows); raise sessions in the [remote] table of config.toml, or end some.`,
        );
      throw error;
    }
    let piped: Piped | undefined;
    try {
      await this.ensureConnection(o.signal);
      piped = startPiped(
        this.#o.settings.ssh,
        [...this.#common(), ...this.#onConnection(this.remoteCommand())],
        {signal: o.signal, env: this.#o.env},
      );
      piped.write(
        JSON.stringify({
          nudge: nudgeVersion(),
          protocol: REMOTE_PROTOCOL,
          command: request.command,
          options: request.options,
          asker: this.#o.asker,
        }),
      );
      const lines = piped.lines[Symbol.asyncIterator]();
      const hello = await this.#hello(lines, piped, o.anyVersion ?? false);
      const self = piped;
      const dest = this.dest;
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        self.end();
        await self.ended;
        await slot.release();
      };
      async function* messages(): AsyncGenerator<RemoteMessage> {
        for (;;) {
          const next = await lines.next();
          if (next.done) break;
          const message = parseMessage(next.value);
          if (!message) continue;
          yield message;
          if ('result' in message || 'error' in message || 'end' in message) return;
        }
        const end = await self.ended;
        throw lostSession(dest, end);
      }
      return {hello, messages: messages(), close};
    } catch (error) {
      piped?.end();
      await slot.release();
      throw error;
    }
  }

  /**
   * Run a fixed shell script on the host (`sh -c`, through the remote user's shell; never
   * user text), `inputFile` as its stdin, in one session slot over the shared connection.
   * ssh's own failure is one sentence; the script's exit and output are the caller's.
   */
  async runScript(
    script: string,
    o: {inputFile?: string; timeoutMs: number; signal: AbortSignal},
  ): Promise<{exitCode: number | undefined; output: string; stderr: string}> {
    await ensurePrivateDir(this.dir);
    const slot = await takeSlot(this.dir, this.#key, this.#o.settings.sessions, {
      deadlineMs: realClock.now() + SLOT_WAIT_MS,
      signal: o.signal,
    });
    try {
      await this.ensureConnection(o.signal);
      const run = await this.#ssh(this.#onConnection(`sh -c ${shellWord(script)}`), {
        inputFile: o.inputFile,
        timeoutMs: o.timeoutMs,
        maxBytes: 1024 * 1024,
        signal: o.signal,
      });
      if (run.exitCode === 255) throw sshFailure(this.dest, run.stderr);
      return {exitCode: run.exitCode, output: run.output, stderr: run.stderr};
    } finally {
      await slot.release();
    }
  }

  /** Read up to the remote's hello: it proves a nudge answered, and which. */
  async #hello(lines: AsyncIterator<string>, piped: Piped, anyVersion: boolean): Promise<Hello> {
    const seen: string[] = [];
    for (;;) {
      const next = await lines.next();
      if (next.done) break;
      const message = parseMessage(next.value);
      if (message && 'hello' in message) {
        const hello = message.hello;
        if (!anyVersion && hello.nudge !== nudgeVersion()) {
          throw new NudgeError(
            'host-version',
            `${this.dest} runs nudge ${hello.nudge}, this machine ${nudgeVersion()}: run nudge host install ${this.dest} to put this version there.`,
          );
        }
        return hello;
      }
      if (seen.length < 3) seen.push(next.value);
    }
    piped.end();
    const end = await piped.ended;
    if (end.startError) throw noSsh(this.#o.settings.ssh, end.startError);
    if (end.exitCode === 255) throw sshFailure(this.dest, end.stderr);
    if (end.exitCode === 127)
      throw new NudgeError(
        'host-no-nudge',
        `${this.dest} has no nudge a non-interactive ssh session can start (${lastLine(end.stderr) || 'not found'}): run nudge host install ${this.dest}, or name it in config.toml ([remote.nudge] ${this.dest} = "/path/to/nudge").`,
      );
    throw new NudgeError(
      'host-version',
      `${this.dest}'s nudge does not answer as this one (${lastLine(end.stderr) || seen[0] || `exit ${end.exitCode}`}); it may be an older version: run nudge host install ${this.dest}.`,
    );
  }
}

function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  return lines[lines.length - 1] ?? '';
}

/** ssh's own failure (exit 255) as one sentence: unreachable, refused, unknown host key. */
export function sshFailure(dest: string, stderr: string, extra?: string): NudgeError {
  const said = lastLine(stderr.replace(/^Warning: Permanently added.*$/gm, '')) || extra || '';
  if (
    /Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|host key for .* has changed/i.test(
      stderr,
    )
  )
    return new NudgeError(
      'host-key',
      `${dest}'s host key is not known here, or has changed: run ssh ${dest} once yourself to check and accept it (nudge never accepts a host key for you).`,
    );
  if (/Permission denied|Too many authentication failures/i.test(stderr))
    return new NudgeError(
      'host-refused',
      `${dest} refused the login (${said}): nudge runs ssh with BatchMode=yes, so it needs a key ssh uses without asking (ssh-agent, or a key without a passphrase); check that ssh -o BatchMode=yes ${dest} true works.`,
    );
  if (
    /Could not resolve hostname|Connection refused|timed out|No route to host|Network is unreachable|Connection closed|Connection reset|kex_exchange_identification/i.test(
      `${stderr} ${extra ?? ''}`,
    )
  )
    return new NudgeError('host-unreachable', `Cannot reach ${dest}: ${said}.`);
  return new NudgeError('host-failed', `ssh to ${dest} failed: ${said || 'no reason given'}.`);
}

function noSsh(ssh: string, why: string): NudgeError {
  return new NudgeError(
    'host-failed',
    `Cannot run ${ssh} (${why}): install OpenSSH's client, or set ssh in the [remote] table of config.toml.`,
  );
}

/** The session ended before its answer: the connection dropped, or nudge died there. */
function lostSession(dest: string, end: PipedEnd): NudgeError {
  if (end.exitCode === 255) return sshFailure(dest, end.stderr);
  return new NudgeError(
    'host-failed',
    `The session to ${dest} ended before nudge there answered (${lastLine(end.stderr) || (end.signal ? `ssh ended by ${end.signal}` : `exit ${end.exitCode}`)}).`,
  );
}
