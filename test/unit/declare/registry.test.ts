// Each command declared once: the CLI and the MCP server are loops over these declarations, so
// what holds of the list holds of both front ends.
import {describe, expect, test} from 'vitest';
import {camelOf, toolArgumentOf} from '../../../src/base/option-table.js';
import {ALL_DECLARED} from '../../../src/cli/declared.js';
import {LOCAL_GROUPS} from '../../../src/cli/local-groups.js';
import {usageOf} from '../../../src/declare/define.js';
import {submitOptionsOf} from '../../../src/declare/panes.js';
import {DECLARED, GROUPS} from '../../../src/declare/registry.js';
import {shapeOf} from '../../../src/mcp/schema.js';

describe('the declared commands', () => {
  test('every option of a command with a tool is an argument of it, or says why not', () => {
    const missing: string[] = [];
    for (const d of DECLARED) {
      if ('none' in d.mcp) continue;
      const own = new Set((d.mcp.arguments ?? []).map((a) => a.key));
      const shape = shapeOf(d.options, own);
      for (const [name, spec] of Object.entries(d.options)) {
        const arg = toolArgumentOf(name, spec);
        const taken = own.has(camelOf(name)) || (arg !== undefined && arg in shape);
        if (!taken && spec.cliOnly === undefined) missing.push(`${d.mcp.name}: --${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Every option of a command is an argument of its tool unless its row says why not (cliOnly),
  // so a new option lets a model set it. This list is where that is decided: a change to it
  // is a change to what an agent may do (and a line of docs/mcp.md).
  test("each tool's arguments, as its command's declaration gives them", () => {
    const taken: Record<string, string> = {};
    for (const d of DECLARED) {
      if ('none' in d.mcp) continue;
      const own = d.mcp.arguments ?? [];
      const names = [
        ...(d.positionals ?? []).map((p) => p.mcp?.name ?? p.name),
        ...Object.keys(shapeOf(d.options, new Set(own.map((a) => a.key)))),
        ...own.map((a) => a.name),
      ];
      taken[d.mcp.name] = names.sort().join(' ');
    }
    expect(taken).toEqual({
      submit:
        'clear clear_draft continue_text delay draft_wait enter enter_delay host id idle_timeout if_busy ignore interval limit_margin lines lock_timeout no_notice notice notify notify_pane on_limit on_stall pane profile resume_text stable_checks stall text timeout type_delay until via wait when_idle',
      wait: 'all any count host ignore interval job lines pane stable_checks timeout until',
      expect:
        'action fail_pattern host include_existing lines pane_id pattern poll_interval_ms timeout_ms',
      jobs: 'host pane since state undelivered',
      status: 'host job',
      ask: 'id pane text timeout',
      cancel: 'host job keep_running',
      queue: 'host pane',
      queue_move: 'after before first host job',
      queue_drop: 'host job',
      queue_edit: 'host job text',
      run: 'agent close command continue_text cwd host idle_timeout no_notice notify notify_pane on_stall permissions pr session split stall timeout wait window worktree',
      recover: 'dry_run',
      resend: 'host job pane',
      doctor: 'host',
      watch_me:
        'assess_timeout continue_text default_wait enter host idle_threshold idle_timeout limit_margin max_injections name notify on_limit on_stall pane plan resume_text stall transcript_cap wait_timeout',
      look_ma: 'bash_wait host name status_report',
      pause: 'host name',
      clear: 'host name',
    });
  });

  test('a command without a tool says why', () => {
    for (const d of DECLARED) if ('none' in d.mcp) expect(d.mcp.none.length).toBeGreaterThan(10);
  });

  test('names are unique: commands within their group, tools and their arguments', () => {
    const commands = ALL_DECLARED.map((d) => `${d.group ?? ''} ${d.name}`);
    expect(new Set(commands).size).toBe(commands.length);
    const tools = DECLARED.flatMap((d) => ('none' in d.mcp ? [] : [d.mcp.name]));
    expect(new Set(tools).size).toBe(tools.length);
    for (const d of DECLARED) {
      if ('none' in d.mcp) continue;
      const args = [
        ...(d.positionals ?? []).map((p) => p.mcp?.name ?? p.name),
        ...Object.keys(shapeOf(d.options, new Set((d.mcp.arguments ?? []).map((a) => a.key)))),
        ...(d.mcp.arguments ?? []).map((a) => a.name),
      ];
      expect(new Set(args).size, d.mcp.name).toBe(args.length);
    }
  });

  test('every group is declared, with at most one default command', () => {
    const groups = {...GROUPS, ...LOCAL_GROUPS};
    for (const group of Object.keys(groups)) {
      const members = ALL_DECLARED.filter((d) => d.group === group);
      expect(members.length, group).toBeGreaterThan(0);
      expect(members.filter((d) => d.groupDefault).length).toBeLessThanOrEqual(1);
    }
    for (const d of ALL_DECLARED) if (d.group) expect(groups[d.group], d.name).toBeDefined();
  });

  test("the command line's own commands: each runs a step of its own, and none is a tool", () => {
    const local = ALL_DECLARED.filter((d) => !DECLARED.includes(d));
    expect(local.map((d) => `${d.group ?? ''} ${d.name}`.trim()).sort()).toEqual([
      'agents check',
      'agents list',
      'agents show',
      'agents trust',
      'agents untrust',
      'explain',
      'hook',
      'host install',
      'install',
      'mcp',
      'remote',
      'schedule',
      'top',
    ]);
    for (const d of local) {
      expect(d.verb, d.name).toBeUndefined();
      expect(typeof d.cli, d.name).toBe('function');
      expect('none' in d.mcp, d.name).toBe(true);
    }
    // A command and a group never share a name.
    const names = ALL_DECLARED.filter((d) => !d.group).map((d) => d.name);
    for (const group of Object.keys({...GROUPS, ...LOCAL_GROUPS}))
      expect(names, group).not.toContain(group);
  });

  test('the words of a command: required <x>, optional [x], the rest [x..]', () => {
    const usage = Object.fromEntries(DECLARED.map((d) => [d.mcp && d.verb, usageOf(d)]));
    expect(usage.submit).toBe('submit [text..]');
    expect(usage.expect).toBe('expect <pane> <regex>');
    expect(usage.wait).toBe('wait [pane..]');
    expect(usage['watch-report']).toBe('report <name> <status>');
  });
});

describe('submitOptionsOf', () => {
  test('the words are the text; --no-notice and no_notice are no notice', () => {
    expect(submitOptionsOf({text: ['npm', 'test'], pane: '%1'})).toEqual({
      pane: '%1',
      notice: undefined,
      text: 'npm test',
    });
    expect(submitOptionsOf({text: ['x'], noNotice: true}).notice).toBe(false);
    // yargs reads --no-notice as notice false.
    expect(submitOptionsOf({text: ['x'], notice: false as never}).notice).toBe(false);
    expect(submitOptionsOf({text: ['x'], notice: 'done {status}', json: true})).toEqual({
      notice: 'done {status}',
      text: 'x',
    });
  });
});
