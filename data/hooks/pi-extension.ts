// Written by `nudge install pi` (`nudge install pi --uninstall` takes it out). Two things:
// - when the agent's work on a prompt has settled, tell nudge that this tmux pane's agent
//   finished its turn (`nudge hook pi-agent-end`). `agent_end` is not that yet: Pi is idle
//   only once every agent_end listener has finished (pi-agent-core's Agent.processEvents), and
//   a message queued meanwhile starts another run. So the mark waits, past agent_end, until
//   the session is idle with nothing pending, and is dropped when a new run starts first;
// - nudge's door into this session: a Unix socket (0600, in nudge's private state folder,
//   named by this process's id) on which nudge hands over a job's notice, given to the agent
//   with pi.sendUserMessage — as a prompt when it is idle, as a follow-up when it works — so
//   nothing is typed into the terminal. It takes one JSON line {"type":"notice","text":…}
//   and answers one line: {"ok":true,"delivery":"submitted"|"queued"} or {"ok":false,…}.
import {spawn} from 'node:child_process';
import {chmodSync, mkdirSync, unlinkSync} from 'node:fs';
import {createServer} from 'node:net';
import {homedir} from 'node:os';
import {join} from 'node:path';

interface Context {
  isIdle(): boolean;
  /** Pi 0.73 and later. */
  hasPendingMessages?(): boolean;
}
interface Pi {
  on(event: string, handler: (event: unknown, ctx: Context) => void): void;
  sendUserMessage(text: string, options?: {deliverAs?: 'steer' | 'followUp'}): void;
}

/** nudge's state folder, found as nudge finds it (src/base/paths.ts). */
function stateDir(): string {
  const env = process.env;
  if (env.NUDGE_HOME) return env.NUDGE_HOME;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, 'tmux-nudge');
  return join(env.HOME || homedir(), '.local', 'state', 'tmux-nudge');
}

export default function (pi: Pi) {
  // Each run's end is marked once settled, unless another run started first.
  let run = 0;
  pi.on('agent_start', () => {
    run += 1;
  });
  pi.on('agent_end', (_event, c) => {
    const mine = ++run;
    const started = Date.now();
    const look = () => {
      if (run !== mine) return;
      let settled: boolean;
      try {
        settled = c.isIdle() && !c.hasPendingMessages?.();
      } catch {
        return; // the session was replaced (a reload): its runs are marked by its own handlers
      }
      // Idle comes within moments of agent_end; a session neither idle nor running again
      // after ten minutes is left to nudge's screen reading.
      if (!settled) {
        if (Date.now() - started < 600_000) setTimeout(look, 50).unref();
        return;
      }
      const child = spawn(NUDGE_NODE, [NUDGE_CLI, 'hook', 'pi-agent-end'], {
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.on('error', () => {});
      child.stdin.end('{}');
    };
    setTimeout(look, 0).unref();
  });

  let ctx: Context | undefined;
  let open = false;
  pi.on('session_start', (_event, c) => {
    ctx = c;
    if (open || !process.env.TMUX_PANE) return;
    open = true;
    const dir = join(stateDir(), 'doors');
    const path = join(dir, `pi-${process.pid}.sock`);
    // A socket's path is at most 103 bytes on macOS and the BSDs, 107 on Linux: longer, no
    // door (nudge says why: src/doors/pi-door.ts).
    if (Buffer.byteLength(path) > (process.platform === 'linux' ? 107 : 103)) return;
    try {
      mkdirSync(dir, {recursive: true, mode: 0o700});
      unlinkSync(path);
    } catch {
      // no old socket
    }
    const server = createServer((conn) => {
      let got = '';
      conn.setEncoding('utf8');
      conn.on('error', () => {});
      conn.on('data', (chunk: string) => {
        got += chunk;
        if (got.length > 65_536) return void conn.destroy();
        const end = got.indexOf('\n');
        if (end < 0) return;
        const answer = (a: object) => conn.end(`${JSON.stringify(a)}\n`);
        try {
          const m = JSON.parse(got.slice(0, end)) as {type?: unknown; text?: unknown};
          if (m.type !== 'notice' || typeof m.text !== 'string' || !m.text.trim())
            return answer({ok: false, error: 'not a notice'});
          if (!ctx) return answer({ok: false, error: 'the session has not started'});
          if (ctx.isIdle()) {
            pi.sendUserMessage(m.text);
            return answer({ok: true, delivery: 'submitted'});
          }
          pi.sendUserMessage(m.text, {deliverAs: 'followUp'});
          return answer({ok: true, delivery: 'queued'});
        } catch (error) {
          return answer({ok: false, error: String((error as Error)?.message ?? error)});
        }
      });
    });
    server.on('error', () => {});
    server.listen(path, () => {
      try {
        chmodSync(path, 0o600);
      } catch {
        // gone already
      }
    });
    server.unref();
    process.on('exit', () => {
      try {
        unlinkSync(path);
      } catch {
        // gone already
      }
    });
  });
}
