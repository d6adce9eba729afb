/**
 * `nudge completion`: the script it prints, loaded into a real bash, completes nudge's
 * commands and options (asking the built CLI, found on the PATH as a user has it).
 */
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {installTargets} from '../../src/setup/agents.js';
import {waitForJobEnd, waitForJobState} from '../helpers/job-files.js';
import {nudgeBinDir, runNudge, submitTo} from '../helpers/run-nudge.js';
import {shellAtPrompt} from '../helpers/shell-pane.js';
import {useTempDir} from '../helpers/temp-dir.js';

/** What bash offers for the words typed so far (the last one is being completed). */
async function complete(
  script: string,
  bin: string,
  words: string[],
  env: Record<string, string> = {},
): Promise<string[]> {
  const program = [
    script,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_nudge_yargs_completions',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa('bash', ['--norc', '--noprofile', '-c', program], {
    env: {PATH: `${bin}:${process.env.PATH}`, HOME: bin, ...env},
    extendEnv: false,
  });
  return r.stdout.split('\n').filter(Boolean);
}

describe('nudge completion', () => {
  test('bash: commands, agents and options complete', async () => {
    const bin = nudgeBinDir(useTempDir('nudge-completion-'));
    const r = await runNudge(['completion'], {SHELL: '/bin/bash'});
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      'complete -o bashdefault -o default -F _nudge_yargs_completions nudge',
    );
    expect(await complete(r.stdout, bin, ['nudge', 'ins'])).toEqual(['install']);
    expect(await complete(r.stdout, bin, ['nudge', 'd'])).toEqual(['doctor']);
    expect(
      (await complete(r.stdout, bin, ['nudge', 'install', ''])).filter((w) => !w.startsWith('-')),
    ).toEqual(installTargets());
    expect(await complete(r.stdout, bin, ['nudge', 'install', 'codex', '--un'])).toEqual([
      '--uninstall',
    ]);
  });

  test('bash: a job where a command takes one (cancel: the live ones), a pane where it takes one; never a bare -- (issue 65)', async () => {
    const bin = nudgeBinDir(useTempDir('nudge-completion-'));
    const {server, home} = await shellAtPrompt();
    const script = (await runNudge(['completion', 'bash'], {})).stdout;
    const env = {NUDGE_HOME: home};
    // Nothing to offer: nothing is inserted (it once offered the flags, and bash put in --).
    expect(await complete(script, bin, ['nudge', 'cancel', ''], env)).toEqual([]);
    const ended = await submitTo(server.socket, '%0', 'echo hi', ['--until', 'exit'], env);
    await waitForJobEnd(home, ended.id, 60_000);
    const live = await submitTo(server.socket, '%0', 'sleep 30', ['--until', 'exit'], env);
    await waitForJobState(home, live.id, ['waiting'], 60_000);
    const other = await server.newPane(['sleep', '600']);
    expect(await complete(script, bin, ['nudge', 'cancel', ''], env)).toEqual([live.id]);
    expect(await complete(script, bin, ['nudge', 'status', ''], env)).toEqual([live.id, ended.id]);
    expect(await complete(script, bin, ['nudge', 'status', live.id.slice(0, 12)], env)).toEqual([
      live.id,
    ]);
    const at = ['-S', server.socket];
    expect(await complete(script, bin, ['nudge', 'wait', ...at, ''], env)).toEqual(['%0', other]);
    expect(await complete(script, bin, ['nudge', 'submit', ...at, '--pane', ''], env)).toEqual([
      '%0',
      other,
    ]);
    // A profile, an agent; a value of the person's own gets nothing (not the flags).
    const agents = installTargets();
    const profiles = await complete(script, bin, ['nudge', 'submit', '--profile', ''], env);
    expect(profiles.slice(0, 3)).toEqual(['auto', 'shell', 'raw']);
    expect(profiles).toEqual(expect.arrayContaining([...agents]));
    expect(await complete(script, bin, ['nudge', 'run', '--agent', 'cl'], env)).toEqual(['claude']);
    expect(await complete(script, bin, ['nudge', 'wait', '--until', ''], env)).toEqual([]);
    // A flag being typed, and a flag's choices, stay yargs'.
    expect(await complete(script, bin, ['nudge', 'submit', '--if-busy', 'r'], env)).toEqual([
      'refuse',
    ]);
    expect(await complete(script, bin, ['nudge', 'cancel', '--keep'], env)).toEqual([
      '--keep-running',
    ]);
    // zsh and fish show what each is.
    const zsh = await runNudge(['--get-yargs-completions', 'nudge', 'wait', ...at, ''], {
      ...env,
      SHELL: '/usr/bin/zsh',
    });
    const [first, second] = zsh.stdout.split('\n');
    expect(first).toMatch(/^%0:\S+ \(main:0\.0\)$/);
    expect(second).toBe(`${other}:sleep (main:1.0)`);
  }, 120_000);

  test('zsh: a script zsh reads without a syntax error', async () => {
    const r = await runNudge(['completion'], {SHELL: '/usr/bin/zsh'});
    expect(r.stdout).toMatch(/^#compdef nudge/);
    const zsh = await execa('zsh', ['-n', '-c', r.stdout], {reject: false});
    expect(zsh.exitCode, zsh.stderr).toBe(0);
  });

  test('completion SHELL names the shell, whatever $SHELL says; fish too; another word in one sentence (issue 65)', async () => {
    const bash = await runNudge(['completion', 'bash'], {SHELL: '/usr/bin/zsh'});
    expect(bash.stdout).toContain(
      'complete -o bashdefault -o default -F _nudge_yargs_completions nudge',
    );
    const zsh = await runNudge(['completion', 'zsh'], {SHELL: '/bin/bash'});
    expect(zsh.stdout).toMatch(/^#compdef nudge/);
    const fish = await runNudge(['completion', 'fish'], {SHELL: '/bin/bash'});
    expect(fish.stdout).toContain("complete -f -c nudge -a '(nudge --get-yargs-completions");
    const other = await runNudge(['completion', 'tcsh'], {});
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toBe(
      'nudge: nudge completion takes bash, zsh or fish (got "tcsh"); see nudge completion --help.',
    );
  });
});

describe('words as gh and git read them (issue 65)', () => {
  test('help CMD is its --help; a stray word, a missing argument and a wrong choice each named in one sentence', async () => {
    const help = await runNudge(['help', 'submit'], {});
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toBe((await runNudge(['submit', '--help'], {})).stdout);
    for (const [args, said] of [
      [['doctor', 'extra'], 'nudge doctor takes no word like "extra"; see nudge doctor --help.'],
      [
        ['queue', 'frob', 'x'],
        'nudge queue has no command frob; its commands are show, move, drop, edit (see nudge queue --help).',
      ],
      [['cancel'], 'nudge cancel needs <job> (a job id, or HOST:ID); see nudge cancel --help.'],
    ] as const) {
      const r = await runNudge([...args], {});
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toBe(`nudge: ${said}`);
    }
    const vim = await runNudge(['install', 'vim'], {});
    expect(vim.exitCode).toBe(2);
    expect(vim.stderr).toMatch(
      /^nudge: <agent> takes one of "claude", .* \(got "vim"\); see nudge install --help\.$/,
    );
  });
});
