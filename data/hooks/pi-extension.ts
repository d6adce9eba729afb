// Written by `nudge install pi` (`nudge install pi --uninstall` takes it out). Two things:
// - when the agent ends its work on a prompt, tell nudge that this tmux pane's agent finished
//   its turn (`nudge hook pi-agent-end`);
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
  pi.on('agent_end', () => {
    const child = spawn(NUDGE_NODE, [NUDGE_CLI, 'hook', 'pi-agent-end'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', () => {});
    child.stdin.end('{}');
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
