/**
 * Telling a person (`--notify`), through the real CLI and worker: a webhook and an ntfy topic
 * served on 127.0.0.1 by the test, a program of the user's, tmux, and notify-send received by
 * a real notification daemon (dunst, on a virtual X display and a private D-Bus session).
 * Each change is told once; a failing sink is recorded in the job and never fails it; no URL
 * path (where webhooks keep their secret) reaches the job's events or log.
 */
import {execFileSync, spawn} from 'node:child_process';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, onTestFinished, test} from 'vitest';
import {allowSinks, startHttpSink} from '../helpers/http-sink.js';
import {readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {serverWorld} from '../helpers/nudge-home.js';
import {runNudge, submitArgs, submitJob} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {waitFor} from '../helpers/wait-for.js';

const SECRET = 'T0KEN-s3cr3t';

async function shellJob(extra: string[], env: Record<string, string> = {}) {
  const {server, home} = await serverWorld();
  const pane = await server.newPane(['bash', '--norc', '--noprofile']);
  const id = await submitJob(
    submitArgs(server.socket, pane, ['--until', 'exit', '--no-notice', ...extra], 'echo hi'),
    {NUDGE_HOME: home, ...env},
  );
  const end = await waitForJobEnd(home, id, 60_000);
  return {server, home, pane, id, end, events: () => readJobEvents(home, id)};
}

describe('--notify', () => {
  test('webhook and ntfy: one POST each when the job ends; the event as JSON, the ntfy line with title, priority and tags', async () => {
    const http = await startHttpSink();
    const sinks = [`webhook:${http.url}/hook/${SECRET}`, `ntfy:${http.url}/nudge-topic`];
    const job = await shellJob(
      sinks.flatMap((s) => ['--notify', s]),
      allowSinks(sinks),
    );
    expect(job.end.state).toBe('done');
    const [hook] = await http.waitFor(`/hook/${SECRET}`);
    const [topic] = await http.waitFor('/nudge-topic');
    expect(hook?.method).toBe('POST');
    expect(hook?.headers['content-type']).toBe('application/json');
    // No preview of the typed text leaves the machine unless config.toml says preview = true.
    expect(JSON.parse(hook?.body ?? '')).toEqual({
      event: 'done',
      job: job.id,
      state: 'done',
      pane: job.pane,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(hook?.body).not.toContain('echo hi');
    expect(topic?.body).toBe(`Job ${job.id} done.`);
    expect(topic?.headers).toMatchObject({
      title: `nudge: done in ${job.pane}`,
      priority: '3',
      tags: 'white_check_mark',
    });
    const events = await waitFor('both sinks recorded', async () => {
      const all = await job.events();
      return all.filter((e) => e.event === 'notify-sent').length === 2 ? all : undefined;
    });
    expect(events.filter((e) => e.event === 'notify-sent').map((e) => e.sink)).toEqual(
      expect.arrayContaining([`webhook:${http.url}`, `ntfy:${http.url}`]),
    );
    // Once: nothing more arrives.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(http.received).toHaveLength(2);
    const log = readFileSync(join(job.home, 'jobs', job.id, 'worker.log'), 'utf8');
    expect(JSON.stringify(events) + log).not.toContain(SECRET);
  }, 90_000);

  test('[notify] preview = true: webhook and ntfy get the first 80 characters of the typed text', async () => {
    const http = await startHttpSink();
    const config = useTempDir('nudge-config-');
    execFileSync('mkdir', ['-p', join(config, 'nudge')]);
    const sinks = [`webhook:${http.url}/hook`, `ntfy:${http.url}/topic`];
    writeFileSync(
      join(config, 'nudge', 'config.toml'),
      `[notify]\npreview = true\nallow = ${JSON.stringify(sinks)}\n`,
    );
    const job = await shellJob(
      sinks.flatMap((s) => ['--notify', s]),
      {XDG_CONFIG_HOME: config},
    );
    const [hook] = await http.waitFor('/hook');
    const [topic] = await http.waitFor('/topic');
    expect(JSON.parse(hook?.body ?? '')).toMatchObject({job: job.id, preview: 'echo hi'});
    expect(topic?.body).toMatch(new RegExp(`^Job ${job.id} "echo hi" done`));
  }, 90_000);

  test('a failing sink is tried three times, recorded, and the job still ends done; the others are told', async () => {
    const failing = await startHttpSink([500]);
    const fine = await startHttpSink();
    const sinks = [`webhook:${failing.url}/broken/${SECRET}`, `webhook:${fine.url}/ok`];
    const job = await shellJob(
      sinks.flatMap((s) => ['--notify', s]),
      allowSinks(sinks),
    );
    expect(job.end.state).toBe('done');
    await fine.waitFor('/ok');
    const events = await waitFor('the failed sink recorded', async () => {
      const all = await job.events();
      return all.some((e) => e.event === 'notify-failed') ? all : undefined;
    });
    expect(failing.received).toHaveLength(3);
    const failed = events.find((e) => e.event === 'notify-failed');
    expect(failed).toMatchObject({about: 'done', sink: `webhook:${failing.url}`});
    expect(String(failed?.error)).toMatch(/failed after 3 tries: HTTP 500/);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  }, 90_000);

  test('the config file gives the defaults; --notify none turns them off; a bad sink is one sentence, exit 2', async () => {
    const http = await startHttpSink();
    const config = useTempDir('nudge-config-');
    const dir = join(config, 'nudge');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(
      join(dir, 'config.toml'),
      `[notify]\nsinks = ["webhook:${http.url}/from-config"]\n`,
    );
    const job = await shellJob([], {XDG_CONFIG_HOME: config});
    const [got] = await http.waitFor('/from-config');
    expect(JSON.parse(got?.body ?? '')).toMatchObject({event: 'done', job: job.id});
    const off = await shellJob(['--notify', 'none'], {XDG_CONFIG_HOME: config});
    expect(off.end.state).toBe('done');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(http.received).toHaveLength(1);
    const bad = await runNudge(['submit', '--pane', '%1', '--notify', 'pager:555', '--', 'x'], {});
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'nudge: --notify "pager:555" is not a sink nudge knows: use cmd:PROGRAM, webhook:URL, ntfy:URL, desktop or tmux.',
    );
    // A sink that sends data off the machine, named by a flag (or a tool's argument) but not
    // listed in config.toml, is refused (issue 42): a model allowed to run nudge submit cannot
    // send what it likes where it likes. The config's own sink may be named.
    for (const sink of [`webhook:${http.url}/elsewhere`, 'ntfy:https://ntfy.sh/exfil']) {
      const egress = await runNudge(['submit', '--pane', '%1', '--notify', sink, '--', 'x'], {
        XDG_CONFIG_HOME: config,
      });
      expect(egress.exitCode).toBe(2);
      expect(egress.stderr.trim()).toBe(
        `nudge: --notify ${JSON.stringify(sink)} is refused: a ${sink.split(':')[0]}: sink sends data to another host, so a flag or a tool's argument may name it only when your config.toml's [notify] sinks or allow lists it.`,
      );
    }
    const named = await shellJob(['--notify', `webhook:${http.url}/from-config`], {
      XDG_CONFIG_HOME: config,
    });
    expect(named.end.state).toBe('done');
    await http.waitFor('/from-config', 2);
  }, 90_000);

  test('cmd: (from config.toml) the program gets the event as JSON on stdin; tmux: the pane is marked @nudge', async () => {
    const dir = useTempDir('nudge-cmd-');
    const out = join(dir, 'event.json');
    const script = join(dir, 'save.mjs');
    writeFileSync(
      script,
      `import {writeFileSync, readFileSync} from 'node:fs';\nwriteFileSync(process.argv[2], readFileSync(0));\n`,
    );
    // A cmd: sink comes only from the person's config file (test/integration/least-authority.test.ts).
    const config = useTempDir('nudge-config-');
    execFileSync('mkdir', ['-p', join(config, 'nudge')]);
    writeFileSync(
      join(config, 'nudge', 'config.toml'),
      `[notify]\nsinks = [${JSON.stringify(`cmd:${process.execPath} ${script} ${out}`)}, "tmux"]\n`,
    );
    const job = await shellJob([], {XDG_CONFIG_HOME: config});
    const saved = await waitFor('the event saved by the program', async () => {
      try {
        return JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    });
    expect(saved).toMatchObject({event: 'done', job: job.id, pane: job.pane});
    const mark = await waitFor('the @nudge pane option', async () => {
      const v = (
        await job.server.tmux('show-options', '-p', '-t', job.pane, '-v', '@nudge').catch(() => '')
      ).trim();
      return v === '' ? undefined : v;
    });
    expect(mark).toBe(`Job ${job.id} "echo hi" done.`);
  }, 90_000);

  test('lost: a worker killed mid-wait; the first nudge command that finds the job lost tells the person, once', async () => {
    const http = await startHttpSink();
    const {server, home} = await serverWorld();
    const pane = await server.newPane(['bash', '--norc', '--noprofile']);
    const r = await runNudge(
      submitArgs(
        server.socket,
        pane,
        {until: 'exit', notice: false, notify: `webhook:${http.url}/lost`},
        'sleep 60',
      ),
      {NUDGE_HOME: home, ...allowSinks([`webhook:${http.url}/lost`])},
    );
    const id = r.stdout.trim();
    const waiting = await waitFor('the job waiting', async () => {
      const state = JSON.parse(readFileSync(join(home, 'jobs', id, 'state.json'), 'utf8')) as {
        state: string;
        pid?: number;
      };
      return state.state === 'waiting' ? state : undefined;
    });
    process.kill(waiting.pid ?? 0, 'SIGKILL');
    await waitFor('the worker gone', async () => {
      try {
        process.kill(waiting.pid ?? 0, 0);
        return undefined;
      } catch {
        return true;
      }
    });
    const status = await runNudge(['status', id], {NUDGE_HOME: home});
    expect(status.stdout).toMatch(/state +lost/);
    const [post] = await http.waitFor('/lost');
    expect(JSON.parse(post?.body ?? '')).toMatchObject({event: 'lost', job: id, state: 'lost'});
    await runNudge(['jobs'], {NUDGE_HOME: home});
    await runNudge(['status', id], {NUDGE_HOME: home});
    expect(http.received).toHaveLength(1);
  }, 90_000);

  test.skipIf(!hasDesktopDaemon())(
    'desktop: notify-send, received by a real notification daemon (dunst) on a private D-Bus session',
    async () => {
      const bus = await privateDesktop();
      const job = await shellJob(['--notify', 'desktop'], {DBUS_SESSION_BUS_ADDRESS: bus.address});
      expect(job.end.state).toBe('done');
      const shown = await waitFor('the notification at dunst', async () => {
        const got = bus.history();
        return got.length > 0 ? got : undefined;
      });
      expect(shown).toEqual([
        {
          appname: 'nudge',
          summary: `nudge: done in ${job.pane}`,
          body: `Job ${job.id} "echo hi" done.`,
        },
      ]);
    },
    90_000,
  );
});

function hasDesktopDaemon(): boolean {
  try {
    for (const program of ['dunst', 'dunstctl', 'notify-send', 'Xvfb', 'dbus-daemon'])
      execFileSync('sh', ['-c', `command -v ${program}`], {stdio: 'ignore'});
    return true;
  } catch {
    return false;
  }
}

/** A virtual X display, a private D-Bus session and dunst on both; stopped after the test. */
async function privateDesktop() {
  const display = `:${100 + Math.floor(Math.random() * 800)}`;
  const xvfb = spawn('Xvfb', [display, '-nolisten', 'tcp'], {stdio: 'ignore'});
  const busOut = execFileSync(
    'dbus-daemon',
    ['--session', '--fork', '--print-address=1', '--print-pid=1'],
    {
      encoding: 'utf8',
    },
  ).split('\n');
  const address = busOut[0] ?? '';
  const busPid = Number(busOut[1]);
  const env = {...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: address};
  let dunst: ReturnType<typeof spawn> | undefined;
  onTestFinished(() => {
    dunst?.kill();
    xvfb.kill();
    try {
      process.kill(busPid);
    } catch {}
  });
  await waitFor('the X display', async () => {
    try {
      execFileSync('sh', ['-c', `test -e /tmp/.X11-unix/X${display.slice(1)}`]);
      return true;
    } catch {
      return undefined;
    }
  });
  dunst = spawn('dunst', [], {env, stdio: 'ignore'});
  const ctl = (...args: string[]) =>
    execFileSync('dunstctl', args, {env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore']});
  await waitFor('dunst on the bus', async () => {
    try {
      return ctl('is-paused').trim() === 'false' ? true : undefined;
    } catch {
      return undefined;
    }
  });
  return {
    address,
    /** The notifications dunst has shown (closed first, so they are in its history). */
    history(): Array<{appname: string; summary: string; body: string}> {
      ctl('close-all');
      const data = JSON.parse(ctl('history')) as {
        data: Array<Array<Record<string, {data: string}>>>;
      };
      return (data.data[0] ?? []).map((n) => ({
        appname: n.appname?.data ?? '',
        summary: n.summary?.data ?? '',
        body: n.body?.data ?? '',
      }));
    },
  };
}
