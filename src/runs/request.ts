import {z} from 'zod';
import {SESSION_ID} from '../agents/resume.js';
import {err, ok, type Result} from '../base/result.js';
import {isObject} from '../base/shape.js';
import type {StallPolicy} from '../detect/stall.js';
import {isStallPolicy} from '../detect/stall-options.js';
import {RUN_OPTIONS} from '../job-options/run-table.js';
import {storedShape} from '../job-options/stored.js';
import {headerWrong, storedOptions, textWrong} from '../jobs/request-check.js';
import type {StoredRequest} from '../jobs/store.js';

/** Version of a run's request.json. */
export const RUN_REQUEST_VERSION = 1;

const text = z
  .string()
  .min(1)
  .refine((t) => !t.includes('\0'));

/** A git worktree made for the run: its folder (where the run works), its branch, and the
 * repository's top folder it was made from. */
const WORKTREE = z.object({path: text, branch: text, repo: text});
export type RunWorktree = z.infer<typeof WORKTREE>;

/**
 * A run's options as request.json stores them: what the rows of `nudge run`'s table store
 * (src/job-options/run-table.ts: its agent, timeouts, permissions, close, pr, sinks) and what
 * the command places: where it runs, its worktree and git facts, the pane told, a resumed
 * conversation (`nudge recover`: the text is not typed), the stall watchdog.
 */
export const RUN_STORED = z
  .object({
    ...storedShape(RUN_OPTIONS, z),
    cwd: text.describe('a folder'),
    worktree: WORKTREE.nullable().describe('a worktree or null'),
    /** The git work tree the run is in and its HEAD when the run began: changes and commits
     * are counted from there. */
    git: z.object({root: text, base: text}).nullable().describe('a git root and base or null'),
    /** The pane told of permission stops and the end; null: nobody. */
    notifyPane: z
      .string()
      .regex(/^%\d+$/)
      .nullable()
      .describe('a pane id or null'),
    resume: z
      .object({session: z.string().regex(SESSION_ID), of: text})
      .nullish()
      .describe('a session to resume or null'),
    stall: z.custom<StallPolicy>(isStallPolicy).nullish().describe('a stall policy'),
  })
  .refine((o) => o.resume == null || o.agent !== null, {
    path: ['resume'],
    message: 'a resume of a run with an agent',
  });
export type RunOptions = z.infer<typeof RUN_STORED>;

/** Everything the run worker needs; made and checked by the front end, kept in the job's
 * request.json (nothing of it travels in argv or the environment). Its common fields are a
 * job's (the store reads them): `pane` is the pane opened for the run, `paneTarget` how it was
 * placed (`new window in session $0`), `text` the command line typed into the pane's shell or
 * the agent's prompt. */
export interface RunRequest extends Omit<StoredRequest, 'kind'> {
  version: typeof RUN_REQUEST_VERSION;
  kind: 'run';
  options: RunOptions;
}

/** Check a run request read back from request.json; one sentence on what is wrong. */
export function validateRunRequest(value: unknown): Result<RunRequest, string> {
  if (!isObject(value) || value.kind !== 'run') return err('the request is not a run request');
  if (value.version !== RUN_REQUEST_VERSION)
    return err(`the run request has version ${JSON.stringify(value.version)}`);
  const wrong = headerWrong(value) ?? textWrong(value.text);
  if (wrong) return err(wrong);
  const options = storedOptions(RUN_STORED, value.options);
  if (!options.ok) return options;
  return ok({...(value as unknown as RunRequest), options: options.value});
}
