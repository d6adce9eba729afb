import {readFileSync} from 'node:fs';
import {mkdir, readdir, readFile, rm, stat, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {readTextCapped} from '../base/bounded-read.js';
import {NudgeError} from '../base/errors.js';
import {appendLine, readTextOr, stateWriteError, writeFileAtomic, writeNow} from '../base/fs.js';
import {DIR_MODE, FILE_MODE, JOB_ID_PATTERN, layout} from '../base/paths.js';
import type {Result} from '../base/result.js';
import {thisProcess} from '../base/this-process.js';
import type {IfBusy} from '../job-options/policies.js';
import type {ProcessId} from '../process/identity.js';
import type {JobEvent} from './events.js';
import {acceptedAt, finalReceipt, receiptEvent} from './receipts.js';
import {checkJobRecord, type JobEnding, type JobRecord, type RecordPatch} from './record.js';
import type {JobRequest} from './request.js';
import {isTerminal, type TerminalState} from './states.js';
import {MAX_REQUEST_BYTES, previewText, storedIfBusy} from './stored-request.js';

/** What a job's request.json holds that the store reads: a `submit` request, or a `run`'s. */
export type StoredRequest = Pick<
  JobRequest,
  'jobId' | 'createdAt' | 'server' | 'pane' | 'paneTarget' | 'text'
> & {kind?: 'run'};

/** The marker that the ending was claimed (see JobHandle.end). */
const ENDED_CLAIM = 'ended';
/** The marker that a person cancelled the job (see JobHandle.markCancelRequested). */
const CANCEL_REQUESTED = 'cancel-requested';
/** Its second line when the cancel leaves the command running (`cancel --keep-running`). */
const KEEP_RUNNING = 'keep-running';
/** The marker that `nudge recover` brought the job back (its content: the new job's id). */
export const RECOVERED = 'recovered';

/** One line of events.jsonl. */
function eventLine(t: string, event: string, data: Record<string, unknown>): string {
  return JSON.stringify({t, event, ...data});
}

/** One job's files. */
export class JobHandle {
  readonly requestPath: string;
  readonly statePath: string;
  readonly eventsPath: string;
  readonly logPath: string;
  /** The detached worker's pid as its launcher saw it (see recordWorkerPid). */
  readonly pidPath: string;
  /** `nudge run`'s report. */
  readonly reportPath: string;

  constructor(
    readonly id: string,
    readonly dir: string,
  ) {
    this.requestPath = join(dir, 'request.json');
    this.statePath = join(dir, 'state.json');
    this.eventsPath = join(dir, 'events.jsonl');
    this.logPath = join(dir, 'worker.log');
    this.pidPath = join(dir, 'worker.pid');
    this.reportPath = join(dir, 'report.md');
  }

  /** Its request as request.json holds it now, read bounded and checked (the one carrier of
   * a request: the worker reads it by the job's id, and again under the pane's lock, where
   * `nudge queue edit` may have rewritten its text); the one sentence of what is wrong. Its
   * checks load the options' schemas: only here, not for what lists jobs. */
  async readRequest(): Promise<Result<JobRequest, string>> {
    const {readStoredRequest} = await import('./request-check.js');
    return readStoredRequest(this.requestPath, this.id);
  }

  /** The text its request.json holds now (`nudge queue edit` rewrites it while queued). */
  async readText(): Promise<string> {
    const request = await this.#request();
    if (typeof request.text !== 'string') throw new Error(`${this.requestPath} holds no text`);
    return request.text;
  }

  /** What the job does when its pane is busy (`--if-busy`), as stored. */
  async ifBusy(): Promise<IfBusy> {
    const request = await this.#request();
    return storedIfBusy(request.options as Record<string, unknown> | undefined);
  }

  /** Replace the text it will type (`nudge queue edit`, under the pane's queue lock, while
   * the job waits); the rest of the request is kept as it is. */
  async writeText(text: string): Promise<void> {
    const request = await this.#request();
    await writeFileAtomic(this.requestPath, `${JSON.stringify({...request, text}, null, 2)}\n`);
  }

  async #request(): Promise<Record<string, unknown>> {
    const text = await readTextCapped(this.requestPath, MAX_REQUEST_BYTES);
    return JSON.parse(text) as Record<string, unknown>;
  }

  /** Read the state record; until the worker has recorded its own pid, the launcher's
   * worker.pid ("PID START") stands in for it. Read at once (a few hundred bytes). */
  async readState(): Promise<JobRecord> {
    const record = checkJobRecord(JSON.parse(readFileSync(this.statePath, 'utf8')), this.statePath);
    if (record.pid === undefined) {
      const [pidText, start] = readTextOr(this.pidPath, '').trim().split(' ');
      const pid = Number.parseInt(pidText ?? '', 10);
      if (Number.isSafeInteger(pid) && pid > 0) {
        record.pid = pid;
        if (start) record.pidStart = start;
      }
    }
    return record;
  }

  /** Record the pid of the worker just launched, so `status` can tell a worker that died
   * before writing anything (lost) and `cancel` can reach it. A file of its own, written once
   * by the launcher: state.json has one writer at a time (the worker, or cancel); a launcher's
   * stale copy landing after the worker finished would bring a done job back to "queued". */
  async recordWorkerPid(worker: ProcessId): Promise<void> {
    const text = `${worker.pid}${worker.start ? ` ${worker.start}` : ''}\n`;
    writeNow(this.pidPath, text);
  }

  /**
   * Record how the job ended: the only writer of a terminal state. Whoever ends a job — its
   * worker, `nudge cancel` for a worker that is gone, a worker that could not start — comes
   * here, and only the first to claim the ending (an exclusive create of `ended`) writes it.
   * Returns the record as it stands, and whether this call wrote the ending.
   */
  async end(
    state: TerminalState,
    ending: JobEnding,
    nowIso = new Date().toISOString(),
  ): Promise<{record: JobRecord; wrote: boolean}> {
    const claim = join(this.dir, ENDED_CLAIM);
    try {
      await writeFile(claim, `${thisProcess.pid}\n`, {flag: 'wx', mode: FILE_MODE});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        // Made but not written (the disk full): not a claim anyone holds; gone for a retry.
        await rm(claim, {force: true}).catch(() => {});
        throw error;
      }
      // Ours already, from a try whose writes failed (the disk full): finish it now.
      const mine = await readFile(claim, 'utf8').catch(() => '');
      const record = await this.readState();
      if (mine.trim() !== String(thisProcess.pid) || isTerminal(record.state))
        return {record, wrote: false};
    }
    const {by, ...given} = ending;
    const fields = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
    // A message ends on a rung of its receipts, whoever ends it (a worker, a cancel, a sweep).
    const was = await this.readState();
    const receipt = was.kind === 'submit' && finalReceipt(was.receipt, state, ending, nowIso);
    const patch = {...fields, state, finishedAt: nowIso, ...(receipt ? {receipt} : {})};
    const record = await this.updateState(patch, nowIso);
    await this.appendEvent(state, {state, ...fields, ...(by ? {by} : {})}, nowIso);
    if (receipt) await this.appendEvent('receipt', receiptEvent(receipt), nowIso);
    return {record, wrote: true};
  }

  /** Say that a person cancels the job (`nudge cancel`, `queue drop`) before its worker is
   * signalled: a worker stopped by a signal without it was stopped from outside (a shutdown,
   * a kill), which `nudge recover` does not take for a person's cancel. */
  async markCancelRequested(by: string, keepRunning = false): Promise<void> {
    const text = `${by}\n${keepRunning ? `${KEEP_RUNNING}\n` : ''}`;
    await writeFile(join(this.dir, CANCEL_REQUESTED), text, {mode: FILE_MODE});
  }

  /** Whether `nudge cancel` asked to stop the command the job typed too (not with
   * `--keep-running`; not a stop from outside, nor a Ctrl-C of `--wait`, which stops waiting). */
  async cancelStopsCommand(): Promise<boolean> {
    const text = await readFile(join(this.dir, CANCEL_REQUESTED), 'utf8').catch(() => undefined);
    return text !== undefined && !text.split('\n').includes(KEEP_RUNNING);
  }

  /** Whether `nudge cancel` has marked the job (markCancelRequested). */
  async cancelRequested(): Promise<boolean> {
    return stat(join(this.dir, CANCEL_REQUESTED)).then(
      () => true,
      () => false,
    );
  }

  /** Whether a stop of the job is a person's: they cancelled it (markCancelRequested), or it
   * runs in their own terminal (`--wait`: a Ctrl-C there is theirs). Otherwise a signal came
   * from outside (a shutdown, a kill). */
  async cancelledByPerson(): Promise<boolean> {
    if ((await this.readState()).mode === 'foreground') return true;
    return readFile(join(this.dir, CANCEL_REQUESTED), 'utf8').then(
      () => true,
      () => false,
    );
  }

  /** Merge `patch` into the state record and write it atomically. */
  async updateState(patch: RecordPatch, nowIso = new Date().toISOString()): Promise<JobRecord> {
    // The machine writes only its own states (its recorder is typed by them).
    const next = {...(await this.readState()), ...patch, updatedAt: nowIso} as JobRecord;
    await writeFileAtomic(this.statePath, `${JSON.stringify(next, null, 2)}\n`);
    return next;
  }

  /** Append one event to events.jsonl. */
  async appendEvent(
    event: string,
    data: Record<string, unknown> = {},
    nowIso = new Date().toISOString(),
  ): Promise<void> {
    await appendLine(this.eventsPath, eventLine(nowIso, event, data));
  }

  /** All events so far (a torn last line, if any, is skipped). */
  async readEvents(): Promise<JobEvent[]> {
    let text: string;
    try {
      text = await readFile(this.eventsPath, 'utf8');
    } catch {
      return [];
    }
    const events: JobEvent[] = [];
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        events.push(JSON.parse(line) as JobEvent);
      } catch {
        // a line being appended right now
      }
    }
    return events;
  }
}

/** The job store under `<state dir>/jobs`. */
export class JobStore {
  readonly jobsDir: string;
  constructor(readonly stateDir: string) {
    this.jobsDir = layout.jobsDir(stateDir);
  }

  /** Record a new job: request.json, state.json (queued) and the `queued` event. A job that
   * cannot be recorded whole (disk full, ...) is removed again and throws a NudgeError, so no
   * half-made job is left and no worker is started for it. */
  async create(
    request: StoredRequest,
    mode: JobRecord['mode'],
    /** Who submitted it (the caller's pane), for the record alone. */
    from?: JobRecord['submittedFrom'],
  ): Promise<JobHandle> {
    const handle = new JobHandle(request.jobId, layout.jobDir(this.stateDir, request.jobId));
    try {
      return await this.#write(handle, request, mode, from);
    } catch (error) {
      await this.discard(handle);
      throw stateWriteError(this.stateDir, error);
    }
  }

  /** Remove a job that never got a worker (its submit failed after it was recorded). */
  async discard(handle: JobHandle): Promise<void> {
    await rm(handle.dir, {recursive: true, force: true}).catch(() => {});
  }

  async #write(
    handle: JobHandle,
    request: StoredRequest,
    mode: JobRecord['mode'],
    from: JobRecord['submittedFrom'],
  ): Promise<JobHandle> {
    await mkdir(handle.dir, {mode: DIR_MODE});
    const kind = request.kind ?? 'submit';
    const accepted = kind === 'submit' ? acceptedAt(request.createdAt) : undefined;
    const record: JobRecord = {
      version: 1,
      id: request.jobId,
      kind,
      state: 'queued',
      pane: request.pane,
      paneTarget: request.paneTarget,
      socketPath: request.server.socketPath,
      serverPid: request.server.pid,
      mode,
      createdAt: request.createdAt,
      updatedAt: request.createdAt,
      preview: previewText(request.text),
      ...(from ? {submittedFrom: from} : {}),
      ...(accepted ? {receipt: accepted} : {}),
    };
    // Three files at once (their fsyncs share the file system's commits); events in one write.
    const t = request.createdAt;
    const queued = eventLine(t, 'queued', {state: 'queued', pane: request.pane});
    const receipt = accepted ? [eventLine(t, 'receipt', receiptEvent(accepted))] : [];
    await Promise.all([
      writeFileAtomic(handle.requestPath, `${JSON.stringify(request, null, 2)}\n`),
      writeFileAtomic(handle.statePath, `${JSON.stringify(record, null, 2)}\n`),
      appendLine(handle.eventsPath, queued, ...receipt),
    ]);
    return handle;
  }

  /** Open an existing job by id, or by a unique prefix of one. Throws exit-2 errors for ids
   * that are malformed (never a path) or unknown. */
  async open(idOrPrefix: string): Promise<JobHandle> {
    if (!/^[0-9a-z-]{1,20}$/.test(idOrPrefix)) {
      throw new NudgeError(
        'bad-job',
        `${JSON.stringify(idOrPrefix)} is not a job id; run "nudge jobs" to list them.`,
      );
    }
    const ids = await this.ids();
    const matches = ids.filter((id) => id === idOrPrefix || id.startsWith(idOrPrefix));
    const exact = matches.includes(idOrPrefix) ? idOrPrefix : undefined;
    const id = exact ?? (matches.length === 1 ? matches[0] : undefined);
    if (!id) {
      throw new NudgeError(
        matches.length > 1 ? 'ambiguous-job' : 'no-such-job',
        matches.length > 1
          ? `Job id prefix "${idOrPrefix}" matches ${matches.length} jobs; give more characters.`
          : `No job "${idOrPrefix}" in ${this.jobsDir}; run "nudge jobs" to list them.`,
      );
    }
    return this.handleOf(id);
  }

  /** The handle of a job whose id was listed here (no lookup of a prefix). */
  handleOf(id: string): JobHandle {
    return new JobHandle(id, layout.jobDir(this.stateDir, id));
  }

  /** All job ids, oldest first. */
  async ids(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.jobsDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw new NudgeError('state-dir', `Cannot read ${this.jobsDir}; check its permissions.`);
    }
    return names.filter((n) => JOB_ID_PATTERN.test(n)).sort();
  }

  /** Every job's state record, oldest first; unreadable ones are skipped. */
  async list(): Promise<JobRecord[]> {
    // Side by side (many cost about one read); an unreadable one: a job being made now.
    const read = await Promise.all(
      (await this.ids()).map((id) =>
        this.handleOf(id)
          .readState()
          .catch(() => {}),
      ),
    );
    return read.filter((r): r is JobRecord => r !== undefined);
  }
}
