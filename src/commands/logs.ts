import {open} from 'node:fs/promises';
import {setTimeout as sleep} from 'node:timers/promises';
import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import {resolveStateDir} from '../base/paths.js';
import {isTerminal, JobStore} from '../jobs/store.js';
import type {CommandContext} from './context.js';

const FOLLOW_POLL_MS = 200;

/** Make a line formatter: identity, or pino-pretty (loaded only when asked for). */
async function lineFormatter(pretty: boolean): Promise<(line: string) => string> {
  if (!pretty) return (line) => line;
  const {prettyFactory} = await import('pino-pretty');
  const format = prettyFactory({
    colorize: false,
    translateTime: 'SYS:standard',
    ignore: 'hostname',
  });
  // Non-JSON lines (a crash trace) come back unchanged.
  return (line) => format(line).replace(/\n$/, '');
}

/**
 * `nudge logs JOB [-f] [--pretty]`: print the worker's log; with -f keep printing new lines
 * until the job ends (or Ctrl-C).
 */
export async function showLogs(
  o: {job: string; follow?: boolean | undefined; pretty?: boolean | undefined},
  ctx: CommandContext,
): Promise<ExitCode> {
  const handle = await new JobStore(resolveStateDir(ctx.env)).open(o.job);
  const format = await lineFormatter(o.pretty ?? false);
  let position = 0;
  let pending = '';
  const drain = async (): Promise<number> => {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(handle.logPath, 'r');
    } catch {
      return 0;
    }
    try {
      let read = 0;
      for (;;) {
        const {bytesRead, buffer} = await file.read({buffer: Buffer.alloc(64 * 1024), position});
        if (bytesRead === 0) break;
        position += bytesRead;
        read += bytesRead;
        pending += buffer.subarray(0, bytesRead).toString('utf8');
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) ctx.stdout(format(line));
      }
      return read;
    } finally {
      await file.close();
    }
  };
  await drain();
  if (o.follow) {
    while (!ctx.signal.aborted) {
      const ended = isTerminal((await handle.readState()).state);
      const read = await drain();
      if (ended && read === 0) break;
      await sleep(FOLLOW_POLL_MS, undefined, {signal: ctx.signal}).catch(() => {});
    }
  }
  if (pending) ctx.stdout(format(pending));
  return EXIT_CODES.ok;
}
