import {type FSWatcher, watch} from 'node:fs';
import {Box, render, Text, useApp, useInput, useStdout} from 'ink';
import {createElement as h, useCallback, useEffect, useRef, useState} from 'react';
import {describeError} from '../base/errors.js';
import {dispatch} from '../front/dispatch.js';
import {stateWords} from '../jobs/stalled.js';
import {stateColour} from '../status-bar/state-colours.js';
import type {CommandContext} from '../verbs/context.js';
import type {QueueList} from '../verbs/queue.js';
import type {TopOptions, TopPane, TopView} from '../verbs/top.js';
import {cut, fitColumns, headerCells, MARKER, rowCells, type TopLayout} from './top-layout.js';

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

/** The keys, under the title. */
const KEYS = '↑↓ select · enter go · c cancel · o queue · r read again · q quit';

/** Colours, unless the person said NO_COLOR (no-color.org: set and not empty). */
const colours = (env: NodeJS.ProcessEnv) => !env.NO_COLOR;

/** The server (and host) top looks at, as each command it runs takes them. */
const serverOf = (o: Props['options']) => ({
  socketName: o.socketName,
  socketPath: o.socketPath,
  host: o.host,
});

function TopApp({options, ctx}: Props) {
  const {exit} = useApp();
  const [selected, setSelected] = useState(0);
  const [mode, setMode] = useState<Mode>({kind: 'list'});
  const [queue, setQueue] = useState<QueueList | undefined>();
  const {view, loadedAt, now, load, message, setMessage} = useTopView(options, ctx);
  const width = useWidth();
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
        dispatch('jump', {...serverOf(options), pane: current.pane}, ctx),
      );
    else if (input === 'c') {
      setMode({kind: 'confirm-cancel', job: current.job});
      setMessage(`Cancel ${current.job} (${current.preview})? y/n`);
    } else if (input === 'o') {
      setMode({kind: 'queue', pane: current.pane});
      setQueue(undefined);
    }
  });

  // The open queue is read again each time the view is (a store change, or `r`).
  const queuePane = mode.kind === 'queue' ? mode.pane : undefined;
  useEffect(() => {
    if (queuePane === undefined || loadedAt === 0) return;
    dispatch('queue', {...serverOf(options), pane: queuePane}, ctx).then(
      setQueue,
      (error: unknown) => setMessage(describeError(error)),
    );
  }, [queuePane, loadedAt, options, ctx, setMessage]);

  const age = (p: TopPane) => p.ageMs + Math.max(0, now - loadedAt);
  const colour = colours(ctx.env);
  return screen({view, panes, selected, mode, queue, message, age, width, colour});
}

/** The terminal's width, followed as it is resized. Narrower, the screen is wiped first —
 * before Ink, which then draws its whole frame again: a terminal that rewraps its rows as it
 * shrinks (tmux does) leaves rows of the wider drawing that Ink's own erase, counting the
 * lines it drew, does not reach. */
function useWidth(): number {
  const {stdout} = useStdout();
  const [width, setWidth] = useState(stdout.columns || 80);
  useEffect(() => {
    let last = stdout.columns || 80;
    const wipe = () => {
      if ((stdout.columns || 80) < last) stdout.write('\x1b[2J\x1b[H');
      last = stdout.columns || 80;
    };
    const resized = () => setWidth(stdout.columns || 80);
    stdout.prependListener('resize', wipe);
    stdout.on('resize', resized);
    return () => {
      stdout.off('resize', wipe);
      stdout.off('resize', resized);
    };
  }, [stdout]);
  return width;
}

/** The view of the server's panes, read again when the store changes (or, from another host,
 * every few seconds), and the clock the ages count on. */
function useTopView(options: TopOptions, ctx: CommandContext) {
  const [view, setView] = useState<TopView | undefined>();
  const [loadedAt, setLoadedAt] = useState(0);
  const [now, setNow] = useState(ctx.clock.wall());
  const [message, setMessage] = useState('');
  const loading = useRef(false);

  const load = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    try {
      const next = await dispatch('top', options, ctx);
      setView(next);
      setLoadedAt(ctx.clock.wall());
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      loading.current = false;
    }
  }, [options, ctx]);

  // Read again when the store changes (or, from another host, every few seconds).
  useEffect(() => {
    void load();
    const tick = setInterval(() => setNow(ctx.clock.wall()), 1_000);
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

/** What one frame of top is drawn from. */
interface Screen {
  view: TopView | undefined;
  panes: TopPane[];
  selected: number;
  mode: Mode;
  queue: QueueList | undefined;
  message: string;
  age: (p: TopPane) => number;
  width: number;
  colour: boolean;
}

/** What top draws: the title and the keys, the header, a row a pane (the selected one
 * inverse), the queue panel and the last message; each line cut to the terminal's width. */
function screen(s: Screen) {
  const {view, panes, selected, mode, queue, message, age, width} = s;
  const layout = fitColumns(width);
  const line = (text: string) => cut(text, width);
  const tint = (c: string | undefined) => (s.colour ? {color: c} : {});
  return h(
    Box,
    {flexDirection: 'column'},
    h(Text, {bold: true}, line(titleOf(view?.server || '…', panes.length, view?.undelivered))),
    h(Text, {dimColor: true}, line(KEYS)),
    h(Text, {dimColor: true}, line(`${' '.repeat(MARKER)}${headerCells(layout).join(' ')}`)),
    ...panes.map((p, i) => {
      const {cells, stateAt, text} = rowCells(layout, p, age(p));
      return h(
        Text,
        {key: p.pane, inverse: i === selected},
        i === selected ? '> ' : '  ',
        ...cells.map((c, j) =>
          j === stateAt
            ? h(Text, {key: j, ...tint(stateColour(p.stalled ? 'stalled' : p.state))}, `${c} `)
            : `${c} `,
        ),
        p.needs ? h(Text, tint('red'), text) : text,
      );
    }),
    panes.length === 0 && view ? h(Text, {dimColor: true}, '  No jobs on this server yet.') : null,
    mode.kind === 'queue'
      ? h(
          Box,
          {flexDirection: 'column', marginTop: 1},
          h(Text, {bold: true}, line(`queue of ${mode.pane} (esc closes)`)),
          ...(queue?.panes[0]?.jobs ?? []).map((j) =>
            h(
              Text,
              {key: j.id},
              line(
                `  ${j.atWork ? '▶' : String(j.place)} ${j.id} ${stateWords(j).padEnd(9)} ${j.policy.padEnd(5)} ${j.preview}`,
              ),
            ),
          ),
          queue && (queue.panes[0]?.jobs.length ?? 0) === 0
            ? h(Text, {dimColor: true}, '  nothing waits')
            : null,
        )
      : null,
    h(Text, tint('yellow'), message),
  );
}

const titleOf = (server: string, panes: number, undelivered = 0) =>
  `nudge top — ${server} · ${panes} pane(s)${undelivered ? ` · ${undelivered} undelivered (nudge jobs --undelivered)` : ''}`;

/** Run `top` until `q`; resolves once the terminal is restored. */
export async function runTop(options: TopOptions, ctx: CommandContext): Promise<void> {
  const app = render(h(TopApp, {options, ctx}), {exitOnCtrlC: false});
  await app.waitUntilExit();
}

/** `top --once`: the same rows as plain text (no keys), for scripts and for a look: cut to
 * `width` (a terminal's), whole when it is not limited (a pipe). */
export function topText(view: TopView, width = Number.POSITIVE_INFINITY): string[] {
  const layout: TopLayout = fitColumns(width);
  const fitted = (text: string) => cut(text, width).trimEnd();
  const lines = [fitted(titleOf(view.server, view.panes.length, view.undelivered))];
  if (view.panes.length === 0) return [...lines, '  No jobs on this server yet.'];
  lines.push(fitted(`${' '.repeat(MARKER)}${headerCells(layout).join(' ')}`));
  for (const p of view.panes) {
    const {cells, text} = rowCells(layout, p, p.ageMs);
    lines.push(fitted(`${' '.repeat(MARKER)}${[...cells, text].join(' ')}`));
  }
  return lines;
}
