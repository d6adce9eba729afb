#!/usr/bin/env node
import {EXIT_CODES, type ExitCode, NudgeError} from './base/errors.js';
// The command-line entry: the only module (with workers/job-worker.ts) that touches
// `process`. Errors become exit codes here and nowhere else.
import {parseSubmitFast} from './cli/submit-flags.js';

// A reader that went away (`nudge logs JOB | head`) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());
process.once('SIGTERM', () => controller.abort());

const result: {exitCode: ExitCode} = {exitCode: EXIT_CODES.ok};
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

const ctx = {
  readStdin,
  env: process.env,
  stdout: (text: string) => process.stdout.write(`${text}\n`),
  stderr: (text: string) => process.stderr.write(`${text}\n`),
  pid: process.pid,
  signal: controller.signal,
};

try {
  // Like yargs' hideBin: drop the node binary and the script path.
  const argv = process.argv.slice(2);
  // `submit` is what agents call on every turn: parse it without loading yargs when the
  // command line is plain; anything else (help, errors, other commands) goes to yargs.
  const fast = parseSubmitFast(argv);
  if (fast) {
    const {submit} = await import('./commands/submit.js');
    result.exitCode = await submit(fast, ctx);
  } else {
    const {buildCli} = await import('./cli/build-cli.js');
    await buildCli(argv, ctx, result).parseAsync();
  }
  process.exitCode = result.exitCode;
} catch (error) {
  if (error instanceof NudgeError) {
    ctx.stderr(`nudge: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    const detail =
      error instanceof Error
        ? process.env.NUDGE_DEBUG
          ? error.stack
          : error.message
        : String(error);
    ctx.stderr(
      `nudge: internal error: ${detail} (set NUDGE_DEBUG=1 for details, and please report it)`,
    );
    process.exitCode = EXIT_CODES.failure;
  }
}
