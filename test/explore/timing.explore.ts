/**
 * Timing facts behind docs/agent-screens.md, measured on the real CLIs:
 * - how long to wait between the last typed key and Enter so that Enter submits;
 * - the same after a bracketed paste;
 * - how soon the busy marker shows after a submission;
 * - how long the busy phase lasts offline before the agent gives up.
 * See vitest.config.ts here for how to run; NUDGE_EXPLORE_TRIES sets the tries per cell.
 */
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, it} from 'vitest';
import {agentAvailable, type RealAgent} from '../helpers/real-agents.js';
import {
  agentsToExplore,
  composerLines,
  composerText,
  controlTyper,
  freshAgent,
  isBusy,
  judge,
  keys,
  type Outcome,
  paste,
  record,
  reset,
  snap,
  statusLines,
  triesPerCell,
  typeSlowly,
} from './lib.js';

/** A 40-character prompt, different for every try, plain letters and digits. */
function promptFor(tag: string, n: number): string {
  return `probe ${tag} n${String(n).padStart(2, '0')} the quick brown fox jumps over`.slice(0, 40);
}

interface Try {
  outcome: Outcome;
  judgedAfterMs: number;
  busyAfterMs?: number;
  composer?: string;
  composerLines?: number;
  secondEnter?: Outcome;
}

/** Enter, then: the outcome; how soon the busy marker showed; when not submitted, what the
 * composer holds and whether a second Enter 300 ms later submits. */
async function enterAndJudge(
  agent: RealAgent,
  text: string,
  onLost?: () => Promise<unknown>,
  pressEnter: () => Promise<unknown> = () => keys(agent, 'Enter'),
): Promise<Try> {
  const enterAt = Date.now();
  await pressEnter();
  const r = await judge(agent, text, 3_000);
  const result: Try = {outcome: r.outcome, judgedAfterMs: r.afterMs};
  if (r.outcome === 'submitted') {
    for (let screen = r.screen; Date.now() - enterAt < 5_000; screen = await agent.capture()) {
      if (isBusy(agent.name, screen)) {
        result.busyAfterMs = Date.now() - enterAt;
        break;
      }
      await sleep(50);
    }
  } else {
    result.composer = composerText(agent.name, r.screen);
    result.composerLines = composerLines(agent.name, r.screen)?.length;
    await onLost?.();
    await sleep(300);
    await keys(agent, 'Enter');
    result.secondEnter = (await judge(agent, text, 3_000)).outcome;
  }
  return result;
}

function push<T>(cells: Record<string, T[]>, key: string, value: T): void {
  const list = cells[key] ?? [];
  list.push(value);
  cells[key] = list;
}

function summarise(tries: Try[]) {
  const count = (o: Outcome) => tries.filter((t) => t.outcome === o).length;
  const busy = tries.flatMap((t) => (t.busyAfterMs === undefined ? [] : [t.busyAfterMs]));
  return {
    tries: tries.length,
    submitted: count('submitted'),
    notSubmitted: count('not-submitted'),
    queued: count('queued'),
    other: count('other'),
    secondEnterSubmitted: tries.filter((t) => t.secondEnter === 'submitted').length,
    busyAfterMs: busy.length ? {min: Math.min(...busy), max: Math.max(...busy)} : undefined,
  };
}

const delays = (env: string | undefined, fallback: number[]) =>
  env ? env.split(',').map(Number) : fallback;
/** Pauses between the last key and Enter; NUDGE_EXPLORE_DELAYS / _PASTE_DELAYS override. */
const DELAYS = delays(process.env.NUDGE_EXPLORE_DELAYS, [0, 100, 300, 500]);
const PASTE_DELAYS = delays(process.env.NUDGE_EXPLORE_PASTE_DELAYS, [0, 50, 100, 300]);
/** How the text is typed: one `send-keys -l` per character with these gaps, or (`one call`)
 * the whole text in a single `send-keys -l`. NUDGE_EXPLORE_CADENCES picks some. */
const ALL_CADENCES: Record<string, (() => number) | 'one call' | 'control mode'> = {
  burst: () => 0,
  'random 0-20ms': () => Math.random() * 20,
  'one call': 'one call',
  'control mode': 'control mode',
};
const CADENCES = Object.fromEntries(
  Object.entries(ALL_CADENCES).filter(
    ([k]) =>
      !process.env.NUDGE_EXPLORE_CADENCES ||
      process.env.NUDGE_EXPLORE_CADENCES.split(',').includes(k),
  ),
);

describe.each(agentsToExplore())('%s', (name) => {
  it.skipIf(!agentAvailable(name))('Enter after typing, by delay', async () => {
    const agent = await freshAgent(name);
    const tries = triesPerCell();
    const cells: Record<string, Try[]> = {};
    const snapped = new Set<string>();
    let n = 0;
    // round-robin over the cells so that drift over the session spreads evenly
    for (let t = 0; t < tries; t++) {
      for (const [cadence, gap] of Object.entries(CADENCES)) {
        for (const delay of DELAYS) {
          const text = promptFor(`d${delay}`, ++n);
          let typer: Awaited<ReturnType<typeof controlTyper>> | undefined;
          await reset(agent);
          if (gap === 'one call') {
            await agent.server.tmux('send-keys', '-t', agent.pane, '-l', text);
          } else if (gap === 'control mode') {
            typer = await controlTyper(agent);
            await typer.type(text);
          } else {
            await typeSlowly(agent, text, gap);
          }
          await sleep(delay);
          const cell = `${cadence} / Enter after ${delay} ms`;
          const result = await enterAndJudge(
            agent,
            text,
            async () => {
              if (snapped.has(cell)) return;
              snapped.add(cell);
              const state = `enter-lost-${cadence.replace(/\W+/g, '-')}-${delay}ms`;
              await snap(agent, state, `${cell}: the first try whose Enter did not submit, 3 s on`);
            },
            typer ? () => typer!.run(`send-keys -t ${agent.pane} Enter`) : undefined,
          );
          await typer?.close();
          push(cells, cell, result);
        }
      }
    }
    const summary = Object.fromEntries(
      Object.entries(cells).map(([k, v]) => [k, {...summarise(v), details: v}]),
    );
    record(agent, 'enterAfterTyping', summary, true);
  });

  it.skipIf(!agentAvailable(name))('Enter after a bracketed paste, by delay', async () => {
    const agent = await freshAgent(name);
    const tries = triesPerCell();
    const cells: Record<string, Try[]> = {};
    let n = 0;
    for (let t = 0; t < tries; t++) {
      for (const delay of PASTE_DELAYS) {
        n++;
        const text = `/tmp/p${n}.log and @notes.txt: check ${delay}ms`;
        await reset(agent);
        await paste(agent, text);
        await sleep(delay);
        const result = await enterAndJudge(agent, text);
        push(cells, `paste / Enter after ${delay} ms`, result);
      }
    }
    record(
      agent,
      'enterAfterPaste',
      Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, {...summarise(v), details: v}])),
      true,
    );
  });

  // NUDGE_EXPLORE_RETRIES=default,1,0 picks the settings to time
  const retrySettings = (process.env.NUDGE_EXPLORE_RETRIES ?? 'default,1')
    .split(',')
    .map((r) => (r === 'default' ? undefined : Number(r)));
  for (const retries of retrySettings) {
    const label = retries === undefined ? 'default retries' : `maxRetries ${retries}`;
    it.skipIf(!agentAvailable(name))(`busy phase offline (${label})`, async () => {
      const agent = await freshAgent(name, retries);
      const text = 'write a haiku about tmux';
      await typeSlowly(agent, text, () => 10);
      await sleep(500);
      await keys(agent, 'Enter');
      const started = Date.now();
      const seen = new Map<string, number>();
      let screen = '';
      let busySince: number | undefined;
      const limitMs = 12 * 60_000;
      for (;;) {
        screen = await agent.capture();
        const busy = isBusy(name, screen);
        if (busy && busySince === undefined) busySince = Date.now() - started;
        for (const l of statusLines(name, screen)) {
          const shape = l.replace(/\d+/g, 'N').replace(/\s{3,}.*$/, '');
          if (!seen.has(shape)) seen.set(shape, Date.now() - started);
        }
        if (busySince !== undefined && !busy) break;
        // it may fail before the first look (no retries): idle again, never seen busy
        if (busySince === undefined && !busy && Date.now() - started > 10_000) break;
        if (Date.now() - started > limitMs) break;
        await sleep(500);
      }
      const busyMs = Date.now() - started;
      const gaveUp = !isBusy(name, screen);
      if (retries === undefined) {
        await snap(agent, gaveUp ? 'gave-up' : 'still-busy', `offline, ${label}, ${busyMs} ms`);
      }
      record(agent, `busyPhase (${label})`, {
        busyMarkerAfterMs: busySince,
        busyForMs: busyMs,
        gaveUp,
        statusShapes: Object.fromEntries(seen),
        composerAfter: composerText(name, screen),
      });
      if (!gaveUp) {
        await keys(agent, 'Escape');
        await sleep(2000);
        await snap(
          agent,
          'escape-after-long-busy',
          'Escape after the busy phase ran for the limit',
        );
      }
    });
  }
});
