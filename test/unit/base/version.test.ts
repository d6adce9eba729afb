// The version nudge reports (--version, the MCP server's serverInfo) is package.json's.
import {readFileSync} from 'node:fs';
import {expect, test} from 'vitest';
import {nudgeVersion} from '../../../src/base/version.js';

test("nudgeVersion is package.json's version", () => {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
  expect(nudgeVersion()).toBe(pkg.version);
});
