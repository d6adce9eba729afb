import {openSync, writeSync} from 'node:fs';
import {type Logger, pino} from 'pino';
import {FILE_MODE} from './paths.js';
import {thisProcess} from './this-process.js';

export type {Logger} from 'pino';

/**
 * The worker's structured log: pino JSON lines appended to the job's worker.log. Written
 * synchronously, so nothing is lost when the worker exits right after logging (an async
 * destination may still be opening then). A line that cannot be written (the disk full) is
 * dropped, never thrown: a waiter that died of its log would lose every job it holds (issue
 * 62). Once writing works again, the log says how many lines it lost.
 */
export function createJobLogger(logPath: string, bindings: Record<string, unknown>): Logger {
  // Create the file 0600 first; pino's destination would use the umask.
  const fd = openSync(logPath, 'a', FILE_MODE);
  let lost = 0;
  const destination = {
    write(line: string) {
      try {
        if (lost > 0) writeSync(fd, `${JSON.stringify({msg: 'log lines lost', lost})}\n`);
        lost = 0;
        writeSync(fd, line);
      } catch {
        lost++;
      }
    },
  };
  return pino(
    {
      base: {pid: thisProcess.pid, ...bindings},
      timestamp: pino.stdTimeFunctions.isoTime,
      // The typed text may hold secrets; the request file has it, the log does not need it.
      redact: {paths: ['text', 'notice'], censor: '[redacted]'},
    },
    destination,
  );
}

/** A logger that drops everything (for tests of pure orchestration). */
export function createSilentLogger(): Logger {
  return pino({level: 'silent'});
}
