// A watcher's cycle worker: runs the watcher's queued reports, exits. Started only by
// src/process/launch-worker.ts; the entry of every worker kind is src/process/worker-main.ts.
import {workerMain} from '../src/process/worker-main.js';
import {WATCH_WORKER} from '../src/worker/kinds.js';

await workerMain(WATCH_WORKER);
