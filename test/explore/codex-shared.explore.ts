import {readFileSync, writeFileSync} from 'node:fs';
import {setTimeout as sleep} from 'node:timers/promises';
import {execa} from 'execa';
import {test} from 'vitest';
import {
  agentBin,
  agentWindowArgs,
  createAgentHome,
  killProcessesOfHome,
  waitForIdleComposer,
} from '../helpers/real-agents.js';
import {nudgeBinDir} from '../helpers/run-nudge.js';
import {modelAndServer} from './lib.js';

test('two codex sessions, one HOME, daemon on', async () => {
  const {model, server} = await modelAndServer();
  const bin = nudgeBinDir(server.dir);
  const out = `${server.dir}/out`;
  const where = createAgentHome('codex', {
    modelUrl: model.url,
    approvals: 'all',
    path: [bin],
    keepHome: true,
    hookCommand: [`${server.dir}/notify.sh`],
  });
  writeFileSync(
    `${server.dir}/notify.sh`,
    `#!/bin/sh\n{ echo "NOTIFY pid=$$ ppid=$PPID TMUX_PANE=$TMUX_PANE THREAD=$CODEX_THREAD_ID"; echo "$@"; env | grep -i codex; } >> ${out}.notify\n`,
    {mode: 0o755},
  );
  const cfg = `${where.home}/.codex/config.toml`;
  writeFileSync(
    cfg,
    readFileSync(cfg, 'utf8').replace('daemon_auto_start = false', 'daemon_auto_start = true'),
  );
  console.log(readFileSync(cfg, 'utf8'));
  try {
    const a = (
      await server.tmux(...agentWindowArgs('codex', where, {modelUrl: model.url, approvals: 'all'}))
    ).trim();
    await waitForIdleComposer(server, a, 'codex', 90_000);
    const b = (
      await server.tmux(...agentWindowArgs('codex', where, {modelUrl: model.url, approvals: 'all'}))
    ).trim();
    await waitForIdleComposer(server, b, 'codex', 90_000);
    console.log(
      'panes',
      a,
      b,
      await server.tmux(
        'list-panes',
        '-a',
        '-F',
        '#{pane_id} #{pane_pid} #{pane_title} #{pane_current_command}',
      ),
    );
    for (const [p, tag] of [
      [a, 'A'],
      [b, 'B'],
    ] as const) {
      model.script(
        {
          shell: `echo ${tag} pane=$TMUX_PANE thread=$CODEX_THREAD_ID pid=$$ ppid=$PPID; env | sort > ${out}.${tag}.env; ps -eo pid,ppid,pgid,sid,tty,args --forest > ${out}.${tag}.ps`,
        },
        {text: `done ${tag}`},
      );
      await server.tmux('send-keys', '-t', p, '-l', `go ${tag}`);
      await sleep(500);
      await server.tmux('send-keys', '-t', p, 'Enter');
      await model.waitForPrompt(new RegExp(`^go ${tag}$`), {timeoutMs: 60_000});
      await sleep(8000);
      console.log(tag, await server.capture(p));
    }
    for (const tag of ['A', 'B']) {
      console.log(
        `--- ${tag} env`,
        readFileSync(`${out}.${tag}.env`, 'utf8')
          .split('\n')
          .filter((l) => /TMUX|CODEX|^PWD|SHLVL/.test(l))
          .join('\n'),
      );
      console.log(
        `--- ${tag} ps`,
        readFileSync(`${out}.${tag}.ps`, 'utf8')
          .split('\n')
          .filter((l) => /codex|bash|ps -eo|tmux/.test(l))
          .join('\n'),
      );
    }
    const pids = (await execa('pgrep', ['-f', 'codex'], {reject: false})).stdout.split('\n');
    for (const pid of pids) {
      const r = await execa(
        'bash',
        [
          '-c',
          `echo "== ${pid} $(tr '\\0' ' ' < /proc/${pid}/cmdline)"; ls -l /proc/${pid}/fd 2>/dev/null | grep -v -e pipe -e socket -e /dev/ -e anon_inode | sed 's/.*-> //'; ss -xp 2>/dev/null | grep "pid=${pid}," | head -5`,
        ],
        {reject: false},
      );
      console.log(r.stdout);
    }
    console.log(
      (await execa('ss', ['-xp'], {reject: false})).stdout
        .split('\n')
        .filter((l) => /codex|app-server/.test(l))
        .join('\n'),
    );
    try {
      console.log('--- notify', readFileSync(`${out}.notify`, 'utf8'));
    } catch {
      console.log('no notify');
    }
    console.log(
      (
        await execa(
          'find',
          [`${where.home}/.codex`, '-maxdepth', '3', '-not', '-path', '*/packages/*'],
          {reject: false},
        )
      ).stdout,
    );
    for (const e of model.journal()) console.log(e.path, JSON.stringify(e.body).slice(0, 300));
  } finally {
    await execa(agentBin('codex'), ['app-server', 'daemon', 'stop'], {
      reject: false,
      env: {...process.env, HOME: where.home},
    });
    await killProcessesOfHome(where.home);
    console.log('home', where.home);
  }
}, 400_000);
