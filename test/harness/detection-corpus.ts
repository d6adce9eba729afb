/**
 * The detection corpus: real programs in real panes, each with the verdict nudge must reach
 * — what a person at the screen would say — and why. The tests (test/integration/
 * detection-corpus.test.ts) and the bench (figure-corpus) run the same list.
 */
export interface CorpusCase {
  /** The row's name in the corpus table of docs/waiting.md. */
  name: string;
  /** The pane's shell (default bash). */
  shell?: 'bash' | 'zsh';
  /** Typed into the shell and run; none: the idle shell itself. `{dir}` is a temp folder,
   * `{fixtures}` the tests' fixture programs. */
  line?: string;
  /** The program is at the moment under test once the screen shows this (as capture-pane
   * prints it: trailing spaces trimmed), or once this command is in the pane's foreground. */
  ready: RegExp | {command: string};
  /** The check interval, where the case needs the default cadence rather than the tests'
   * quick one. */
  intervalMs?: number;
  /** idle: `nudge wait` ends 0; busy: it times out (124). */
  verdict: 'idle' | 'busy';
  /** The reason nudge must give. */
  reason: RegExp;
  /** Why that is the right verdict (docs/waiting.md). */
  why: string;
  /** A program the case needs that a system may not have (macOS ships no `watch`): the case
   * is skipped there, saying so. */
  needs?: string;
  /** Where the process view shows no wait channels (macOS), when the verdict differs: the
   * screen alone tells (a prompt, a pager, an editor, a question), else `unknown` (`nudge
   * wait` ends 1 once the screen is still). */
  mac?: {verdict: 'idle' | 'unknown'; reason: RegExp};
}

/** A Mac's verdict where the screen shows the program waiting: `what` it shows. */
function seenWaiting(program: string, what: string): CorpusCase['mac'] {
  return {
    verdict: 'idle',
    reason: new RegExp(`^idle: waiting for input \\(${program}\\): ${what}$`),
  };
}

/** A Mac's verdict where nothing can tell whether `program` waits. */
function cannotTell(program: string): CorpusCase['mac'] {
  return {
    verdict: 'unknown',
    reason: new RegExp(`^cannot tell whether ${program} waits for input \\(`),
  };
}

/** The verdict a case must reach through `view`: `mac` (a ps without wait channels, as on
 * macOS — where the ps view *is* that), or one that sees waits. */
export function verdictThrough(
  c: CorpusCase,
  view: 'proc' | 'ps' | 'mac',
): {verdict: 'idle' | 'busy' | 'unknown'; reason: RegExp} {
  const blind = view === 'mac' || (view === 'ps' && process.platform === 'darwin');
  return blind && c.mac ? c.mac : {verdict: c.verdict, reason: c.reason};
}

const node = process.execPath;

/** The verdict and reason of a program that reads the terminal: idle, waiting for input. */
function waitingForInput(program: string): Pick<CorpusCase, 'verdict' | 'reason'> {
  return {verdict: 'idle', reason: new RegExp(`^idle: waiting for input \\(${program}\\)$`)};
}

/** The verdict and reason of a program at work in the foreground: busy, still running. */
function stillRunning(program: string): Pick<CorpusCase, 'verdict' | 'reason'> {
  return {verdict: 'busy', reason: new RegExp(`^still running: ${program}$`)};
}

export const CORPUS: readonly CorpusCase[] = [
  {
    name: 'bash at its prompt',
    ready: /^\$$/m,
    verdict: 'idle',
    reason: /^idle$/,
    why: 'the shell waits for a command',
  },
  {
    name: 'zsh at its prompt',
    shell: 'zsh',
    ready: /[%#$>]$/m,
    verdict: 'idle',
    reason: /^idle$/,
    why: 'the shell waits for a command',
  },
  {
    name: 'Python REPL (`python3`)',
    // -I: no ~/.python_history written into the test's home when the pane is killed.
    line: 'python3 -q -I',
    ready: /^>>>$/m,
    ...waitingForInput('python3'),
    why: 'the REPL waits at `>>>` (select on the terminal)',
    mac: seenWaiting('python3', 'its prompt shows'),
  },
  {
    name: 'Node REPL (`node`)',
    line: node,
    ready: /^>$/m,
    ...waitingForInput('node'),
    why: 'the REPL waits at `>` (the terminal is in its epoll set)',
    mac: seenWaiting('node', 'its prompt shows'),
  },
  {
    name: "`read -p 'name? '` (bash builtin)",
    line: "read -p 'name? ' answer",
    ready: /name\?$/m,
    ...waitingForInput('bash'),
    why: 'the shell itself reads the terminal, not at its prompt',
    mac: cannotTell('bash'),
  },
  {
    name: "a program's question (`input()`)",
    line: `python3 -c 'input("Overwrite? [y/N] ")'`,
    ready: /Overwrite\? \[y\/N\]$/m,
    ...waitingForInput('python3'),
    why: 'it asks and reads the terminal: the person (or agent) must answer',
    mac: seenWaiting('python3', 'it asks a question'),
  },
  {
    name: 'a password prompt (`getpass`)',
    line: `python3 -c 'import getpass; getpass.getpass("Password: ")'`,
    ready: /Password:$/m,
    ...waitingForInput('python3'),
    why: 'it reads /dev/tty, which is the pane',
    mac: seenWaiting('python3', 'it asks for a password'),
  },
  {
    name: '`cat` waiting on stdin',
    line: 'cat',
    ready: {command: 'cat'},
    ...waitingForInput('cat'),
    why: 'it reads the terminal',
    mac: cannotTell('cat'),
  },
  {
    name: '`less` on a file',
    line: 'seq 1 500 > {dir}/numbers.txt; less {dir}/numbers.txt',
    ready: {command: 'less'},
    ...waitingForInput('less'),
    why: 'the pager waits for a key',
    mac: seenWaiting('less', 'a pager waits for a key'),
  },
  {
    name: '`vim`',
    line: 'vim -u NONE -N -i NONE {dir}/notes.txt',
    ready: /^~/m,
    ...waitingForInput('vim'),
    why: 'the editor waits for a key',
    mac: seenWaiting('vim', 'an editor waits for a key'),
  },
  {
    name: '`sleep 30`',
    line: 'sleep 30',
    ready: {command: 'sleep'},
    ...stillRunning('sleep'),
    why: 'quiet, but it is working (a timer, not the terminal)',
    mac: cannotTell('sleep'),
  },
  {
    name: 'a build with a 6 s silent phase',
    line: "sh -c 'echo compiling; sleep 6; echo linking; sleep 1; echo built'",
    ready: /^compiling$/m,
    ...stillRunning('sleep'),
    why: 'quiet between bursts of output, but not done',
    mac: cannotTell('sh'),
  },
  {
    name: 'a server: "listening", then quiet',
    line: `${node} -e "require('http').createServer().listen(0, '127.0.0.1', () => console.log('listening'))"`,
    ready: /^listening$/m,
    ...stillRunning('node'),
    why: 'it serves (epoll on its socket), it does not wait for the person',
    mac: cannotTell('node'),
  },
  {
    name: 'a `\\r` progress bar',
    line: 'sh -c \'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); printf "\\r%d%%" $i; sleep 0.1; done\'',
    ready: /\d+%/,
    verdict: 'busy',
    reason: /^(the screen is still changing|still running: (sh|sleep))$/,
    why: 'the line keeps changing',
  },
  {
    name: 'a spinner',
    line: `${node} {fixtures}/spinner.mjs`,
    ready: /working/,
    verdict: 'busy',
    reason: /^(the screen is still changing|still running: node)$/,
    why: 'the screen never settles',
  },
  {
    name: '`watch -n 1 date`',
    needs: 'watch',
    line: 'watch -n 1 date',
    ready: /Every 1/,
    // The default cadence (3 checks 1 s apart): still between two redraws for less than the
    // window, so that the screen decides where the process view cannot (a Mac's).
    intervalMs: 1_000,
    verdict: 'busy',
    reason: /^(the screen is still changing|still running: watch)$/,
    why: 'it redraws every second: never still',
  },
  {
    name: '`top -d 1`',
    // macOS's top takes -s (seconds between samples; its -d is delta mode), says "Load Avg".
    line: process.platform === 'darwin' ? 'top -s 1' : 'top -d 1',
    ready: /load average|Load Avg/,
    // The default cadence (3 checks 1 s apart): top redraws its clock every second.
    intervalMs: 1_000,
    verdict: 'busy',
    reason: /^the screen is still changing$/,
    why: 'it waits for a key, but redraws every second: never still for the window',
  },
  {
    name: '`tail -f` on a quiet file',
    line: ': > {dir}/quiet.log; tail -f {dir}/quiet.log',
    ready: {command: 'tail'},
    ...stillRunning('tail'),
    why: 'it follows a file (inotify), nothing to answer',
    mac: cannotTell('tail'),
  },
];

/** The shells the corpus's panes start with. */
export const CORPUS_SHELLS = {bash: ['bash', '--norc', '--noprofile'], zsh: ['zsh', '-f']} as const;

/** What starting a case needs of a tmux server (the tests' and the bench's both fit). */
export interface CorpusServer {
  tmux(...args: string[]): Promise<string>;
  waitForScreen(pane: string, pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/** Run the case's line in `pane` (a fresh shell from CORPUS_SHELLS) and wait until the
 * program is at the moment under test. */
export async function startCase(
  server: CorpusServer,
  pane: string,
  c: CorpusCase,
  places: {dir: string; fixtures: string},
): Promise<void> {
  await server.waitForScreen(pane, /[$%#>]$/m);
  if (c.line) {
    const line = c.line
      .replaceAll('{dir}', places.dir)
      .replaceAll('{fixtures}', places.fixtures.replace(/\/$/, ''));
    await server.tmux('send-keys', '-t', pane, '-l', line);
    await server.tmux('send-keys', '-t', pane, 'Enter');
  }
  const ready = c.ready;
  if (ready instanceof RegExp) {
    await server.waitForScreen(pane, ready);
    return;
  }
  let current = '';
  for (let i = 0; i < 150 && current !== ready.command; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
    current = (
      await server.tmux('display-message', '-p', '-t', pane, '#{pane_current_command}')
    ).trim();
  }
  if (current !== ready.command)
    throw new Error(
      `${ready.command} never came to the foreground of ${pane} (it runs ${current})`,
    );
}
