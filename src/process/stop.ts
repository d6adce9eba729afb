import type {Clock} from '../base/clock.js';

/** How a stop ended: nothing was running, it went after SIGTERM (or `done` said so), or it
 * was killed. */
export type Stopped = 'not-running' | 'terminated' | 'killed';

/**
 * The one way nudge stops a process (or a process group): SIGTERM, up to `graceMs` for it to
 * go — gone by `alive()`, or finished by the caller's own sign (`done`, e.g. a job that
 * recorded its ending) — then SIGKILL. `send` delivers a signal and says whether it was sent
 * (false: it was not running).
 */
export async function stopGracefully(o: {
  send: (signal: NodeJS.Signals) => boolean;
  alive: () => boolean;
  clock: Clock;
  graceMs: number;
  pollMs?: number;
  done?: () => Promise<boolean>;
}): Promise<Stopped> {
  if (!o.send('SIGTERM')) return 'not-running';
  const deadline = o.clock.now() + o.graceMs;
  for (;;) {
    if (!o.alive() || (o.done && (await o.done()))) return 'terminated';
    if (o.clock.now() >= deadline) break;
    await o.clock.sleep(o.pollMs ?? 50);
  }
  o.send('SIGKILL');
  return 'killed';
}
