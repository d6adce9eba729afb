/**
 * Shared by the explorations: typing into a real agent, reading its composer back, judging
 * whether a submission took, and recording screens and measurements as fixtures.
 */
import {execFileSync} from 'node:child_process';
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {fileURLToPath} from 'node:url';
import {startModelServer} from '../helpers/model-server.js';
import {
  AGENT_NAMES,
  AGENT_SCREENS,
  type AgentName,
  DATA_AGENT_NAMES,
  type RealAgent,
  startAgent,
} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {waitFor} from '../helpers/wait-for.js';

export const SCREENS_DIR = fileURLToPath(new URL('../fixtures/screens/', import.meta.url));
const INDEX = join(SCREENS_DIR, 'index.json');
const MEASUREMENTS = join(SCREENS_DIR, 'measurements.json');

/** A real agent in a fresh private tmux server (`maxRetries`: its own retries offline). */
export async function freshAgent(name: AgentName, maxRetries?: number): Promise<RealAgent> {
  const server = await startTmuxServer();
  return startAgent(server, name, maxRetries === undefined ? {} : {maxRetries});
}

/** The agents to explore: NUDGE_EXPLORE_AGENTS=claude,opencode, default the three core ones
 * (a data agent, such as opencode, when named). */
export function agentsToExplore(): AgentName[] {
  const wanted = process.env.NUDGE_EXPLORE_AGENTS?.split(',').map((s) => s.trim());
  if (!wanted) return [...AGENT_NAMES];
  return [...AGENT_NAMES, ...DATA_AGENT_NAMES].filter((a) => wanted.includes(a));
}

/** The number of tries per measured cell: NUDGE_EXPLORE_TRIES, default 6. */
export function triesPerCell(): number {
  return Number(process.env.NUDGE_EXPLORE_TRIES || 6);
}

function readJson(file: string): Record<string, unknown> {
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
    : {};
}

function writeJson(file: string, value: Record<string, unknown>): void {
  const sorted = Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  // in the layout `biome check` wants (it folds short arrays)
  execFileSync(BIOME, ['format', '--write', file], {stdio: 'ignore'});
}

const BIOME = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));

/**
 * Save the pane's screen as test/fixtures/screens/<agent>-<state>.txt (plain
 * `capture-pane -p`), the same with attributes as <agent>-<state>.ansi (`-e`), and the cursor
 * position, size and a note in screens/index.json. Returns the plain capture.
 */
export async function snap(agent: RealAgent, state: string, note = ''): Promise<string> {
  mkdirSync(SCREENS_DIR, {recursive: true});
  const plain = await agent.capture();
  const ansi = await agent.server.tmux('capture-pane', '-p', '-e', '-t', agent.pane);
  const size = await agent.server.tmux(
    'display-message',
    '-p',
    '-t',
    agent.pane,
    '#{pane_width}x#{pane_height}',
  );
  const cursor = await agent.cursor();
  const name = `${agent.name}-${state}`;
  writeFileSync(join(SCREENS_DIR, `${name}.txt`), `${plain}\n`);
  writeFileSync(join(SCREENS_DIR, `${name}.ansi`), `${ansi}\n`);
  const index = readJson(INDEX);
  index[name] = {
    agent: agent.name,
    version: agent.version,
    state,
    cursor,
    size: size.trim(),
    note,
    // the throwaway folder (random per run) that shows in the screen's paths
    root: agent.root,
  };
  writeJson(INDEX, index);
  return plain;
}

/** Record a measurement under measurements.json[<agent>][key]; with `merge`, an object
 * value is merged into what is there (so a partial re-run keeps the other cells). */
export function record(agent: RealAgent, key: string, value: unknown, merge = false): void {
  const all = readJson(MEASUREMENTS);
  const mine = (all[agent.name] as Record<string, unknown> | undefined) ?? {};
  mine.version = agent.version;
  const before = mine[key];
  mine[key] =
    merge && typeof before === 'object' && typeof value === 'object'
      ? {...before, ...value}
      : value;
  all[agent.name] = Object.fromEntries(Object.entries(mine).sort(([a], [b]) => a.localeCompare(b)));
  writeJson(MEASUREMENTS, all);
}

/** One `send-keys -l` call per character with `gapMs()` between calls (the way nudge types). */
export async function typeSlowly(agent: RealAgent, text: string, gapMs: () => number = () => 0) {
  let first = true;
  for (const ch of text) {
    if (!first) {
      const gap = gapMs();
      if (gap > 0) await sleep(gap);
    }
    first = false;
    await agent.server.tmux('send-keys', '-t', agent.pane, '-l', ch);
  }
}

/** A bracketed paste of `text` (tmux wraps it in ESC[200~ … ESC[201~ when the app asked). */
export async function paste(agent: RealAgent, text: string): Promise<void> {
  const buffer = `explore-${process.pid}`;
  const {execa} = await import('execa');
  await execa('tmux', ['-S', agent.server.socket, 'load-buffer', '-b', buffer, '-'], {
    input: text,
  });
  await agent.server.tmux('paste-buffer', '-p', '-r', '-d', '-b', buffer, '-t', agent.pane);
}

export async function keys(agent: RealAgent, ...names: string[]): Promise<void> {
  await agent.server.tmux('send-keys', '-t', agent.pane, ...names);
}

/** The lines of the composer (the input box), or undefined when it is not on screen. */
export function composerLines(name: AgentName, screen: string): string[] | undefined {
  const lines = screen.split('\n');
  switch (name) {
    case 'claude': {
      // ──── / ❯ text / (continuation lines) / ────, the last such box on screen
      for (let end = lines.length - 1; end > 0; end--) {
        if (!/^─{20,}$/.test(lines[end] ?? '')) continue;
        let start = end - 1;
        while (start >= 0 && !/^─{20,}$/.test(lines[start] ?? '')) start--;
        const box = lines.slice(start + 1, end);
        if (start >= 0 && /^[❯!] /u.test(box[0]?.replace('\u00a0', ' ') ?? '')) return box;
      }
      return undefined;
    }
    case 'gemini': {
      // the last line starting with " > " or " ! " below the last rule, up to a blank line
      let rule = -1;
      lines.forEach((l, i) => {
        if (/^─{20,}$/.test(l)) rule = i;
      });
      const start = lines.findIndex((l, i) => i > rule && /^ [>!*] /.test(l));
      if (start < 0) return undefined;
      const box: string[] = [];
      for (let i = start; i < lines.length && (lines[i] ?? '').trim() !== ''; i++) {
        box.push(lines[i] ?? '');
      }
      return box;
    }
    case 'codex': {
      // the last "› …" line followed (eventually) by the status footer
      let start = -1;
      lines.forEach((l, i) => {
        if (/^[›!] /.test(l)) start = i;
      });
      if (start < 0) return undefined;
      const box: string[] = [];
      for (let i = start; i < lines.length && (lines[i] ?? '').trim() !== ''; i++) {
        box.push(lines[i] ?? '');
      }
      return box;
    }
  }
}

/** The text in the composer, prompt glyph and indentation removed, lines joined by \n;
 * '' when it shows only its placeholder. */
export function composerText(name: AgentName, screen: string): string | undefined {
  const box = composerLines(name, screen);
  if (!box) return undefined;
  if (AGENT_SCREENS[name].emptyComposer.test(screen)) return '';
  return box
    .map((l, i) =>
      i === 0 ? l.replace(/^ ?[❯>›!*][ \u00a0]{1,3}/u, '') : l.replace(/^ {2,4}/, ''),
    )
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n+$/, '');
}

export function isBusy(name: AgentName, screen: string): boolean {
  return AGENT_SCREENS[name].busy.test(screen);
}

/** Whether `text` shows as a submitted prompt in the transcript (above the composer). */
export function inTranscript(name: AgentName, screen: string, text: string): boolean {
  const box = composerLines(name, screen);
  const lines = screen.split('\n');
  const composerStart = box ? lines.lastIndexOf(box[0] ?? '') : lines.length;
  const head = text.slice(0, 30);
  return lines
    .slice(0, composerStart)
    .some((l) => /^ ?[❯>›] /u.test(l.replace('\u00a0', ' ')) && l.includes(head));
}

export type Outcome = 'submitted' | 'not-submitted' | 'queued' | 'other';

/**
 * Watch for up to `ms` after Enter: `submitted` once the composer is empty and the text is in
 * the transcript (or the screen went busy with an empty composer); `queued` when Codex lists
 * it under "Queued follow-up"; else `not-submitted` when the text is still in the composer.
 */
export async function judge(
  agent: RealAgent,
  text: string,
  ms = 3_000,
): Promise<{outcome: Outcome; screen: string; afterMs: number}> {
  const started = Date.now();
  let screen = '';
  for (;;) {
    screen = await agent.capture();
    const composer = composerText(agent.name, screen);
    const elapsed = Date.now() - started;
    if (/Queued follow-up|queued/i.test(screen) && screen.includes(text.slice(0, 20))) {
      return {outcome: 'queued', screen, afterMs: elapsed};
    }
    if (composer === '' && (inTranscript(agent.name, screen, text) || isBusy(agent.name, screen))) {
      return {outcome: 'submitted', screen, afterMs: elapsed};
    }
    if (elapsed > ms) {
      const outcome = composer?.includes(text.slice(0, 20)) ? 'not-submitted' : 'other';
      return {outcome, screen, afterMs: elapsed};
    }
    await sleep(100);
  }
}

/** Back to an empty idle composer: cancel a busy turn (Escape), close pickers, clear input. */
export async function reset(agent: RealAgent): Promise<void> {
  for (let round = 0; round < 12; round++) {
    const screen = await agent.capture();
    const busy = isBusy(agent.name, screen);
    const composer = composerText(agent.name, screen);
    if (!busy && composer === '') {
      // Gemini shows no busy marker while it reads @files; look again before calling it idle
      await sleep(1_200);
      const again = await agent.capture();
      if (!isBusy(agent.name, again) && composerText(agent.name, again) === '') {
        await agent.waitForIdle(20_000);
        return;
      }
      continue;
    }
    if (busy) {
      if (process.env.NUDGE_EXPLORE_DEBUG) console.log(`reset round ${round}: busy\n${screen}`);
      await keys(agent, 'Escape');
      await sleep(1_500);
      continue;
    }
    if (composer === undefined) {
      // a dialog or picker in the way
      await keys(agent, 'Escape');
      await sleep(800);
      continue;
    }
    // a draft (maybe several lines): end of text, then C-u per line and BSpace for joins
    for (let i = 0; i < 6; i++) await keys(agent, 'C-e', 'C-u', 'BSpace');
    await keys(agent, 'C-u');
    await sleep(600);
  }
  await agent.waitForIdle(20_000);
}

export async function waitForScreen(
  agent: RealAgent,
  what: string,
  test: (screen: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  let last = '';
  return waitFor(
    what,
    async () => {
      last = await agent.capture();
      return test(last) ? last : undefined;
    },
    {timeoutMs, intervalMs: 150, describe: () => last},
  );
}

/** The busy status line(s) of a screen, for listing what the agent shows while busy. */
export function statusLines(name: AgentName, screen: string): string[] {
  const pattern =
    name === 'claude'
      ? /^(✻|✶|✳|✢|·|\*|✽|●).*|.*esc to interrupt.*/u
      : name === 'gemini'
        ? /.*esc to cancel.*|.*(Attempt|attempt|Retrying|retrying|quota|Trying).*/u
        : /^[•◦].*|.*esc to interrupt.*|.*Reconnecting.*/u;
  return screen
    .split('\n')
    .filter((l) => pattern.test(l))
    .map((l) => l.trim());
}

/**
 * Type through one long-lived control-mode client (`tmux -C attach`), one `send-keys -l`
 * command per character, each awaited before the next: sub-millisecond gaps between keys,
 * the cadence nudge reaches when it types over control mode. Plain ASCII letters, digits,
 * space and `./@:-` only (quoted for tmux's parser with single quotes).
 */
export async function controlTyper(agent: RealAgent) {
  const {spawn} = await import('node:child_process');
  const child = spawn('tmux', ['-S', agent.server.socket, '-C', 'attach', '-t', 'main'], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let buffered = '';
  const waiters: Array<() => void> = [];
  let pendingBlocks = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (/^%(end|error) /.test(line)) {
        // the first block is the reply to attach itself
        if (pendingBlocks > 0) pendingBlocks--;
        else waiters.shift()?.();
      }
      nl = buffered.indexOf('\n');
    }
  });
  pendingBlocks = 1;
  const run = (command: string) =>
    new Promise<void>((resolve) => {
      waiters.push(resolve);
      child.stdin.write(`${command}\n`);
    });
  return {
    run,
    async type(text: string): Promise<void> {
      if (!/^[A-Za-z0-9 ./@:-]*$/.test(text)) throw new Error(`cannot control-type ${text}`);
      for (const ch of text) await run(`send-keys -t ${agent.pane} -l '${ch}'`);
    },
    async close(): Promise<void> {
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Print the file a model's tool call writes once it is there (a look a second, up to `tries`),
 * then the lines of the `ps --forest` it wrote beside it (`<out>.ps`) that match `keep`. */
export async function printToolOutput(out: string, tries: number, keep: RegExp): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      console.log(readFileSync(`${out}.txt`, 'utf8'));
      break;
    } catch {
      await sleep(1000);
    }
  }
  await sleep(1000);
  try {
    const ps = readFileSync(`${out}.ps`, 'utf8').split('\n');
    console.log(ps.filter((l) => keep.test(l)).join('\n'));
    console.log(
      'tool at line',
      ps.findIndex((l) => l.includes('echo "pane=')),
    );
  } catch (e) {
    console.log('no ps', (e as Error).message);
  }
}

/**
 * A real agent at a scripted model server in a fresh private tmux server, with two ways to
 * poke it by hand: `show` prints its last non-blank rows (and the pane's command and cursor),
 * `keys` sends tmux keys and lets it draw (800 ms).
 */
/** Where an exploration starts: the scripted model server and a private tmux server. */
export async function modelAndServer() {
  return {model: await startModelServer(), server: await startTmuxServer()};
}

export async function agentAtModel(name: AgentName, approvals: 'default' | 'all') {
  const {model, server} = await modelAndServer();
  const agent = await startAgent(server, name, {modelUrl: model.url, approvals});
  const show = async (label: string, rows = 16) => {
    const where = await server.tmux(
      'display-message',
      '-p',
      '-t',
      agent.pane,
      '#{pane_current_command} #{pane_pid} #{cursor_x},#{cursor_y}',
    );
    const screen = (await agent.capture()).split('\n').filter((r) => r.trim() !== '');
    console.log(`=== ${name} ${label} [${where.trim()}]\n${screen.slice(-rows).join('\n')}`);
  };
  const keys = async (...k: string[]) => {
    await server.tmux('send-keys', '-t', agent.pane, ...k);
    await sleep(800);
  };
  return {model, server, agent, show, keys};
}
