import {expect, test} from 'vitest';
import {
  agentNamed,
  agentProfiles,
  chooseProfile,
  profileNamed,
} from '../../../src/agents/registry.js';

test('the registry names every program: the shell, raw, and each agent of data/agents/', () => {
  expect(profileNamed('shell')?.kind).toBe('shell');
  expect(profileNamed('raw')?.kind).toBe('raw');
  const agents = agentProfiles().map((p) => p.name);
  for (const name of ['claude', 'qwen', 'pi']) expect(agents).toContain(name);
  expect(profileNamed('nosuch')).toBeUndefined();
});

test('an agent is named by the registry: any agent profile, none other', () => {
  expect(agentNamed('qwen', '--agent').name).toBe('qwen');
  expect(() => agentNamed('shell', '--agent')).toThrow(
    /--agent is an agent's name \(.*qwen.*\), not "shell"/,
  );
  expect(() => agentNamed('vim', '--agent')).toThrow(/not "vim"/);
});

test('--profile NAME picks that profile; a name no profile has is exit 2 listing them', () => {
  expect(chooseProfile('opencode', 'node', '').profile.name).toBe('opencode');
  expect(() => chooseProfile('nosuch', 'node', '')).toThrow(/no profile is named "nosuch"/);
});
