import {describe, expect, test} from 'vitest';
import type {HookMarkSource} from '../../../src/agents/hook-marks.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {idleNow} from '../../../src/detect/idle.js';
import {PaneBlocked, PaneFailure} from '../../../src/pane/failures.js';
import {waitUntilPaneIdle} from '../../../src/pane/idle.js';
import type {PaneMemory} from '../../../src/pane/memory.js';
import {waitPaneIdle} from '../../../src/pane/wait-idle.js';
import type {Foreground, InputState} from '../../../src/process/foreground.js';
import type {PaneInfo, Tmux} from '../../../src/tmux/tmux.js';
import type {PaneView} from '../../../src/tmux/view.js';
import {watcherIdleOptions} from '../../../src/watch/execute.js';
import {FakeClock} from '../../helpers/fake-clock.js';
import {fakePaneInfo} from '../../helpers/fake-tmux.js';
import {capturedScreen, paneViewOf} from '../../helpers/pane-views.js';

/**
 * One table of idle verdicts, asked through the three front doors that wait for an idle pane:
 * `nudge wait` (waitPaneIdle with its defaults), `--when-idle` (waitUntilPaneIdle) and the
 * watcher's idle step (waitPaneIdle with the watcher's threshold). They share one rule
 * (src/detect/idle.ts), so they must agree on every row.
 */

interface Row {
  name: string;
  /** The pane's foreground command (tmux's pane_current_command). */
  command: string;
  /** The command the pane was started with ('' for a shell). */
  startCommand?: string;
  /** The foreground's command line, where it names an agent. */
  argv?: string[];
  input: InputState;
  /** One screen per look (the last repeats), or a function of the look's number. */
  screen: PaneView | ((look: number) => PaneView);
  /** The verdict: idle, not idle (still busy at the timeout), or waiting for a person. */
  idle: boolean | 'blocked';
  /** The agent's notification hook reported a permission prompt (its "needs a person" mark). */
  needsMark?: boolean;
}

const waiting = (program: string): InputState => ({kind: 'waiting-for-input', program});
const running = (program: string): InputState => ({kind: 'running', program});
const shown = (rows: string[], command = 'bash') => paneViewOf(rows, {currentCommand: command});

/** Each agent's command line as npm installs it. */
const PROGRAM = {
  claude: ['/usr/local/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe'],
  gemini: ['node', '/usr/local/lib/node_modules/@google/gemini-cli/dist/index.js'],
  codex: ['node', '/usr/local/lib/node_modules/@openai/codex/bin/codex.js'],
};

const ROWS: Row[] = [
  {
    name: 'bash at its prompt',
    command: 'bash',
    input: waiting('bash'),
    screen: shown(['$ ']),
    idle: true,
  },
  {
    name: "bash in `read -p 'name? '` (no prompt character)",
    command: 'bash',
    input: waiting('bash'),
    screen: shown(['$ read -p "name? " n', 'name? ']),
    idle: true,
  },
  {
    name: 'a quiet `sleep 30` in a shell pane',
    command: 'sleep',
    input: running('sleep'),
    screen: shown(['$ sleep 30', ''], 'sleep'),
    idle: false,
  },
  {
    name: 'python3 waiting for input',
    command: 'python3',
    input: waiting('python3'),
    screen: shown(['$ python3', '>>> '], 'python3'),
    idle: true,
  },
  {
    name: 'a program whose foreground /proc cannot read (a quiet node)',
    command: 'node',
    input: {kind: 'unknown', why: 'no /proc'},
    screen: shown(['$ node server.js', 'listening'], 'node'),
    idle: false,
  },
  {
    name: 'a full-screen program started as the pane, its screen still',
    command: 'htop',
    startCommand: 'htop',
    input: waiting('htop'),
    screen: shown(['CPU 3%', 'Mem 1G'], 'htop'),
    idle: true,
  },
  {
    name: 'a full-screen program started as the pane, its screen changing',
    command: 'htop',
    startCommand: 'htop',
    input: waiting('htop'),
    screen: (look) => shown([`CPU ${look}%`, 'Mem 1G'], 'htop'),
    idle: false,
  },
  ...(Object.keys(PROGRAM) as (keyof typeof PROGRAM)[]).flatMap((agent): Row[] => [
    {
      name: `${agent} at its empty composer`,
      command: 'node',
      argv: ['node', `/usr/lib/node_modules/${agent}/cli.js`],
      input: waiting('node'),
      screen: capturedScreen(`${agent}-idle-empty`),
      idle: true,
    },
    {
      name: `${agent} busy (its screen held still)`,
      command: 'node',
      argv: ['node', `/usr/lib/node_modules/${agent}/cli.js`],
      input: waiting('node'),
      screen: capturedScreen(`${agent}-busy`),
      idle: false,
    },
    {
      name: `${agent} at a permission dialog (its screen held still)`,
      command: 'node',
      // No marker of the agent shows on a dialog: its command line says which it is.
      argv: PROGRAM[agent],
      input: waiting('node'),
      screen: capturedScreen(
        `${agent}-permission${agent === 'claude' ? '-bash' : agent === 'gemini' ? '-shell' : ''}`,
      ),
      idle: 'blocked',
    },
  ]),
  {
    name: 'claude at a dialog its profile does not read, its Notification hook reported a permission prompt',
    command: 'node',
    argv: PROGRAM.claude,
    input: waiting('node'),
    screen: shown(
      ['❯ make the file', '', ' Allow the shell to run?', '  » Allow', '    Deny'],
      'node',
    ),
    needsMark: true,
    idle: 'blocked',
  },
];

const PANE = '%1';

/** A pane in memory showing the row's screens, one per look. */
function paneOf(row: Row): {tmux: Tmux; info: PaneInfo; foreground: Foreground} {
  const info = fakePaneInfo({
    paneId: PANE,
    currentCommand: row.command,
    startCommand: row.startCommand ?? '',
  });
  let looks = 0;
  const tmux = {
    describePane: async (target: string) => (target === PANE ? {...info} : undefined),
    view: async () => {
      looks++;
      return typeof row.screen === 'function' ? row.screen(looks) : row.screen;
    },
  } as unknown as Tmux;
  const foreground: Foreground = {
    commandLine: async () => row.argv ?? [row.command],
    group: async () => undefined,
    inputState: async () => row.input,
  };
  return {tmux, info, foreground};
}

const TIMEOUT_MS = 5_000;

/** The agent's notification hook, as a row has it: a permission prompt reported long after
 * any wait began, or nothing. */
function marksOf(row: Row): HookMarkSource {
  const needs = row.needsMark
    ? {
        source: 'claude-notification',
        kind: 'permission' as const,
        message: 'Claude needs your permission to use Bash',
        atMs: Number.MAX_SAFE_INTEGER,
        pane: PANE,
      }
    : undefined;
  return {read: async () => undefined, readNeeds: async () => needs} as unknown as HookMarkSource;
}

/** The three front doors: true when the pane was found idle, false at the timeout, 'blocked'
 * when it waits for a person. */
const DOORS: Record<string, (row: Row) => Promise<boolean | 'blocked'>> = {
  'nudge wait': async (row) => {
    const {tmux, info, foreground} = paneOf(row);
    const r = await waitPaneIdle(
      {tmux, clock: new FakeClock(), foreground, hookMarks: marksOf(row)},
      info,
      {
        until: {kind: 'stable'},
        intervalMs: 1_000,
        timeoutMs: TIMEOUT_MS,
        stableChecks: 3,
        ignore: [],
        lines: 100,
      },
      new AbortController().signal,
    );
    return r.status === 'blocked' ? 'blocked' : r.status === 'idle';
  },
  '--when-idle': async (row) => {
    const {tmux, foreground} = paneOf(row);
    const memory: PaneMemory = {recall: async () => undefined, remember: async () => {}};
    const hookMarks = marksOf(row);
    try {
      await waitUntilPaneIdle(
        {
          tmux,
          clock: new FakeClock(),
          note: async () => {},
          foreground,
          paneMemory: memory,
          hookMarks,
        },
        PANE,
        {profile: 'auto', timeoutMs: TIMEOUT_MS},
        new AbortController().signal,
      );
      return true;
    } catch (error) {
      if (error instanceof PaneBlocked) return 'blocked';
      if (error instanceof PaneFailure && /stayed busy/.test(error.message)) return false;
      throw error;
    }
  },
  "the watcher's idle step": async (row) => {
    const {tmux, info, foreground} = paneOf(row);
    const r = await waitPaneIdle(
      {tmux, clock: new FakeClock(), foreground, hookMarks: marksOf(row)},
      info,
      watcherIdleOptions(2_000, TIMEOUT_MS),
      new AbortController().signal,
    );
    return r.status === 'blocked' ? 'blocked' : r.status === 'idle';
  },
};

describe('the idle verdicts, the same through every front door', () => {
  describe.each(ROWS.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const verdict = row.idle === 'blocked' ? 'blocked' : row.idle ? 'idle' : 'not idle';
    test.each(Object.keys(DOORS))(`%s says ${verdict}`, async (door) => {
      expect(await DOORS[door]?.(row)).toBe(row.idle);
    });
  });
});

describe('idleNow', () => {
  test('a fresh turn-end hook mark makes an agent idle without its composer, unless busy', () => {
    const facts = {agent: PROFILES.claude!, shellPane: true, input: waiting('node')};
    const noComposer = shown(['  the answer is 42'], 'node');
    expect(idleNow({...facts, view: noComposer, freshMark: false})).toEqual({
      busy: 'no idle composer on screen',
    });
    expect(idleNow({...facts, view: noComposer, freshMark: true})).toEqual({
      idle: "idle: the agent's turn-end hook reported",
    });
    expect(idleNow({...facts, view: capturedScreen('claude-busy'), freshMark: true})).toEqual({
      busy: 'the agent is busy',
    });
  });
});

describe('where the process view cannot see a wait (macOS: no wait channels)', () => {
  const unknown: InputState = {kind: 'unknown', why: 'ps does not say where it waits'};
  const look = (view: PaneView) =>
    idleNow({view, agent: undefined, shellPane: true, input: unknown, freshMark: false});

  test.each<[string, PaneView, string]>([
    ['python3 at >>>', shown(['$ python3', '>>> '], 'python3'), 'its prompt shows'],
    [
      'python3 at a continuation',
      shown(['>>> for i in x:', '... '], 'python3.12'),
      'its prompt shows',
    ],
    ['the node REPL', shown(['Welcome to Node.js', '> '], 'node'), 'its prompt shows'],
    ['psql', shown(['psql (15.4)', 'app=# '], 'psql'), 'its prompt shows'],
    [
      'less on the alternate screen',
      paneViewOf(['1', '2', ':'], {currentCommand: 'less', alternateOn: true}),
      'a pager waits for a key',
    ],
    [
      'less at its end (no alternate screen)',
      shown(['499', '500', '(END)'], 'less'),
      'a pager waits for a key',
    ],
    [
      'vim',
      paneViewOf(['~', '"x.txt" [New]'], {
        currentCommand: 'vim',
        alternateOn: true,
        cursorX: 0,
        cursorY: 0,
      }),
      'an editor waits for a key',
    ],
    ['any program asking [y/N]', shown(['Overwrite? [y/N] '], 'deploy'), 'it asks a question'],
    [
      'any program asking for a password',
      shown(['Password: '], 'python3'),
      'it asks for a password',
    ],
  ])('%s: idle, saying what the screen shows', (_name, view, what) => {
    expect(look(view)).toEqual({idle: `idle: waiting for input (${view.currentCommand}): ${what}`});
  });

  test('the shell at its prompt is idle; a shell that shows no prompt cannot be told', () => {
    expect(look(shown(['$ '], 'bash'))).toEqual({idle: 'idle'});
    expect(look(shown(['$ read -p "name? " n', 'name? '], 'bash'))).toEqual({
      unknown: 'cannot tell whether bash waits for input (ps does not say where it waits)',
    });
  });

  test.each([
    ['cat', shown(['$ cat', ''], 'cat')],
    ['sleep', shown(['$ sleep 30', ''], 'sleep')],
    ['a server', shown(['$ node server.js', 'listening'], 'node')],
    ['a >>> printed by something that is not python', shown(['>>> '], 'cat')],
  ])('%s: unknown, with why — never busy, never idle', (_name, view) => {
    expect(look(view)).toEqual({
      unknown: `cannot tell whether ${view.currentCommand} waits for input (ps does not say where it waits)`,
    });
  });

  test("a person's own profile file can add a program (the shell profile's waits)", () => {
    const view = shown(['gnuplot> '], 'gnuplot');
    expect('unknown' in look(view)).toBe(true);
    const waits = [{programs: [/^gnuplot$/], cursorLine: /^gnuplot> $/, what: 'its prompt shows'}];
    expect(
      idleNow({view, agent: undefined, shellPane: true, input: unknown, freshMark: false, waits}),
    ).toEqual({idle: 'idle: waiting for input (gnuplot): its prompt shows'});
  });

  test('with the view able to tell (Linux), its word stands: the screen is not read for it', () => {
    const view = shown(['>>> '], 'python3');
    expect(
      idleNow({
        view,
        agent: undefined,
        shellPane: true,
        input: running('python3'),
        freshMark: false,
      }),
    ).toEqual({busy: 'still running: python3'});
  });
});
