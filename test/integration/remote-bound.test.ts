// The far end of --host (`nudge remote`, the real CLI) applies the caller's bound, read from
// the request fail-closed: a pane of another host whose config does not grant this one reaches
// nothing here (docs/security.md, "Reach"). The whole way over a stand-in ssh is in
// remote.test.ts; here the request is written by hand, as a changed or broken caller could.
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {CLI} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';
import {cleanEnv, startTmuxServer} from '../helpers/tmux-server.js';

const VERSION = JSON.parse(
  readFileSync(join(CLI, '..', '..', '..', 'package.json'), 'utf8'),
).version;

/** `nudge remote` given one request line: its messages and exit code. */
async function remote(command: string, options: object, asker: unknown, env: object) {
  const r = await execa(process.execPath, [CLI, 'remote'], {
    env: cleanEnv({...env}),
    extendEnv: false,
    reject: false,
    timeout: 60_000,
    input: `${JSON.stringify({nudge: VERSION, protocol: 1, command, options, ...(asker === undefined ? {} : {asker})})}\n`,
  });
  const messages = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return {exitCode: r.exitCode, messages};
}

/** The sentence `nudge remote` refuses with, for a caller `from` that named this host `host`. */
const refusal = (lead: string, from: string, host: string) =>
  `${lead}: the pane that asked (${from}) is on another host, whose config.toml [submit] hosts does not name ${host}.`;

describe('nudge remote applies the caller’s bound', () => {
  test('an ungranted pane, or a request whose asker is missing or malformed: nothing typed, nothing recovered (exit 2); the person and a granted pane reach', async () => {
    const server = await startTmuxServer();
    const rec = await startRecorder(server);
    const env = {NUDGE_HOME: useNudgeHome(), XDG_CONFIG_HOME: useTempDir('nudge-config-')};
    const submit = {
      pane: rec.pane,
      socketPath: server.socket,
      text: 'typed',
      delay: 0,
      noNotice: true,
    };
    const ungranted = {kind: 'remote', from: 'laptop:%3', host: 'alpha', granted: false};
    const cases: Array<[unknown, string, string]> = [
      [ungranted, 'laptop:%3', 'alpha'],
      [undefined, '?', '?'],
      [{kind: 'pane', granted: true}, '?', '?'],
      ['person', '?', '?'],
    ];
    for (const [asker, from, host] of cases) {
      const r = await remote('submit', submit, asker, env);
      expect(r.exitCode, JSON.stringify(r.messages)).toBe(2);
      expect(r.messages[1]).toEqual({
        error: {
          code: 'out-of-reach',
          message: refusal(`--pane ${rec.pane} is out of reach`, from, host),
        },
      });
    }
    const recover = await remote('recover', {dryRun: true}, ungranted, env);
    expect(recover.exitCode).toBe(2);
    expect(recover.messages[1]).toEqual({
      error: {
        code: 'out-of-reach',
        message: refusal('Nothing here is recovered', 'laptop:%3', 'alpha'),
      },
    });
    for (const asker of [{kind: 'person'}, {...ungranted, granted: true}]) {
      const r = await remote('recover', {dryRun: true}, asker, env);
      expect(r.exitCode, JSON.stringify(r.messages)).toBe(0);
      expect(r.messages[1]).toHaveProperty('result');
    }
    expect((await rec.bytes()).toString()).toBe('');
    // Granted, the text arrives, once.
    const granted = await remote('submit', submit, {...ungranted, granted: true}, env);
    expect(granted.exitCode, JSON.stringify(granted.messages)).toBe(0);
    expect(await rec.lines(1)).toEqual(['typed']);
  }, 120_000);
});
