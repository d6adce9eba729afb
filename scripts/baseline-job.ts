/**
 * The benchmark's baseline: the straightforward design of what a nudge job does, as its own
 * process. It types the text with one `tmux send-keys` process per character, presses Enter,
 * polls with one `tmux capture-pane` process per check until `stableChecks` captures in a row
 * each equal the one before (the seed's `if current == last: stable_checks++`, so 3 checks at
 * 1 s are 3 s of stillness), or the timeout, then types the notice the same way into the
 * notify pane.
 *
 * Usage: node dist/scripts/baseline-job.js '<json BaselineJob>'
 * Prints JSON lines: {"event":"waiting","t":ms} when polling starts, then
 * {"event":"end","status":"done"|"timeout",...usage} when it is done. Only the benchmark runs
 * it, against its own private tmux server.
 */
import {execFile} from 'node:child_process';
import {readFileSync} from 'node:fs';

/** What the baseline job is asked to do. */
export interface BaselineJob {
  socket: string;
  pane: string;
  notifyPane?: string;
  text: string;
  /** Omitted: no notice. */
  notice?: string;
  enter: boolean;
  intervalMs: number;
  stableChecks: number;
  timeoutMs: number;
  /** The seed's cadence: a pause between the characters' send-keys processes (default 0). */
  typeDelayMs?: number;
  /** The seed's clearing keys, pressed (one process each) before typing (default none). */
  clearKeys?: string[];
}

function tmux(socket: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('tmux', ['-S', socket, ...args], {encoding: 'utf8'}, (error, stdout, stderr) => {
      if (error) reject(new Error(`tmux ${args[0]} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

/** One `send-keys -l` process per character (`delayMs` apart); a lone ";" is escaped
 * (tmux's separator). */
async function typePerChar(
  socket: string,
  pane: string,
  text: string,
  delayMs = 0,
  clearKeys: string[] = [],
): Promise<void> {
  for (const key of clearKeys) await tmux(socket, ['send-keys', '-t', pane, key]);
  for (const ch of text) {
    await tmux(socket, ['send-keys', '-t', pane, '-l', '--', ch === ';' ? '\\;' : ch]);
    if (delayMs > 0) await sleep(delayMs);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function line(data: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(data)}\n`);
}

/** CPU of this process and of its exited children (the tmux processes), and peak RSS. */
function usage() {
  const own = process.resourceUsage();
  let childrenCpuMs: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    childrenCpuMs = (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    // not Linux
  }
  return {
    cpuMs: Math.round((own.userCPUTime + own.systemCPUTime) / 1000),
    childrenCpuMs,
    maxRssKb: own.maxRSS,
  };
}

async function main(job: BaselineJob): Promise<void> {
  await typePerChar(job.socket, job.pane, job.text, job.typeDelayMs, job.clearKeys);
  if (job.enter) await tmux(job.socket, ['send-keys', '-t', job.pane, 'Enter']);
  const started = Date.now();
  line({event: 'waiting', t: started});
  const deadline = started + job.timeoutMs;
  let last: string | undefined;
  let stable = 0;
  let status: 'done' | 'timeout' = 'timeout';
  for (;;) {
    const screen = await tmux(job.socket, ['capture-pane', '-p', '-t', job.pane]);
    stable = screen === last ? stable + 1 : 0;
    last = screen;
    if (stable >= job.stableChecks) {
      status = 'done';
      break;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    await sleep(Math.min(job.intervalMs, remaining));
    if (Date.now() >= deadline) break;
  }
  const waitedMs = Date.now() - started;
  if (job.notice !== undefined) {
    const pane = job.notifyPane ?? job.pane;
    await typePerChar(job.socket, pane, job.notice, job.typeDelayMs, job.clearKeys);
    await tmux(job.socket, ['send-keys', '-t', pane, 'Enter']);
  }
  line({event: 'end', status, waitedMs, ...usage()});
}

const job = JSON.parse(process.argv[2] ?? '{}') as BaselineJob;
process.on('SIGTERM', () => {
  line({event: 'end', status: 'killed', ...usage()});
  process.exit(143);
});
main(job).catch((error: Error) => {
  line({event: 'end', status: 'failed', error: error.message, ...usage()});
  process.exitCode = 1;
});
