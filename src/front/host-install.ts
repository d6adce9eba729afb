import {existsSync} from 'node:fs';
import {mkdir, mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {tmpdir} from 'node:os';
import {dirname, join} from 'node:path';
import {configPath} from '../base/config.js';
import {NudgeError} from '../base/errors.js';
import {DIR_MODE, FILE_MODE} from '../base/paths.js';
import {packageDir} from '../base/version.js';
import {runCommand} from '../process/run-command.js';
import {checkHost} from '../remote/dest.js';
import {remoteSettings} from '../remote/settings.js';
import {setValue} from '../setup/edit.js';
import type {CommandContext} from '../verbs/context.js';
import {linkTo} from './hosts.js';

/** What `nudge host install` did. */
export interface HostInstallResult {
  host: string;
  /** The version now answering there (this machine's). */
  version: string;
  /** Where it went on the host, and the command that starts it. */
  prefix: string;
  command: string;
  /** The config file, and whether the host was added to `[remote] hosts` (or already there). */
  config: string;
  added: boolean;
  /** What the host lacks that nudge needs there (tmux), one sentence each. */
  warnings: string[];
}

const PACK_TIMEOUT_MS = 180_000;
const INSTALL_TIMEOUT_MS = 600_000;

/**
 * `nudge host install DEST [--prefix DIR]`: put this very version of nudge on a host. The
 * package is packed here (`npm pack`, the same tarball npm publishes), sent over the host's
 * shared ssh connection on stdin, and installed there with the host's own npm into DIR
 * (default ~/.local: ~/.local/bin/nudge, where `--host` looks first). Then the host must
 * answer as this version, and it joins `[remote] hosts` in config.toml (so `nudge jobs` lists
 * its jobs); a prefix other than the default is written there too.
 */
export async function installOnHost(
  o: {host: string; prefix?: string | undefined},
  ctx: CommandContext,
): Promise<HostInstallResult> {
  const host = checkHost(o.host, 'the host');
  if (!host) throw new NudgeError('bad-host', 'Name the host to install on (an ssh destination).');
  if (o.prefix !== undefined && !/^(~\/|\/)[^'"\s`$\\]*$/.test(o.prefix))
    throw new NudgeError(
      'bad-usage',
      `--prefix ${JSON.stringify(o.prefix)} must be an absolute path or start with ~/, without quotes, spaces or $.`,
    );
  const prefix = o.prefix ?? '~/.local';
  const dir = await mkdtemp(join(tmpdir(), 'nudge-pack-'));
  try {
    const tarball = await pack(dir, ctx);
    // The prefix as the remote shell reads it: ~ is the remote user's home.
    const remotePrefix = prefix.startsWith('~/') ? `"$HOME"/${prefix.slice(2)}` : prefix;
    const script = [
      'set -e',
      'd=$(mktemp -d)',
      'trap \'rm -rf "$d"\' EXIT',
      'cat > "$d/tmux-nudge.tgz"',
      'if ! command -v npm >/dev/null 2>&1; then echo "no npm (nor node) on the PATH of a non-interactive ssh session" >&2; exit 127; fi',
      `npm install --global --prefix ${remotePrefix} --no-audit --no-fund --loglevel=error "$d/tmux-nudge.tgz" >&2`,
      'command -v tmux >/dev/null 2>&1 || echo "notmux"',
      `${remotePrefix}/bin/nudge --version`,
    ].join('\n');
    const link = await linkTo(host, ctx);
    const run = await link.runScript(script, {
      inputFile: tarball,
      timeoutMs: INSTALL_TIMEOUT_MS,
      signal: ctx.signal,
    });
    if (run.exitCode !== 0) {
      const said =
        run.stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? `exit ${run.exitCode}`;
      throw new NudgeError('provision-failed', `Installing nudge on ${host} failed: ${said}.`);
    }
    const lines = run.output.trim().split('\n');
    const warnings = lines.includes('notmux')
      ? [
          `${host} has no tmux on the PATH of a non-interactive ssh session: install it there (nudge drives tmux).`,
        ]
      : [];
    const command = `${prefix}/bin/nudge`;
    const {file, added} = await remember(host, prefix === '~/.local' ? undefined : command, ctx);
    // The proof: the host's nudge answers, as this version.
    const session = await (await linkTo(host, ctx)).open(
      {command: 'jobs', options: {}},
      {signal: ctx.signal},
    );
    await session.close();
    return {host, version: session.hello.nudge, prefix, command, config: file, added, warnings};
  } finally {
    await rm(dir, {recursive: true, force: true});
  }
}

/** `npm pack` this package into `dir` (scripts off: dist/ is built already). */
async function pack(dir: string, ctx: CommandContext): Promise<string> {
  const root = packageDir();
  if (!existsSync(join(root, 'dist', 'src', 'cli.js')))
    throw new NudgeError(
      'provision-failed',
      `${root} has no dist/: run npm run build there first.`,
    );
  const run = await runCommand(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', dir, root],
    {timeoutMs: PACK_TIMEOUT_MS, maxBytes: 4 * 1024 * 1024, signal: ctx.signal, merged: false},
  );
  if (run.startError)
    throw new NudgeError('provision-failed', `Cannot run npm to pack nudge (${run.startError}).`);
  let name: string | undefined;
  try {
    name = (JSON.parse(run.output) as {filename: string}[])[0]?.filename;
  } catch {
    name = undefined;
  }
  if (run.exitCode !== 0 || !name)
    throw new NudgeError(
      'provision-failed',
      `npm pack failed: ${run.stderr.trim().split('\n').slice(-1)[0] || `exit ${run.exitCode}`}.`,
    );
  return join(dir, name);
}

/** Add the host to `[remote] hosts` (and its nudge command, when not the default place),
 * keeping the rest of the file as it was. */
async function remember(
  host: string,
  command: string | undefined,
  ctx: CommandContext,
): Promise<{file: string; added: boolean}> {
  const file = configPath(ctx.env);
  const settings = remoteSettings(ctx.env);
  let text = existsSync(file) ? await readFile(file, 'utf8') : undefined;
  const added = !settings.hosts.includes(host);
  if (added) text = setValue('toml', text, ['remote', 'hosts'], [...settings.hosts, host]);
  if (command !== undefined && settings.nudge[host] !== command)
    text = setValue('toml', text, ['remote', 'nudge', host], command);
  if (text !== undefined && (added || command !== undefined)) {
    await mkdir(dirname(file), {recursive: true, mode: DIR_MODE});
    await writeFile(file, text, {mode: FILE_MODE});
  }
  return {file, added};
}
