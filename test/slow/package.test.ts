/**
 * The package installs as users install it: `npm pack`, the tarball installed into a fresh
 * global prefix (`npm install -g --prefix`), then that install's `nudge --version`,
 * `nudge doctor --json` and the demo run with it. The tarball holds what the installed nudge
 * needs — dist/src, dist/workers, data/ (the verified-versions table doctor reads), the
 * README, the licence, package.json — and nothing else.
 */
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {useTempDir} from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {version: string})
  .version;

describe('the packed tarball, installed into a fresh global prefix', () => {
  test('holds only what nudge needs; nudge --version, doctor --json and the demo run from the install', async () => {
    const dir = useTempDir('nudge-package-');
    const env = {
      ...process.env,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    };
    const pack = await execa(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
      {cwd: ROOT, env},
    );
    const [info] = JSON.parse(pack.stdout) as Array<{
      filename: string;
      files: Array<{path: string}>;
    }>;
    const paths = info!.files.map((f) => f.path);
    const outside = paths.filter(
      (p) =>
        !/^dist\/(src|workers)\/.+\.js$/.test(p) &&
        !/^data\/agents\/[a-z-]+\.toml$/.test(p) &&
        !/^data\/hooks\/[a-z-]+\.(js|ts)$/.test(p) &&
        ![
          'package.json',
          'README.md',
          'LICENSE',
          'data/verified-versions.json',
          'dist/profiles.json',
        ].includes(p),
    );
    expect(outside, 'files in the tarball that the installed nudge does not need').toEqual([]);
    // The entries, the built-in profiles as data (the installed nudge reads them) and compiled
    // at build time (what a worker reads), and the hook programs install writes.
    const needed = [
      'dist/src/cli.js',
      'dist/workers/job-worker.js',
      'data/verified-versions.json',
      'data/agents/claude.toml',
      'dist/profiles.json',
      'data/hooks/opencode-plugin.js',
    ];
    expect(needed.filter((p) => !paths.includes(p))).toEqual([]);

    const prefix = join(dir, 'prefix');
    const install = await execa(
      'npm',
      ['install', '-g', '--prefix', prefix, join(dir, info!.filename)],
      {env, reject: false},
    );
    expect(install.exitCode, install.stderr).toBe(0);
    const nudge = join(prefix, 'bin', 'nudge');
    const bare = {
      PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
      HOME: dir,
      NUDGE_HOME: join(dir, 'state'),
    };

    const version = await execa(nudge, ['--version'], {env: bare, extendEnv: false});
    expect(version.stdout).toBe(VERSION);

    const doctor = await execa(nudge, ['doctor', '--json'], {
      env: bare,
      extendEnv: false,
      reject: false,
    });
    const checks = (
      JSON.parse(doctor.stdout) as {checks: Array<{name: string; status: string; detail: string}>}
    ).checks;
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    // The installed nudge reads the table shipped in its package.
    expect(checks.find((c) => c.name === 'tmux')).toMatchObject({
      status: 'ok',
      detail: expect.stringMatching(/^tmux \S+, verified on \d{4}-\d\d-\d\d /),
    });
    expect(checks.find((c) => c.name === 'node')?.detail).toContain(process.execPath);

    const installedCli = join(prefix, 'lib', 'node_modules', 'tmux-nudge', 'dist', 'src', 'cli.js');
    const demo = await execa(process.execPath, [join(ROOT, 'dist', 'scripts', 'demo.js')], {
      env: {...process.env, NUDGE_DEMO_CLI: installedCli},
      reject: false,
      timeout: 120_000,
    });
    expect(demo.exitCode, `${demo.stdout}\n${demo.stderr}`).toBe(0);
    expect(demo.stdout).toContain('[SYSTEM COMMAND] Command complete. Resume.');
  }, 240_000);
});
