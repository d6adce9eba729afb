import {execFileSync} from 'node:child_process';
import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Reporter, TestCase, TestModule} from 'vitest/node';
import {AGENT_NAMES, type AgentName, agentVersion, DATA_AGENT_NAMES} from '../harness/agents.js';

/**
 * With NUDGE_VERIFIED_DIR set (.ci/run, or by hand before `npm run verified`): at the end of
 * a run, one JSON file in that folder with what the run verified — tmux at its version (every
 * test that ran against it), and each agent CLI at its installed version (the tests whose
 * suite is named for it: `claude (default approvals) › …`). `npm run verified` merges these
 * files into data/verified-versions.json, the table `nudge doctor` reads.
 */
export default class VerifiedReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const dir = process.env.NUDGE_VERIFIED_DIR;
    if (!dir) return;
    const tmux = tmuxVersion();
    const node = process.versions.node;
    const date = new Date().toISOString().slice(0, 10);
    const groups = new Map<
      string,
      {program: string; version: string; passed: string[]; failed: string[]}
    >();
    const add = (program: string, version: string, test: TestCase, ok: boolean) => {
      const key = `${program}@${version}`;
      const g = groups.get(key) ?? {program, version, passed: [], failed: []};
      (ok ? g.passed : g.failed).push(test.fullName);
      groups.set(key, g);
    };
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state !== 'passed' && state !== 'failed') continue;
        // Unit tests prove no program's version: only what ran against the real ones counts.
        if (t.project.name === 'unit') continue;
        if (tmux) add('tmux', tmux, t, state === 'passed');
        const agent = agentOf(topSuite(t));
        const version = agent && agentVersion(agent);
        if (agent && version) add(agent, version, t, state === 'passed');
      }
    }
    if (groups.size === 0) return;
    const entries = [...groups.values()].map((g) => ({
      program: g.program,
      version: g.version,
      tmux: tmux ?? 'unknown',
      node,
      passed: g.passed.length,
      failed: g.failed.length,
      scenarios: [...g.passed, ...g.failed.map((n) => `FAILED: ${n}`)],
      date,
    }));
    mkdirSync(dir, {recursive: true});
    const file = join(dir, `${date}-${process.pid}-${Date.now().toString(36)}.json`);
    writeFileSync(file, `${JSON.stringify(entries, null, 1)}\n`);
  }
}

/** The name of the outermost suite a test is in ('' when it is in none). */
function topSuite(test: TestCase): string {
  let name = '';
  for (let p = test.parent; p.type === 'suite'; p = p.parent) name = p.name;
  return name;
}

/** The agent a suite is about, named in it as a word (`codex (all approvals)`, `nudge install
 * claude, with the real Claude Code`, `nudge run --agent gemini`). */
function agentOf(suite: string): AgentName | undefined {
  return [...AGENT_NAMES, ...DATA_AGENT_NAMES].find((a) => new RegExp(`\\b${a}\\b`).test(suite));
}

function tmuxVersion(): string | undefined {
  try {
    return /\d+\.\d+[a-z]?/.exec(execFileSync('tmux', ['-V'], {encoding: 'utf8'}))?.[0];
  } catch {
    return undefined;
  }
}
