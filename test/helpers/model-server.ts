/** The scripted model server (test/harness/model-server.ts), stopped when the test finishes. */
import {onTestFinished} from 'vitest';
import {type ModelServer, startModelServer as start} from '../harness/model-server.js';

export * from '../harness/model-server.js';

/** Start a scripted model server on 127.0.0.1 (port 0), stopped after the current test. */
export async function startModelServer(): Promise<ModelServer> {
  const model = await start();
  onTestFinished(() => model.stop());
  return model;
}
