// `nudge run --agent` with the real agent CLIs, offline: each talks to the scripted model
// server on 127.0.0.1, and what the model received is asserted there. The tmux server's
// global environment is the agent's (a throwaway home), so the pane nudge opens starts the
// real CLI as a user's shell would. The caller is a byte recorder.
import {existsSync, readFileSync} from 'node:fs';
import {basename, join} from 'node:path';
import {describe, expect, it} from 'vitest';
import type {RunReport} from '../../src/jobs/run-report.js';
import {runNotice} from '../../src/runs/report.js';
import {commitAll} from '../helpers/git-repo.js';
import {jobEvent, jobEventNames, readJobEvents, waitForJobEnd} from '../helpers/job-files.js';
import {startModelServer} from '../helpers/model-server.js';
import {useNudgeHome} from '../helpers/nudge-home.js';
import {type AgentName, agentAvailable, prepareAgentServer} from '../helpers/real-agents.js';
import {startRecorder} from '../helpers/recorder-pane.js';
import {shown} from '../helpers/run-nudge.js';
import {startTmuxServer} from '../helpers/tmux-server.js';

interface RunState {
  state: string;
  reason?: string;
  notified?: boolean;
  report: RunReport;
}

/** A server set up for `agent`, its work folder a git repository, a recorder as the caller,
 * the model server, and `nudge run` from the caller's pane. */
async function agentWorld(agent: AgentName, approvals: 'default' | 'all') {
  const server = await startTmuxServer();
  const model = await startModelServer();
  const where = await prepareAgentServer(server, agent, {modelUrl: model.url, approvals});
  commitAll(where.workdir);
  const rec = await startRecorder(server);
  const home = useNudgeHome();
  const start = async (args: string[]) => {
    const r = await rec.nudge(
      ['run', '-S', server.socket, '--agent', agent, '--cwd', where.workdir, ...args],
      {NUDGE_HOME: home},
    );
    expect(r.exitCode, shown(r)).toBe(0);
    return r.stdout.trim();
  };
  const ended = async (job: string): Promise<RunState> => {
    await waitForJobEnd(home, job, 180_000);
    return JSON.parse(readFileSync(join(home, 'jobs', job, 'state.json'), 'utf8')) as RunState;
  };
  const told = (count: number) => rec.lines(count);
  return {server, model, where, home, start, ended, told};
}

/** The run ended done, the file its agent was asked to create not there, and its one
 * permission stop recorded with `answer`. */
async function endedWithoutFile(
  w: Awaited<ReturnType<typeof agentWorld>>,
  job: string,
  file: string,
  answer: 'answered' | 'denied',
) {
  const end = await w.ended(job);
  expect(end.state, end.reason).toBe('done');
  expect(existsSync(file)).toBe(false);
  expect(end.report.permissionStops).toEqual([
    expect.objectContaining({question: `Do you want to create ${basename(file)}?`, answer}),
  ]);
  return end;
}

describe.skipIf(!agentAvailable('claude'))('nudge run --agent claude', {timeout: 240_000}, () => {
  it('the prompt reaches the model once, exactly; the file its tool wrote is in the report; the caller is told', async () => {
    const w = await agentWorld('claude', 'all');
    w.model.script({shell: 'printf "hello\\n" > hello.txt'}, {text: 'Wrote hello.txt.'});
    const prompt = `write "hello" into hello.txt — it's for the report's test`;
    const job = await w.start(['--idle-timeout', '2m', '--', prompt]);
    await w.model.waitForPrompt(/hello\.txt/, {timeoutMs: 120_000});
    const end = await w.ended(job);
    expect(end.state, end.reason).toBe('done');
    expect(w.model.prompts().map((p) => p.text)).toEqual([prompt]);
    expect(readFileSync(join(w.where.workdir, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect(end.report).toMatchObject({
      status: 'success',
      agent: 'claude',
      prompt,
      changes: [{file: 'hello.txt', added: 1, deleted: 0}],
      permissionStops: [],
    });
    expect(end.report.outputTail.join('\n')).toContain('Wrote hello.txt.');
    expect(readFileSync(end.report.path, 'utf8')).toContain('- hello.txt (+1, -0)');
    expect(await w.told(1)).toEqual([runNotice(end.report)]);
    const events = await jobEventNames(w.home, job);
    expect(events).toEqual(
      expect.arrayContaining(['provisioned', 'agent-ready', 'started', 'progress', 'done']),
    );
  });

  it('a tool the settings do not allow: the dialog is recorded as permission-prompt, the caller is told the question, the idle timeout waits for the person who answers', async () => {
    const w = await agentWorld('claude', 'default');
    const file = join(w.where.workdir, 'hello.txt');
    w.model.script({tool: 'Write', input: {file_path: file, content: 'hi\n'}}, {text: 'Stopped.'});
    // An idle timeout shorter than the person takes: it must not fire while they decide.
    const job = await w.start(['--idle-timeout', '4s', '--', 'create hello.txt']);
    const [question] = await w.told(1);
    const pane = (await jobEvent(w.home, job, 'provisioned'))?.pane;
    expect(question).toBe(
      `[nudge run ${job}] claude asks: Do you want to create hello.txt? — answer it in pane ${pane}`,
    );
    const prompt = await jobEvent(w.home, job, 'permission-prompt');
    expect(prompt).toMatchObject({
      kind: 'permission',
      question: 'Do you want to create hello.txt?',
    });
    // The person takes longer than the idle timeout, then says no.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await jobEventNames(w.home, job)).not.toContain('timeout');
    await w.server.tmux('send-keys', '-t', String(pane), 'Escape');
    const end = await endedWithoutFile(w, job, file, 'answered');
    expect(readFileSync(end.report.path, 'utf8')).toContain(
      'Do you want to create hello.txt? — answered',
    );
  });

  it('--permissions deny: nudge answers no (never yes), the agent goes on to the end of its turn', async () => {
    const w = await agentWorld('claude', 'default');
    const file = join(w.where.workdir, 'denied.txt');
    w.model.script({tool: 'Write', input: {file_path: file, content: 'no\n'}}, {text: 'Stopped.'});
    const job = await w.start(['--permissions', 'deny', '--', 'create denied.txt']);
    const end = await endedWithoutFile(w, job, file, 'denied');
    const events = await readJobEvents(w.home, job);
    expect(events.find((e) => e.event === 'permission-denied')).toMatchObject({keys: ['Escape']});
    // Only the end was told: no question (nudge answered it).
    expect(await w.told(1)).toEqual([runNotice(end.report)]);
  });
});

describe.skipIf(!agentAvailable('gemini'))('nudge run --agent gemini', {timeout: 240_000}, () => {
  it('the prompt reaches the model; a write it may not make is denied; the report says so', async () => {
    const w = await agentWorld('gemini', 'default');
    const file = join(w.where.workdir, 'g.txt');
    w.model.script({tool: 'write_file', input: {file_path: file, content: 'g\n'}}, {text: 'Ok.'});
    const prompt = 'create g.txt with one line';
    const job = await w.start(['--permissions', 'deny', '--', prompt]);
    await w.model.waitForPrompt(/create g\.txt/, {timeoutMs: 120_000});
    const end = await w.ended(job);
    expect(end.state, end.reason).toBe('done');
    expect(w.model.prompts().map((p) => p.text)).toEqual([prompt]);
    expect(existsSync(file)).toBe(false);
    expect(end.report.permissionStops).toEqual([
      expect.objectContaining({
        question: 'Apply this change?',
        detail: expect.arrayContaining([expect.stringContaining('WriteFile')]),
        answer: 'denied',
      }),
    ]);
  });
});

describe.skipIf(!agentAvailable('codex'))('nudge run --agent codex', {timeout: 240_000}, () => {
  it('the prompt reaches the model once; the file its shell tool wrote is in the report', async () => {
    const w = await agentWorld('codex', 'all');
    w.model.script({shell: 'printf "c\\n" > c.txt'}, {text: 'Wrote c.txt.'});
    const prompt = 'write c into c.txt';
    const job = await w.start(['--', prompt]);
    await w.model.waitForPrompt(/c\.txt/, {timeoutMs: 120_000});
    const end = await w.ended(job);
    expect(end.state, end.reason).toBe('done');
    expect(w.model.prompts().map((p) => p.text)).toEqual([prompt]);
    expect(end.report.changes).toEqual([{file: 'c.txt', added: 1, deleted: 0}]);
    expect(await w.told(1)).toEqual([runNotice(end.report)]);
  });
});
