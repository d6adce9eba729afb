import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {makeTempDir, runCli, sleep, startPrivateTmux} from '../../test/harness/private-tmux.js';
import {type SshHost, startSshHosts} from '../../test/harness/ssh-hosts.js';
import type {Figure, FigureResult} from './bench-kit.js';

/** The load: 40 jobs on 20 panes across two hosts, at most this many sessions each. */
const JOBS = 40;
const PANES = 20;
const SESSIONS = 4;
const TIMINGS = [
  '--delay',
  '0',
  '--type-delay',
  '0',
  '--interval',
  '250ms',
  '--stable-checks',
  '2',
];

/** When a job (in `state`, the state folder of its host) began to type: its `typing` event. */
function typingAt(state: string, job: string): number | undefined {
  try {
    const lines = readFileSync(join(state, 'jobs', job, 'events.jsonl'), 'utf8').split('\n');
    for (const line of lines) {
      if (!line) continue;
      const e = JSON.parse(line) as {event: string; t: string};
      if (e.event === 'typing') return Date.parse(e.t);
    }
  } catch {
    // not yet
  }
  return undefined;
}

/** Submit every job at once; for each, ms from its submit returning to its worker typing. */
async function run(
  jobs: {args: string[]; state: string}[],
  env: Record<string, string>,
): Promise<{lags: number[]; failed: string[]}> {
  const started = await Promise.all(
    jobs.map(async (j) => {
      const r = await runCli(j.args, env, 120_000);
      const returned = Date.now();
      const id = r.stdout.trim().split(':').pop() ?? '';
      return {id, returned, state: j.state, error: r.exitCode === 0 ? '' : r.stderr};
    }),
  );
  const lags: number[] = [];
  const failed: string[] = [];
  for (const s of started) {
    if (s.error) {
      failed.push(s.error);
      continue;
    }
    const deadline = Date.now() + 120_000;
    let at = typingAt(s.state, s.id);
    while (at === undefined && Date.now() < deadline) {
      await sleep(50);
      at = typingAt(s.state, s.id);
    }
    if (at === undefined) failed.push(`job ${s.id} never typed`);
    else lags.push(Math.max(0, at - s.returned));
  }
  return {lags, failed};
}

/** 40 jobs on 20 panes across two hosts over ssh, and the same 40 jobs on one machine. */
export const remote: Figure = {
  id: 'remote',
  title: `${JOBS} jobs on ${PANES} panes across two ssh hosts vs on this machine`,
  async run(ctx): Promise<FigureResult[]> {
    const world = await startSshHosts(makeTempDir('nudge-bench-ssh-'), ['alpha', 'beta'], {
      sessions: SESSIONS,
    });
    try {
      const bash = ['bash', '--norc', '--noprofile'];
      const remotePanes: {host: SshHost; pane: string}[] = [];
      for (const host of world.hosts)
        for (let i = 0; i < PANES / 2; i++)
          remotePanes.push({host, pane: await host.newPane(bash)});
      const remoteJobs = Array.from({length: JOBS}, (_, n) => {
        const {host, pane} = remotePanes[n % PANES]!;
        const args = [
          'submit',
          '--host',
          host.name,
          '--pane',
          pane,
          ...TIMINGS,
          '--no-notice',
          '--',
          `echo remote ${n}`,
        ];
        return {args, state: host.state};
      });
      ctx.log(`  ${JOBS} jobs over ssh ...`);
      const far = await run(remoteJobs, world.env);

      const {server, pane: first} = await startPrivateTmux(ctx.dir, bash);
      const localPanes = [first];
      while (localPanes.length < PANES) localPanes.push(await server.newPane(bash));
      const localJobs = Array.from({length: JOBS}, (_, n) => ({
        args: [
          'submit',
          '-S',
          server.socket,
          '--pane',
          localPanes[n % PANES]!,
          ...TIMINGS,
          '--no-notice',
          '--',
          `echo local ${n}`,
        ],
        state: ctx.stateDir,
      }));
      ctx.log(`  ${JOBS} jobs here ...`);
      const near = await run(localJobs, ctx.env);
      server.kill();

      const notes = world.hosts.map((h) => {
        const {most, total} = h.sessions();
        const connections = (h.log().match(/Accepted publickey/g) ?? []).length;
        return `${h.name}: at most ${most} ssh sessions at once (configured ${SESSIONS}), ${total} in all, ${connections} connection(s)`;
      });
      const most = Math.max(...world.hosts.map((h) => h.sessions().most));
      const connections = world.hosts.map(
        (h) => (h.log().match(/Accepted publickey/g) ?? []).length,
      );
      return [
        {
          id: 'remote-submit-to-typing',
          subject: {
            label: `submit returned → remote worker typing (${JOBS} jobs, 2 hosts)`,
            unit: 'ms',
            samples: far.lags,
          },
          baseline: {
            label: `submit returned → worker typing, the same jobs here`,
            unit: 'ms',
            samples: near.lags,
          },
          ratio: 'subject/baseline',
          goal: {
            text: `all typed; ≤ ${SESSIONS} sessions per host; one connection per host`,
            met:
              far.failed.length === 0 &&
              near.failed.length === 0 &&
              most <= SESSIONS &&
              connections.every((c) => c === 1),
          },
          notes: [...notes, ...far.failed, ...near.failed],
        },
      ];
    } finally {
      await world.close();
    }
  },
};
