import {open} from 'node:fs/promises';
import {resolveStateDir} from '../base/paths.js';
import {isTerminal} from '../jobs/states.js';
import {JobStore} from '../jobs/store.js';
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

/** The lines of a job's worker log, as they come (with --follow, until the job ends). */
export interface LogLines {
  lines: AsyncIterable<string>;
}

/**
 * `nudge logs JOB [-f] [--pretty]`: the worker's log; with -f new lines keep coming until the
 * job ends (or Ctrl-C).
 */
export async function showLogs(
  o: {job: string; follow?: boolean | undefined; pretty?: boolean | undefined},
  ctx: CommandContext,
): Promise<LogLines> {
  const handle = await new JobStore(resolveStateDir(ctx.env)).open(o.job);
  const format = await lineFormatter(o.pretty ?? false);
  let position = 0;
  let pending = '';
  /** Read what was appended since the last call: the complete lines, and how many bytes. */
  const drain = async (): Promise<{lines: string[]; read: number}> => {
    let file: Awaited<ReturnType<typeof open>>;
    try {
      file = await open(handle.logPath, 'r');
    } catch {
      return {lines: [], read: 0};
    }
    try {
      const lines: string[] = [];
      let read = 0;
      for (;;) {
        const {bytesRead, buffer} = await file.read({buffer: Buffer.alloc(64 * 1024), position});
        if (bytesRead === 0) break;
        position += bytesRead;
        read += bytesRead;
        pending += buffer.subarray(0, bytesRead).toString('utf8');
        const parts = pending.split('\n');
        pending = parts.pop() ?? '';
        lines.push(...parts.map(format));
      }
      return {lines, read};
    } finally {
      await file.close();
    }
  };
  async function* lines(): AsyncGenerator<string> {
    yield* (await drain()).lines;
    if (o.follow) {
      while (!ctx.signal.aborted) {
        const ended = isTerminal((await handle.readState()).state);
        const next = await drain();
        yield* next.lines;
        if (ended && next.read === 0) break;
        await ctx.clock.sleep(FOLLOW_POLL_MS, ctx.signal).catch(() => {});
      }
    }
    if (pending) yield format(pending);
  }
  return {lines: lines()};
}
