// `nudge submit`, as agents run it on every turn, handed over by src/cli.ts: read without
// yargs (src/cli/submit-flags.ts) and run from a bundle of its own path (scripts/bundle.ts,
// "quick"), so it starts about as fast as Node does. A line it does not take — help, an
// error, a job or a notice on another host — it gives back untouched, for src/main.ts.

import {parseSubmitFast} from './cli/submit-flags.js';
import {dispatch, runsHere} from './front/dispatch.js';
import {endWithError, exitNow, finish, frontEnd, utf8} from './front-end.js';
import {renderSubmit} from './render/render.js';
import {submit} from './verbs/submit.js';

/** Run `argv` if it is a plain `submit` line of this host: true once it ran (its exit code
 * set), false — having done nothing — for main to run it. */
export async function quickSubmit(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): Promise<boolean> {
  const fast = parseSubmitFast(argv);
  if (!fast) return false;
  const {json, ...options} = fast;
  if (!runsHere('submit', options, env) || !utf8(argv)) return false;
  const fe = frontEnd(new URL('./', import.meta.url));
  try {
    const submitted = await dispatch('submit', options, fe.ctx, submit);
    fe.result.exitCode = renderSubmit(submitted, json ?? false, fe.out);
    // A queued job left nothing behind in this process (its worker is detached): exit once
    // stdout has the job id, not after Node's own teardown (~10 ms of the front end's budget;
    // npm run bench -- --only front-end).
    if (submitted.kind === 'queued') exitNow(fe);
    else finish(fe);
  } catch (thrown) {
    await endWithError(thrown, argv, fe.out);
  }
  return true;
}
