// What every detached worker does with signals (the workers and src/cli.ts are the only
// files that touch `process`).

/**
 * The worker's stop signal: SIGTERM or SIGINT (`nudge cancel`, `watch pause`/`clear`) aborts
 * it, and the worker ends its work in order. A hangup is ignored: the worker has no terminal
 * (setsid), and the caller's terminal closing must not end it.
 */
export function stopSignal(): AbortSignal {
  const controller = new AbortController();
  process.on('SIGTERM', () => controller.abort());
  process.on('SIGINT', () => controller.abort());
  process.on('SIGHUP', () => {});
  return controller.signal;
}
