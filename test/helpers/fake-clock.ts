import type {Clock} from '../../src/base/clock.js';

/** Virtual time: sleep() advances the clock at once, so loops run instantly and in order. */
export class FakeClock implements Clock {
  constructor(public time = 1_700_000_000_000) {}
  now(): number {
    return this.time;
  }
  /** One clock in virtual time: the wall clock never steps here. */
  wall(): number {
    return this.time;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.time += Math.max(0, ms);
    // Let other promise chains (e.g. a pending abort) run, as a real timer would.
    await Promise.resolve();
    signal?.throwIfAborted();
  }
}
