/**
 * The readers behind "a background shell that listens on a port is a service"
 * (src/process/served.ts): a pane's descendants from a table of processes, the LISTEN sockets
 * of /proc/net/tcp, and lsof's `-F pn` lines (the ps path, as on macOS); and, on this
 * machine, a real listener found under a real process tree through each view.
 */
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import {afterEach, describe, expect, test} from 'vitest';
import {
  descendantsOf,
  listeningPorts,
  parsePsGroups,
  portsOfLsof,
  servedInPane,
} from '../../../src/process/served.js';

test('descendants of a pane, each with its ancestors below the pane and whether it leads its group', () => {
  const table = new Map([
    [10, {ppid: 1, command: '-bash', leader: true}],
    [11, {ppid: 10, command: 'claude', leader: true}],
    [12, {ppid: 11, command: 'bash -c npm run dev'}],
    [13, {ppid: 12, command: 'node vite'}],
    [20, {ppid: 1, command: 'other'}],
  ]);
  const claude = {pid: 11, command: 'claude', leader: true};
  const shell = {pid: 12, command: 'bash -c npm run dev', leader: false};
  expect(descendantsOf(table, 10)).toEqual([
    {...claude, ancestors: []},
    {...shell, ancestors: [claude]},
    {pid: 13, command: 'node vite', leader: false, ancestors: [claude, shell]},
  ]);
  // A cycle in a table read while processes come and go ends.
  expect(descendantsOf(new Map([[5, {ppid: 5, command: 'x'}]]), 5)).toEqual([]);
});

test("ps's pid, ppid, pgid and command columns: a process whose group is its own pid leads it", () => {
  expect(
    parsePsGroups(
      '  100     1   100 copilot --allow-all\n  150   100   150 node serve.js\n  160   100   100 node mcp.js\n',
    ),
  ).toEqual(
    new Map([
      [100, {ppid: 1, command: 'copilot --allow-all', leader: true}],
      [150, {ppid: 100, command: 'node serve.js', leader: true}],
      [160, {ppid: 100, command: 'node mcp.js', leader: false}],
    ]),
  );
});

test('LISTEN sockets of /proc/net/tcp, by inode', () => {
  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:1435 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0',
    '   1: 0100007F:1436 0100007F:9999 01 00000000:00000000 00:00000000 00000000     0        0 4343 1 0',
  ].join('\n');
  expect(listeningPorts(table)).toEqual(new Map([['4242', 5173]]));
});

test("lsof's -F pn lines: each process's ports", () => {
  expect(portsOfLsof('p300\nf12\nn*:5173\nf13\nn127.0.0.1:24678\np301\nn[::1]:8080\n')).toEqual(
    new Map([
      [300, [5173, 24678]],
      [301, [8080]],
    ]),
  );
});

describe.each(['proc', 'ps'])('a real listener under a real process (view %s)', (view) => {
  const started: Array<ReturnType<typeof spawn>> = [];
  afterEach(() => {
    // The whole group: the listener outlives a bash killed alone.
    for (const p of started) if (p.pid) process.kill(-p.pid, 'SIGKILL');
    delete process.env.NUDGE_PROCESS_VIEW;
  });
  test('found with its port; a process outside the tree is not', async () => {
    if (view === 'ps') process.env.NUDGE_PROCESS_VIEW = 'ps';
    const script =
      "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))";
    const shell = spawn('bash', ['-c', `node -e "${script}"; sleep 60`], {
      stdio: ['ignore', 'pipe', 'ignore'],
      detached: true,
    });
    started.push(shell);
    const [line] = (await once(shell.stdout!, 'data')) as [Buffer];
    const port = Number(line.toString().trim());
    const r = await servedInPane(shell.pid!);
    if ('why' in r) throw new Error(r.why);
    expect(r.served).toEqual([expect.objectContaining({ports: [port], ancestors: []})]);
    // Started detached: bash leads its own group; the listener it ran shares it.
    expect(r.served[0]?.leader).toBe(false);
    const elsewhere = await servedInPane(process.pid + 1_000_000);
    expect(elsewhere).toEqual({served: []});
  });
});
