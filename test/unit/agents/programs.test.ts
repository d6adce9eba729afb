import {expect, test} from 'vitest';
import {runsProgram} from '../../../src/agents/programs.js';
import {PROFILES} from '../../../src/agents/registry.js';

test("a command line runs a profile's program as its executable, or as the script an interpreter runs past its options", () => {
  const programs = PROFILES.qwen?.programs;
  // As Qwen Code 0.24.4 starts itself, and again (ps, CI 2026-12-06).
  expect(runsProgram(programs, 'node /agents/qwen/node_modules/.bin/qwen --yolo')).toBe(true);
  expect(
    runsProgram(
      programs,
      '/usr/bin/node --expose-gc /agents/qwen/node_modules/@qwen-code/qwen-code/cli.js --yolo',
    ),
  ).toBe(true);
  expect(runsProgram(programs, 'qwen')).toBe(true);
  // The code of `node -e` is no script; a later word naming qwen is an argument.
  expect(runsProgram(programs, 'node -e require("net") qwen')).toBe(false);
  expect(runsProgram(programs, 'vim notes/qwen')).toBe(false);
});
