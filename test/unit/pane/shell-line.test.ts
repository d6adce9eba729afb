/**
 * ownLineWay: how a line of nudge's own (a notice, a continue line) reaches a pane so that a
 * shell never runs it as a command — typed to an agent or a pane's own program, a comment to a
 * shell at its prompt that takes one, else a tmux message.
 */
import {describe, expect, test} from 'vitest';
import type {Profile} from '../../../src/agents/profile.js';
import {PROFILES} from '../../../src/agents/registry.js';
import {ownLineWay} from '../../../src/pane/shell-line.js';
import {paneViewOf} from '../../helpers/pane-views.js';

const NOTICE = '[SYSTEM COMMAND] Command complete. Resume.';
const atPrompt = paneViewOf(['done', '$ ']);
const shell = (currentCommand: string, startCommand = '') => ({currentCommand, startCommand});

describe('ownLineWay', () => {
  test('a shell at its prompt that takes comments gets the line as one comment', () => {
    expect(ownLineWay(shell('bash'), PROFILES.shell, atPrompt, NOTICE)).toEqual({
      how: 'comment',
      line: `# ${NOTICE}`,
    });
    expect(ownLineWay(shell('dash'), PROFILES.shell, atPrompt, 'a\nrm -rf x')).toEqual({
      how: 'comment',
      line: '# a rm -rf x',
    });
  });

  test('zsh, a continuation prompt, a draft or a running program: shown, never typed', () => {
    expect(ownLineWay(shell('zsh'), PROFILES.shell, atPrompt, NOTICE).how).toBe('message');
    const continued = paneViewOf(['$ echo "abc', '> ']);
    expect(ownLineWay(shell('bash'), PROFILES.shell, continued, NOTICE).how).toBe('message');
    const draft = paneViewOf(['$ ls -la']);
    expect(ownLineWay(shell('bash'), PROFILES.shell, draft, NOTICE).how).toBe('message');
    const running = ownLineWay(shell('sleep'), PROFILES.raw, atPrompt, NOTICE);
    expect(running).toEqual({
      how: 'message',
      why: "sleep runs in the shell's foreground, and the shell would run a typed line when it ends",
      passing: true,
    });
    // zsh without interactive comments stays so: nothing to wait for.
    expect(ownLineWay(shell('zsh'), PROFILES.shell, atPrompt, NOTICE)).toMatchObject({
      passing: false,
    });
  });

  test("an agent, or a program that is the pane's own first process, gets the line typed", () => {
    expect(ownLineWay(shell('claude'), PROFILES.claude as Profile, atPrompt, NOTICE)).toEqual({
      how: 'keys',
      line: NOTICE,
    });
    const repl = shell('python3', 'python3');
    expect(ownLineWay(repl, PROFILES.raw, paneViewOf(['>>> ']), NOTICE).how).toBe('keys');
  });
});
