import {appendFile} from 'node:fs/promises';
import type {Clock} from '../base/clock.js';
import {describeError} from '../base/errors.js';
import {findOnPath} from '../base/paths.js';
import {runCommand} from '../process/run-command.js';
import type {Tmux} from '../tmux/tmux.js';
import {lineOf, type NotifyEvent, titleOf} from './event.js';
import {describeSink, type Sink} from './sinks.js';

/** What telling a person needs from the outside world. */
export interface NotifyDeps {
  clock: Clock;
  /** The tmux server of the job's pane (the `tmux` sink). */
  tmux: Tmux;
  /** `process.platform`: desktop notifications are notify-send on Linux, osascript on macOS. */
  platform: string;
  /** The environment of a `cmd:` and `desktop` sink's program: the job's (a waiter runs jobs
   * of several callers, each with its own). */
  env: Record<string, string | undefined>;
}

/** How one sink took an event. */
export type SinkOutcome =
  | {sink: string; ok: true; tries: number}
  | {sink: string; ok: false; error: string};

/** Each HTTP try gives up after this long. */
const HTTP_TIMEOUT_MS = 5_000;
/** Tries of a webhook or ntfy POST, and the pauses between them. */
const HTTP_RETRY_PAUSES_MS = [1_000, 2_000];
/** A program (cmd:, notify-send, osascript) is stopped after this long. */
const PROGRAM_TIMEOUT_MS = 10_000;

/** ntfy's priority (1-5) and tags (emoji short codes) for each event. */
const NTFY: Record<NotifyEvent['event'], {priority: number; tags: string}> = {
  done: {priority: 3, tags: 'white_check_mark'},
  failed: {priority: 4, tags: 'x'},
  timeout: {priority: 4, tags: 'alarm_clock'},
  blocked: {priority: 5, tags: 'raising_hand'},
  limit: {priority: 4, tags: 'hourglass'},
  lost: {priority: 4, tags: 'ghost'},
  stalled: {priority: 4, tags: 'snail'},
};

/**
 * Tell `sink` of `event`. Never throws: a sink that fails is an outcome (the job records it
 * and goes on). What is said about a failure names the sink without its URL's path or query.
 */
export async function sendEvent(
  sink: Sink,
  event: NotifyEvent,
  deps: NotifyDeps,
): Promise<SinkOutcome> {
  const name = describeSink(sink);
  try {
    switch (sink.kind) {
      case 'webhook':
        return await post(name, deps, sink.url, JSON.stringify(event), {
          'content-type': 'application/json',
        });
      case 'ntfy': {
        const {priority, tags} = NTFY[event.event];
        return await post(name, deps, sink.url, lineOf(event), {
          'content-type': 'text/plain; charset=utf-8',
          title: titleOf(event),
          priority: String(priority),
          tags,
        });
      }
      case 'cmd':
        return await program(
          name,
          deps.env,
          sink.argv[0] ?? '',
          sink.argv.slice(1),
          JSON.stringify(event),
        );
      case 'desktop':
        return deps.platform === 'darwin'
          ? await program(name, deps.env, ...(await macNotifier(deps.env, event)))
          : await program(name, deps.env, 'notify-send', [
              '--app-name=nudge',
              `--urgency=${event.event === 'blocked' || event.event === 'limit' ? 'critical' : 'normal'}`,
              titleOf(event),
              lineOf(event),
            ]);
      case 'tmux': {
        const ttys = await deps.tmux.announce(event.pane, lineOf(event));
        // The bell: a BEL written to each client's terminal (tmux has no command that rings it).
        await Promise.all(ttys.map((tty) => appendFile(tty, '\x07').catch(() => {})));
        return {sink: name, ok: true, tries: 1};
      }
    }
  } catch (error) {
    return {sink: name, ok: false, error: describeError(error)};
  }
}

/**
 * A Mac's desktop notification: terminal-notifier where it is installed (the notice shows as
 * its own, and groups nudge's), else osascript's `display notification`, which macOS shows as
 * from "Script Editor". The title and line are arguments, never script text.
 */
async function macNotifier(
  env: Record<string, string | undefined>,
  event: NotifyEvent,
): Promise<[string, string[]]> {
  const notifier = await findOnPath('terminal-notifier', env);
  if (notifier)
    return [notifier, ['-title', titleOf(event), '-message', lineOf(event), '-group', 'nudge']];
  return [
    'osascript',
    [
      '-e',
      'on run argv',
      '-e',
      'display notification (item 2 of argv) with title (item 1 of argv)',
      '-e',
      'end run',
      titleOf(event),
      lineOf(event),
    ],
  ];
}

/** POST `body`, retrying a refused connection, a timeout, 408, 429 and 5xx a few times. */
async function post(
  name: string,
  deps: NotifyDeps,
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<SinkOutcome> {
  let last = '';
  for (let tries = 1; ; tries++) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
        redirect: 'error',
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) return {sink: name, ok: true, tries};
      last = `HTTP ${response.status}`;
      if (!(response.status === 408 || response.status === 429 || response.status >= 500))
        return {sink: name, ok: false, error: `${name} answered ${last}`};
    } catch (error) {
      // The cause's code only: the request's URL must not reach a log.
      const cause = (error as {cause?: {code?: string; errors?: Array<{code?: string}>}}).cause;
      last = cause?.code ?? cause?.errors?.[0]?.code ?? (error as Error).name;
    }
    const pause = HTTP_RETRY_PAUSES_MS[tries - 1];
    if (pause === undefined)
      return {sink: name, ok: false, error: `${name} failed after ${tries} tries: ${last}`};
    await deps.clock.sleep(pause);
  }
}

async function program(
  name: string,
  env: NotifyDeps['env'],
  file: string,
  args: string[],
  input = '',
): Promise<SinkOutcome> {
  const r = await runCommand(file, args, {
    input,
    env,
    timeoutMs: PROGRAM_TIMEOUT_MS,
    maxBytes: 64 * 1024,
    signal: new AbortController().signal,
    merged: false,
  });
  if (r.exitCode === 0) return {sink: name, ok: true, tries: 1};
  const why = r.startError ?? (r.timedOut ? 'timed out' : `exit ${r.exitCode ?? r.signal}`);
  return {
    sink: name,
    ok: false,
    error: `${name}: ${file} ${why}${r.stderr.trim() ? ` (${r.stderr.trim().split('\n')[0]})` : ''}`,
  };
}
