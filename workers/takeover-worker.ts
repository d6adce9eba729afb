// The takeover of a killed waiter: its queued jobs started again, the others ended lost and
// told once. Started only by the waiter's guard (src/process/waiter-guard.ts); the entry of
// every worker kind is src/process/worker-main.ts.
import {workerMain} from '../src/process/worker-main.js';
import {TAKEOVER_WORKER} from '../src/worker/kinds.js';

await workerMain(TAKEOVER_WORKER);
