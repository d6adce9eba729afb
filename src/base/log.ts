import {closeSync, openSync} from 'node:fs';
import {type Logger, pino} from 'pino';
import {FILE_MODE} from './paths.js';
import {thisProcess} from './this-process.js';

export type {Logger} from 'pino';

/**
 * The worker's structured log: pino JSON lines appended to the job's worker.log. Written
 * synchronously, so nothing is lost when the worker exits right after logging (an async
 * destination may still be opening then).
 */
export function createJobLogger(logPath: string, bindings: Record<string, unknown>): Logger {
  // Create the file 0600 first; pino's destination would use the umask.
  closeSync(openSync(logPath, 'a', FILE_MODE));
  const destination = pino.destination({dest: logPath, sync: true, append: true});
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
