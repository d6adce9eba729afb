// The command-line program, loaded by src/cli.ts: with it, the only module (with the workers'
// entries) that touches `process`. Errors become exit codes here and nowhere else.

import {readFileSync} from 'node:fs';
import {profileEnv} from './agents/builtin.js';
import {useProfilesOf} from './agents/registry.js';
import {EXIT_CODES, fileSystemSentence, NudgeError} from './base/errors.js';
import {plainText} from './base/sanitize.js';
import {invalidArgument} from './base/utf8.js';
import {parseSubmitFast} from './cli/submit-flags.js';
import {dispatch} from './front/dispatch.js';
import {asServerSentence} from './pane/target.js';
import {type Output, renderSubmit} from './render/render.js';
import type {CommandContext} from './verbs/context.js';
import {nodeContext} from './verbs/node-context.js';
import {submit} from './verbs/submit.js';

// A reader that went away (`nudge logs JOB | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const result: {exitCode: number} = {exitCode: EXIT_CODES.ok};
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

// Profile files: the user's own, then the project's (the working directory's .nudge/agents);
// the workers this command starts read the same (NUDGE_PROFILE_DIRS).
const env = profileEnv(process.env, process.cwd());
useProfilesOf(env);

// This file is in dist/src (main.js, or a chunk of the bundle beside cli.js); the worker
// entries are in dist/workers/.
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
  new URL('./', import.meta.url),
);
// Everything printed goes through the one sanitiser (src/base/sanitize.ts): a reason, a
// question or a preview may hold another program's words, and no escape sequence in them
// reaches the person's terminal (JSON output escapes its own; its text is unchanged).
/** The columns output is laid out to: the terminal's; into a pipe `$COLUMNS` where it is set
 * (a person piping to less), else 80, as the terminal a pipe ends in most likely is (`--json`
 * has every field whole). */
function outputWidth(stdout: {isTTY?: boolean; columns?: number}, columns: string | undefined) {
  if (stdout.isTTY) return stdout.columns || 80;
  const n = Number.parseInt(columns ?? '', 10);
  return n >= 20 ? n : 80;
}

const out: Output = {
  stdout: (text) => process.stdout.write(`${plainText(text)}\n`),
  stderr: (text) => process.stderr.write(`${plainText(text)}\n`),
  width: outputWidth(process.stdout, process.env.COLUMNS),
};

// Like yargs' hideBin: drop the node binary and the script path.
const argv = completionFor(process.argv.slice(2));

/** `nudge completion bash|zsh|fish`: yargs picks a completion script by $SHELL alone, so the
 * shell named is the one it reads (the script is printed, nothing else runs). */
function completionFor(args: string[]): string[] {
  const shell = args[0] === 'completion' ? args[1] : undefined;
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') return args;
  process.env.SHELL = `/bin/${shell}`;
  return ['completion', ...args.slice(2)];
}

/** An argument with bytes that are not UTF-8 reaches Node as U+FFFD: nudge would type that
 * in place of what the person has. Where the kernel keeps the bytes (Linux's /proc), such an
 * argument is refused with one sentence; a true U+FFFD passes. */
function refuseReplacedBytes(args: readonly string[]): void {
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
/** `--json` among the flags (not in the text after `--`): an error is JSON too. */
const wantsJson = argv
  .slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length)
  .includes('--json');

try {
  refuseReplacedBytes(argv);
  // `submit` is what agents call on every turn: parse it without loading yargs when the
  // command line is plain; anything else (help, errors, other commands) goes to yargs.
  const fast = parseSubmitFast(argv);
  if (fast) {
    const {json, ...options} = fast;
    // Here or on another host: decided where every command's is (src/front/dispatch.ts).
    // submit itself is bundled with this file: the fast path loads no other chunk for it.
    const submitted = await dispatch('submit', options, ctx, submit);
    result.exitCode = renderSubmit(submitted, json ?? false, out);
    // A queued job left nothing behind in this process (the worker is detached): exit as soon
    // as stdout has the job id, without waiting for Node's own teardown (~10 ms of the front
    // end's budget; npm run bench -- --only front-end).
    if (submitted.kind === 'queued') {
      process.exitCode = result.exitCode;
      process.stdout.write('', () => process.exit());
    }
  } else {
    const {buildCli} = await import('./cli/build-cli.js');
    await buildCli(argv, ctx, out, result, undefined, {
      stdin: process.stdin,
      stdout: process.stdout,
    }).parseAsync();
  }
  process.exitCode = result.exitCode;
} catch (thrown) {
  // What no command turned into a sentence: a server out of reach still says so in one.
  const error = fileSystemSentence(thrown) ?? asServerSentence(thrown);
  if (error instanceof NudgeError) {
    out.stderr(`nudge: ${error.message}`);
    // With --json a program reads stdout: the error is there as JSON too (docs/commands.md,
    // "Help and errors"), the sentence on stderr as always.
    if (wantsJson)
      out.stdout(
        JSON.stringify({
          error: {code: error.code, message: error.message, exitCode: error.exitCode},
        }),
      );
    process.exitCode = error.exitCode;
  } else {
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
}
