/**
 * Message ids (`submit --id`, `ask --id`, the MCP tools' `id`): a caller that sends the same
 * message again — a tool call retried after a timeout, a crash, a resumed session — gets the
 * first send's job instead of a second typing. Each id is claimed once, in a file of its own
 * under the state directory (`ids/`, named by the id's SHA-256), created exclusively so two
 * sends at once cannot both type; the claim names the job, its pane and a digest of its text.
 */
import type * as Crypto from 'node:crypto';
import {mkdir, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {createRequire} from 'node:module';
import {join} from 'node:path';
import type {Clock} from '../base/clock.js';
import {NudgeError} from '../base/errors.js';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE, FILE_MODE, JOB_ID_PATTERN} from '../base/paths.js';

/** What a message id may be: what a caller's own ids look like (a UUID, `review-42`, a
 * `sha256:…`), short enough to show. */
export const MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The send a message id names: its job, where it went, and its text's digest. */
export interface MessageClaim {
  id: string;
  job: string;
  /** The tmux server's socket and the pane the text went to. */
  server: string;
  pane: string;
  /** SHA-256 of the text, hex. */
  text: string;
  /** Where the message went before it was resent here (`nudge resend`): a retry to one of
   * these is the same message too. */
  before?: Array<{server: string; pane: string}>;
}

/** How long a claim whose job is not (yet) recorded is taken for a send still recording it;
 * older, the send failed before its job was made, and the id is free again. */
const RECORDING_MS = 10_000;
const RECORDING_POLL_MS = 100;

/** The id's form checked; throws NudgeError (exit 2). */
export function checkMessageId(id: string): string {
  if (MESSAGE_ID.test(id)) return id;
  throw new NudgeError(
    'bad-usage',
    `--id ${JSON.stringify(id)} is not a message id: 1 to 128 letters, digits, and . _ : - (not first), e.g. --id review-42.`,
  );
}

/** SHA-256 of `text`, hex: what a claim keeps of the text, and its id's file name. node:crypto
 * is loaded on the first message id: a submit without `--id` never needs it, and loading it
 * costs the front end ~4 ms (a CPU profile of the bundle's import). */
export function textDigest(text: string): string {
  const {createHash} = createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function claimPath(stateDir: string, id: string): string {
  return join(stateDir, 'ids', `${textDigest(id)}.json`);
}

/** What sending `want` found: the id was free and is now this send's (`claimed`; `release`
 * gives it back if the job is never made), or an earlier send of the same message has it. */
export type ClaimResult =
  | {kind: 'claimed'; release: () => Promise<void>}
  | {kind: 'sent'; job: string};

/**
 * Claim `want.id` for this send. Sent before (the same text to the same pane, its job still
 * kept): that job. The same id for another text or another pane: refused (exit 2), nothing
 * sent. A claim whose job is gone (pruned, or its send failed) is taken over.
 */
export async function claimMessageId(
  stateDir: string,
  want: MessageClaim,
  deps: {jobExists: (job: string) => Promise<boolean>; clock: Clock; signal?: AbortSignal},
): Promise<ClaimResult> {
  const path = claimPath(stateDir, want.id);
  await mkdir(join(stateDir, 'ids'), {recursive: true, mode: DIR_MODE});
  const body = `${JSON.stringify(want)}\n`;
  const release = async () => {
    const now = await readClaim(path);
    if (now?.job === want.job) await rm(path, {force: true});
  };
  const start = deps.clock.now();
  for (;;) {
    try {
      await writeFile(path, body, {flag: 'wx', mode: FILE_MODE});
      return {kind: 'claimed', release};
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = await readClaim(path);
    if (held === undefined) {
      // Unreadable (cut short by a full disk): nobody's claim.
      await rm(path, {force: true});
      continue;
    }
    refuseOther(held, want);
    if (await deps.jobExists(held.job)) return {kind: 'sent', job: held.job};
    const age = deps.clock.wall() - (await stat(path)).mtimeMs;
    if (age >= RECORDING_MS || deps.clock.now() - start >= RECORDING_MS) {
      // Its send never made the job: the id is this send's now.
      await writeFileAtomic(path, body);
      return {kind: 'claimed', release};
    }
    await deps.clock.sleep(RECORDING_POLL_MS, deps.signal);
  }
}

/** The same id for another message: one sentence, nothing sent. */
function refuseOther(held: MessageClaim, want: MessageClaim): void {
  const places = [{server: held.server, pane: held.pane}, ...(held.before ?? [])];
  const elsewhere = !places.some((p) => p.server === want.server && p.pane === want.pane);
  if (!elsewhere && held.text === want.text) return;
  const server = held.server === want.server ? '' : ` on ${held.server}`;
  const what = elsewhere ? `to pane ${held.pane}${server}` : 'with another text';
  throw new NudgeError(
    'bad-usage',
    `Message id ${want.id} was sent as job ${held.job} ${what}; nothing was sent: give this message an id of its own.`,
  );
}

async function readClaim(path: string): Promise<MessageClaim | undefined> {
  try {
    const c = JSON.parse(await readFile(path, 'utf8')) as Partial<MessageClaim>;
    const ok =
      typeof c.id === 'string' &&
      typeof c.job === 'string' &&
      JOB_ID_PATTERN.test(c.job) &&
      typeof c.server === 'string' &&
      typeof c.pane === 'string' &&
      typeof c.text === 'string';
    return ok ? (c as MessageClaim) : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The claim whose message is job `job` (`nudge resend` carries it on), if it had an id. */
export async function claimOfJob(stateDir: string, job: string): Promise<MessageClaim | undefined> {
  const dir = join(stateDir, 'ids');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const claim = await readClaim(join(dir, name));
    if (claim?.job === job) return claim;
  }
  return undefined;
}

/** Carry a message's id on to the job that resends it (to `to.pane`): a retry under the id,
 * to either pane, answers with the new job. */
export async function passClaim(
  stateDir: string,
  claim: MessageClaim,
  to: {job: string; server: string; pane: string},
): Promise<void> {
  const before = [...(claim.before ?? []), {server: claim.server, pane: claim.pane}];
  const next: MessageClaim = {...claim, ...to, before};
  await writeFileAtomic(claimPath(stateDir, claim.id), `${JSON.stringify(next)}\n`);
}
