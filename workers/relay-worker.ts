// A relay's worker: follows a job until it ends, types its notice on another host, exits.
// Started only by src/process/launch-worker.ts; the entry of every worker kind is
// src/process/worker-main.ts.
import {workerMain} from '../src/process/worker-main.js';
import {RELAY_WORKER} from '../src/worker/kinds.js';

await workerMain(RELAY_WORKER);
