// The process around a command of the command line: its context, where its output goes, and
// how an error ends it. Made once by the entry that runs the command — src/main.ts, or
// src/quick.ts for the commands read without yargs — and, with them, what touches `process`
// for a command (src/cli.ts hands them the words).

import {readFileSync} from 'node:fs';
import {profileEnv} from './agents/builtin.js';
import {useProfilesOf} from './agents/registry.js';
import {EXIT_CODES, fileSystemSentence, NudgeError} from './base/errors.js';
import {plainText} from './base/sanitize.js';
import {invalidArgument} from './base/utf8.js';
import type {McpStdio} from './cli/command.js';
import type {Output} from './render/render.js';
import type {CommandContext} from './verbs/context.js';
import {nodeContext} from './verbs/node-context.js';

/** What a command runs with: its context, its output, the streams `nudge mcp` speaks on, and
 * the exit code its renderer chose. */
export interface FrontEnd {
  ctx: CommandContext;
  out: Output;
  stdio: McpStdio;
  result: {exitCode: number};
}

const controller = new AbortController();

/** The process made ready for a command: an interrupt or SIGTERM aborts what it waits on,
 * a reader that went away (`nudge logs JOB | head`) is no error, and the context is built —
 * the profiles the person and the project have, the worker entries beside `here` (dist/src,
 * where the entry's bundle is; the workers are in dist/workers/). */
export function frontEnd(here: URL): FrontEnd {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  // Profile files: the user's own, then the project's (the working directory's
  // .nudge/agents); the workers this command starts read the same (NUDGE_PROFILE_DIRS).
  const env = profileEnv(process.env, process.cwd());
  useProfilesOf(env);
  const ctx: CommandContext = nodeContext(
    {
      readStdin,
      readStdinBytes,
      env,
      cwd: process.cwd(),
      pid: process.pid,
      uid: process.getuid?.() ?? 0,
      signal: controller.signal,
      node: process.execPath,
    },
    here,
  );
  // Everything printed goes through the one sanitiser (src/base/sanitize.ts): a reason, a
  // question or a preview may hold another program's words, and no escape sequence in them
  // reaches the person's terminal (JSON output escapes its own; its text is unchanged).
  const out: Output = {
    stdout: (text) => process.stdout.write(`${plainText(text)}\n`),
    stderr: (text) => process.stderr.write(`${plainText(text)}\n`),
    width: outputWidth(process.stdout, process.env.COLUMNS),
  };
  return {
    ctx,
    out,
    // The streams only for what speaks on them (`nudge mcp`): made on first use, as Node
    // makes them (a stdin made is one more handle to open, and to close before exiting).
    stdio: {
      get stdin() {
        return process.stdin;
      },
      get stdout() {
        return process.stdout;
      },
    },
    result: {exitCode: EXIT_CODES.ok},
  };
}

/** The command's exit code, as its renderer chose it. */
export function finish(fe: FrontEnd): void {
  process.exitCode = fe.result.exitCode;
}

/** Exit as soon as stdout has what was printed, without waiting for Node's own teardown (a
 * queued submit left nothing behind: its worker is detached). */
export function exitNow(fe: FrontEnd): void {
  process.exitCode = fe.result.exitCode;
  process.stdout.write('', () => process.exit());
}

/** What no command turned into a sentence ends the command with one: a server out of reach
 * says so; anything else is an internal error (its stack with NUDGE_DEBUG). With `--json`
 * among `argv`'s flags a program reads stdout: the error is there as JSON too
 * (docs/commands.md, "Help and errors"), the sentence on stderr as always. */
export async function endWithError(
  thrown: unknown,
  argv: readonly string[],
  out: Output,
): Promise<void> {
  const {asServerSentence} = await import('./pane/target.js');
  const error = fileSystemSentence(thrown) ?? asServerSentence(thrown);
  if (error instanceof NudgeError) {
    out.stderr(`nudge: ${error.message}`);
    if (wantsJson(argv))
      out.stdout(
        JSON.stringify({
          error: {code: error.code, message: error.message, exitCode: error.exitCode},
        }),
      );
    process.exitCode = error.exitCode;
    return;
  }
  const detail =
    error instanceof Error
      ? process.env.NUDGE_DEBUG
        ? error.stack
        : error.message
      : String(error);
  out.stderr(
    `nudge: internal error: ${detail} (set NUDGE_DEBUG=1 for details, and please report it)`,
  );
  process.exitCode = EXIT_CODES.failure;
}

/** `--json` among the flags (not in the text after `--`). */
function wantsJson(argv: readonly string[]): boolean {
  return argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
}

/** All of stdin, at most 1 MiB, giving up after 2 s (a hook's stdin may never close). */
function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, 2_000);
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 1024 * 1024) chunks.push(chunk);
    });
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** All of stdin as bytes, up to `maxBytes` and one more (`submit --text-file -`): read until
 * it ends or one byte past the limit (then reading stops: `yes | nudge submit --text-file -`
 * ends at once), or until SIGINT/SIGTERM. */
function readStdinBytes(maxBytes: number): Promise<Uint8Array> {
  if (process.stdin.isTTY) return Promise.resolve(new Uint8Array());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      process.stdin.off('data', take);
      controller.signal.removeEventListener('abort', abort);
      process.stdin.pause();
    };
    const done = () => {
      stop();
      resolve(Buffer.concat(chunks).subarray(0, maxBytes + 1));
    };
    const abort = () => {
      stop();
      process.stdin.destroy();
      reject(
        new NudgeError('interrupted', 'Interrupted while reading the text from standard input.'),
      );
    };
    const take = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) {
        done();
        process.stdin.destroy();
      }
    };
    if (controller.signal.aborted) return abort();
    controller.signal.addEventListener('abort', abort, {once: true});
    process.stdin.on('data', take);
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** The columns output is laid out to: the terminal's; into a pipe `$COLUMNS` where it is set
 * (a person piping to less), else 80, as the terminal a pipe ends in most likely is (`--json`
 * has every field whole). */
function outputWidth(stdout: {isTTY?: boolean; columns?: number}, columns: string | undefined) {
  if (stdout.isTTY) return stdout.columns || 80;
  const n = Number.parseInt(columns ?? '', 10);
  return n >= 20 ? n : 80;
}

/** Whether every argument is what the person gave (no byte that is not UTF-8 read as
 * U+FFFD): a line that is not is main's to refuse, with its sentence. */
export function utf8(args: readonly string[]): boolean {
  try {
    refuseReplacedBytes(args);
    return true;
  } catch {
    return false;
  }
}

/** An argument with bytes that are not UTF-8 reaches Node as U+FFFD: nudge would type that
 * in place of what the person has. Where the kernel keeps the bytes (Linux's /proc), such an
 * argument is refused with one sentence; a true U+FFFD passes. */
export function refuseReplacedBytes(args: readonly string[]): void {
  if (!args.some((a) => a.includes('\uFFFD'))) return;
  let cmdline: Uint8Array;
  try {
    cmdline = readFileSync('/proc/self/cmdline');
  } catch {
    return; // no /proc (macOS): not told apart
  }
  const bad = invalidArgument(cmdline, args.length);
  if (bad === undefined) return;
  throw new NudgeError(
    'bad-usage',
    `Argument ${bad.index + 1} is not UTF-8: byte ${bad.offset} (0x${bad.byte.toString(16).padStart(2, '0')}) starts no valid character, and would be typed as U+FFFD; pass the text as UTF-8 (iconv -t UTF-8), or with --text-file, and submit again.`,
  );
}
