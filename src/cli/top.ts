import {type FSWatcher, watch} from 'node:fs';
import {Box, render, Text, useApp, useInput} from 'ink';
import {createElement as h, useCallback, useEffect, useRef, useState} from 'react';
import {formatDuration} from '../base/durations.js';
import {describeError} from '../base/errors.js';
import {dispatch} from '../front/dispatch.js';
import {stateColour} from '../jobs/state-colours.js';
import type {CommandContext} from '../verbs/context.js';
import type {QueueList} from '../verbs/queue.js';
import type {TopOptions, TopPane, TopView} from '../verbs/top.js';

/**
 * `nudge top`: a live view of the server's panes and their jobs, drawn with Ink (the React
 * renderer for terminals that Claude Code, Gemini CLI, Qwen Code and Copilot CLI draw their
 * own screens with: maintained, and it restores the terminal on exit). Loaded only by this
 * command, so `submit` never pays for it. The view is read from the job store
 * (src/verbs/top.ts) and read again when the store changes (a file watch on the jobs
 * folder; with --host, every few seconds from that host's store): the panes are never polled.
 */

/** How long store changes are gathered before the view is read again. */
const SETTLE_MS = 150;
/** How often a view from another host (no file watch there) is read again. */
const REMOTE_EVERY_MS = 2_000;

type Mode = {kind: 'list'} | {kind: 'confirm-cancel'; job: string} | {kind: 'queue'; pane: string};

interface Props {
  options: TopOptions;
  ctx: CommandContext;
}

/** The columns of a row, padded: the text (or the question) last. */
function cells(p: TopPane, ageMs: number): string[] {
  return [
    p.pane.padEnd(5),
    (p.program || '?').padEnd(10).slice(0, 10),
    (p.profile || '-').padEnd(9).slice(0, 9),
    (p.stalled ? 'stalled' : p.state).padEnd(10),
    p.job.padEnd(15),
    String(p.queued).padStart(5),
    formatDuration(ageMs).padStart(7),
  ];
}

function TopApp({options, ctx}: Props) {
  const {exit} = useApp();
  const [selected, setSelected] = useState(0);
  const [mode, setMode] = useState<Mode>({kind: 'list'});
  const [queue, setQueue] = useState<QueueList | undefined>();
  const {view, loadedAt, now, load, message, setMessage} = useTopView(options, ctx);
  const panes = view?.panes ?? [];
  const current = panes[Math.min(selected, Math.max(0, panes.length - 1))];
  const act = (what: string, p: Promise<unknown>) =>
    p.then(
      () => setMessage(what),
      (error: unknown) => setMessage(describeError(error)),
    );

  useInput((input, key) => {
    if (mode.kind === 'confirm-cancel') {
      if (input === 'y')
        void act(
          `Cancelled ${mode.job}.`,
          dispatch('cancel', {job: mode.job, host: options.host}, ctx),
        );
      else setMessage('Not cancelled.');
      setMode({kind: 'list'});
      return;
    }
    if (input === 'q' || (key.ctrl && input === 'c')) {
      exit();
      return;
    }
    if (key.escape) {
      setMode({kind: 'list'});
      return;
    }
    if (key.upArrow || input === 'k') setSelected((s) => Math.max(0, s - 1));
    else if (key.downArrow || input === 'j') setSelected((s) => Math.min(panes.length - 1, s + 1));
    else if (input === 'r') void load();
    else if (!current) return;
    else if (key.return || input === 'g')
      void act(
        `Went to ${current.pane}.`,
        dispatch(
          'jump',
          {
            pane: current.pane,
            socketName: options.socketName,
            socketPath: options.socketPath,
            host: options.host,
          },
          ctx,
        ),
      );
    else if (input === 'c') {
      setMode({kind: 'confirm-cancel', job: current.job});
      setMessage(`Cancel ${current.job} (${current.preview})? y/n`);
    } else if (input === 'o') {
      setMode({kind: 'queue', pane: current.pane});
      setQueue(undefined);
      dispatch(
        'queue',
        {
          pane: current.pane,
          socketName: options.socketName,
          socketPath: options.socketPath,
          host: options.host,
        },
        ctx,
      ).then(setQueue, (error: unknown) => setMessage(describeError(error)));
    }
  });

  const age = (p: TopPane) => p.ageMs + Math.max(0, now - loadedAt);
  return screen({view, panes, selected, mode, queue, message, age});
}

/** The view of the server's panes, read again when the store changes (or, from another host,
 * every few seconds), and the clock the ages count on. */
function useTopView(options: TopOptions, ctx: CommandContext) {
  const [view, setView] = useState<TopView | undefined>();
  const [loadedAt, setLoadedAt] = useState(0);
  const [now, setNow] = useState(ctx.clock.now());
  const [message, setMessage] = useState('');
  const loading = useRef(false);

  const load = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    try {
      const next = await dispatch('top', options, ctx);
      setView(next);
      setLoadedAt(ctx.clock.now());
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      loading.current = false;
    }
  }, [options, ctx]);

  // Read again when the store changes (or, from another host, every few seconds).
  useEffect(() => {
    void load();
    const tick = setInterval(() => setNow(ctx.clock.now()), 1_000);
    let watcher: FSWatcher | undefined;
    let settle: ReturnType<typeof setTimeout> | undefined;
    let poll: ReturnType<typeof setInterval> | undefined;
    const again = () => {
      clearTimeout(settle);
      settle = setTimeout(() => void load(), SETTLE_MS);
    };
    if (options.host === undefined && view?.jobsDir) {
      try {
        watcher = watch(view.jobsDir, {recursive: true}, again);
      } catch {
        poll = setInterval(again, REMOTE_EVERY_MS);
      }
    } else if (options.host !== undefined) poll = setInterval(again, REMOTE_EVERY_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
      clearTimeout(settle);
      watcher?.close();
    };
    // The watch is set up once the jobs folder is known.
  }, [load, ctx, options.host, view?.jobsDir]);

  return {view, loadedAt, now, load, message, setMessage};
}

/** What top draws: the header, a row a pane (the selected one inverse), the queue panel and
 * the last message. */
function screen({
  view,
  panes,
  selected,
  mode,
  queue,
  message,
  age,
}: {
  view: TopView | undefined;
  panes: TopPane[];
  selected: number;
  mode: Mode;
  queue: QueueList | undefined;
  message: string;
  age: (p: TopPane) => number;
}) {
  const header = [
    'PANE ',
    'PROGRAM   ',
    'PROFILE  ',
    'STATE     ',
    'JOB            ',
    'QUEUE',
    '    AGE',
  ];
  return h(
    Box,
    {flexDirection: 'column'},
    h(
      Text,
      {bold: true},
      `nudge top — ${view?.server || '…'} · ${panes.length} pane(s) · ↑↓ select · enter go · c cancel · o queue · q quit`,
    ),
    h(Text, {dimColor: true}, `  ${header.join(' ')} TEXT / QUESTION`),
    ...panes.map((p, i) =>
      h(
        Text,
        {key: p.pane, inverse: i === selected},
        `${i === selected ? '>' : ' '} `,
        ...cells(p, age(p)).map((c, j) =>
          j === 3
            ? h(Text, {key: j, color: stateColour(p.stalled ? 'stalled' : p.state)}, `${c} `)
            : `${c} `,
        ),
        p.needs ? h(Text, {color: 'red'}, p.needs) : p.preview,
      ),
    ),
    panes.length === 0 && view ? h(Text, {dimColor: true}, '  No jobs on this server yet.') : null,
    mode.kind === 'queue'
      ? h(
          Box,
          {flexDirection: 'column', marginTop: 1},
          h(Text, {bold: true}, `queue of ${mode.pane} (esc closes)`),
          ...(queue?.panes[0]?.jobs ?? []).map((j) =>
            h(
              Text,
              {key: j.id},
              `  ${j.atWork ? '▶' : String(j.place)} ${j.id} ${j.state.padEnd(9)} ${j.policy.padEnd(5)} ${j.preview}`,
            ),
          ),
          queue && (queue.panes[0]?.jobs.length ?? 0) === 0
            ? h(Text, {dimColor: true}, '  nothing waits')
            : null,
        )
      : null,
    h(Text, {color: 'yellow'}, message),
  );
}

/** Run `top` until `q`; resolves once the terminal is restored. */
export async function runTop(options: TopOptions, ctx: CommandContext): Promise<void> {
  const app = render(h(TopApp, {options, ctx}), {exitOnCtrlC: false});
  await app.waitUntilExit();
}

/** `top --once`: the same rows as plain text (no keys), for scripts and for a look. */
export function topText(view: TopView): string[] {
  const lines = [`nudge top — ${view.server} · ${view.panes.length} pane(s)`];
  for (const p of view.panes)
    lines.push(`${cells(p, p.ageMs).join(' ')} ${p.needs ?? p.preview}`.trimEnd());
  return lines;
}
