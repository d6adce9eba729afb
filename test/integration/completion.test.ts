/**
 * `nudge completion`: the script it prints, loaded into a real bash, completes nudge's
 * commands and options (asking the built CLI, found on the PATH as a user has it).
 */
import {execa} from 'execa';
import {describe, expect, test} from 'vitest';
import {installTargets} from '../../src/setup/agents.js';
import {nudgeBinDir, runNudge} from '../helpers/run-nudge.js';
import {useTempDir} from '../helpers/temp-dir.js';

/** What bash offers for the words typed so far (the last one is being completed). */
async function complete(script: string, bin: string, words: string[]): Promise<string[]> {
  const program = [
    script,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_nudge_yargs_completions',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash expansion, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const r = await execa('bash', ['--norc', '--noprofile', '-c', program], {
    env: {PATH: `${bin}:${process.env.PATH}`, HOME: bin},
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
