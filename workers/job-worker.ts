// The worker of a `nudge submit` job: types, waits, types the notice, exits. Started only by
// src/process/launch-worker.ts; the entry of every worker kind is src/process/worker-main.ts.
import {workerMain} from '../src/process/worker-main.js';
import {JOB_WORKER} from '../src/worker/kinds.js';

await workerMain(JOB_WORKER);
