// The worker of a `nudge run` job: runs the task in its pane, reports, exits. Started only by
// src/process/launch-worker.ts; the entry of every worker kind is src/process/worker-main.ts.
import {workerMain} from '../src/process/worker-main.js';
import {RUN_WORKER} from '../src/worker/kinds.js';

await workerMain(RUN_WORKER);
