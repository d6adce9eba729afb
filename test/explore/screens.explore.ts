/**
 * Record what each real agent CLI shows in each state that matters to nudge, and the facts
 * behind docs/agent-screens.md: composer look, draft vs empty, clearing keys, pickers, paste,
 * shell mode, busy markers, typing while busy. See vitest.config.ts here for how to run.
 */
import {setTimeout as sleep} from 'node:timers/promises';
import {describe, it} from 'vitest';
import {agentAvailable, type RealAgent, startAgent} from '../helpers/real-agents.js';
import {startTmuxServer} from '../helpers/tmux-server.js';
import {
  agentsToExplore,
  composerText,
  freshAgent,
  inTranscript,
  isBusy,
  judge,
  keys,
  paste,
  record,
  reset,
  snap,
  statusLines,
  typeSlowly,
  waitForScreen,
} from './lib.js';

const gap10 = () => 10;

/** Enter on an open picker, `settleMs` later a snapshot `slug`: what the composer holds then,
 * and whether the agent went busy. */
async function enterOnPicker(agent: RealAgent, slug: string, what: string, settleMs: number) {
  await keys(agent, 'Enter');
  await sleep(settleMs);
  const screen = await snap(agent, slug, what);
  return {composer: composerText(agent.name, screen), busy: isBusy(agent.name, screen)};
}

/** `text` typed key by key, a snapshot `slug` `settleMs` later, then Enter: the composer's text
 * before Enter, and how the Enter was judged. */
async function typeAndJudge(agent: RealAgent, text: string, slug: string, settleMs: number) {
  await typeSlowly(agent, text, gap10);
  await sleep(settleMs);
  const typed = composerText(agent.name, await snap(agent, slug, `typed "${text}"`));
  await keys(agent, 'Enter');
  return {typed, ...(await judge(agent, text, 4000))};
}

describe.each(agentsToExplore())('%s', (name) => {
  it.skipIf(!agentAvailable(name))('composer: empty, draft, clearing keys', async () => {
    const agent = await freshAgent(name);
    await snap(agent, 'idle-empty', 'just started, composer empty');
    const draft = 'refactor the parser please';
    await typeSlowly(agent, draft, gap10);
    await sleep(800);
    const withDraft = await snap(agent, 'draft', `typed "${draft}" one key at a time`);
    const facts: Record<string, unknown> = {draftRead: composerText(name, withDraft)};

    // C-u
    await keys(agent, 'C-u');
    await sleep(800);
    let screen = await agent.capture();
    facts.ctrlU = composerText(name, screen);
    if (facts.ctrlU !== '') await snap(agent, 'after-ctrl-u');
    await reset(agent);

    // Escape once, then again after various gaps
    const escapes: Record<string, unknown> = {};
    for (const gapMs of [100, 300, 600, 1000]) {
      await typeSlowly(agent, draft, gap10);
      await sleep(500);
      await keys(agent, 'Escape');
      await sleep(gapMs);
      const afterOne = await agent.capture();
      if (gapMs === 300) await snap(agent, 'draft-after-escape', 'draft, then one Escape');
      await keys(agent, 'Escape');
      await sleep(800);
      screen = await agent.capture();
      escapes[`gap${gapMs}ms`] = {
        afterOne: composerText(name, afterOne),
        afterTwo: composerText(name, screen),
        hint: afterOne.match(/.*(Esc|esc).*/)?.[0]?.trim(),
      };
      await reset(agent);
    }
    facts.escapeTwice = escapes;

    // Escape twice on an empty composer (Claude: after a prompt, opens "rewind")
    await keys(agent, 'Escape');
    await sleep(150);
    await keys(agent, 'Escape');
    await sleep(1000);
    screen = await agent.capture();
    facts.escapeTwiceEmpty = composerText(name, screen) === '' ? 'nothing' : 'changed';
    if (facts.escapeTwiceEmpty !== 'nothing') await snap(agent, 'empty-escape-twice');
    record(agent, 'composer', facts);
  });

  it.skipIf(!agentAvailable(name))('pickers: / and @ typed one key at a time', async () => {
    const agent = await freshAgent(name);
    const facts: Record<string, unknown> = {};
    await typeSlowly(agent, '/', gap10);
    await sleep(800);
    await snap(agent, 'slash-picker', 'typed "/"');
    await typeSlowly(agent, 'he', gap10);
    await sleep(800);
    await snap(agent, 'slash-picker-filtered', 'typed "/he"');
    facts.slashHeEnter = await enterOnPicker(agent, 'slash-picker-enter', '"/he" then Enter', 1500);
    await reset(agent);

    // a path at the start of the text, typed key by key
    const path = '/tmp/build.log has the errors';
    const slashPath = await typeAndJudge(agent, path, 'slash-path-typed', 800);
    facts.slashPathTyped = slashPath.typed;
    facts.slashPathEnter = slashPath.outcome;
    if (slashPath.outcome !== 'submitted') await snap(agent, 'slash-path-enter');
    await reset(agent);

    // @ picker
    await typeSlowly(agent, 'read @no', gap10);
    await sleep(1000);
    await snap(agent, 'at-picker', 'typed "read @no"');
    facts.atNoEnter = await enterOnPicker(agent, 'at-picker-enter', '"read @no" then Enter', 1000);
    await reset(agent);

    const at = 'look at @notes.txt and main.ts now';
    const atResult = await typeAndJudge(agent, at, 'at-typed', 1000);
    facts.atTyped = atResult.typed;
    facts.atEnter = atResult.outcome;
    facts.atEnterBusyAtOnce = isBusy(name, atResult.screen);
    await snap(agent, 'at-enter', `"${at}" + Enter, as soon as it was judged`);
    await reset(agent);

    // the same texts as one bracketed paste
    const pasted: Record<string, unknown> = {};
    for (const text of [
      '/tmp/build.log has the errors',
      'look at @notes.txt and main.ts now',
      `quotes ' " $HOME ; back\\slash \`tick\` café 日本 ✓`,
    ]) {
      await paste(agent, text);
      await sleep(1000);
      const screen = await agent.capture();
      if (text.startsWith('look')) await snap(agent, 'pasted', `bracketed paste of "${text}"`);
      const shown = composerText(name, screen);
      await sleep(300);
      await keys(agent, 'Enter');
      const r = await judge(agent, text, 4000);
      pasted[text] = {
        shownExactly: shown === text,
        shown,
        enterAfter300ms: r.outcome,
        transcriptExact: r.outcome === 'submitted' && r.screen.includes(text),
      };
      await reset(agent);
    }
    facts.paste = pasted;
    record(agent, 'pickers', facts);
  });

  it.skipIf(!agentAvailable(name))('shell mode: ! command', async () => {
    const agent = await freshAgent(name);
    const facts: Record<string, unknown> = {};
    await typeSlowly(agent, '!', gap10);
    await sleep(800);
    await snap(agent, 'shell-mode', 'typed "!"');
    const cmd = 'echo nudge-$((6*7))';
    await typeSlowly(agent, cmd, gap10);
    await sleep(800);
    let screen = await snap(agent, 'shell-typed', `typed "!${cmd}"`);
    facts.typed = composerText(name, screen);
    await keys(agent, 'Enter');
    const started = Date.now();
    screen = await waitForScreen(agent, 'shell output', (s) => s.includes('nudge-42'), 20_000);
    facts.outputAfterMs = Date.now() - started;
    await sleep(1500);
    screen = await snap(agent, 'shell-ran', `"!${cmd}" + Enter, 1.5 s after the output appeared`);
    facts.busyAfterRun = isBusy(name, screen);
    facts.statusAfterRun = statusLines(name, screen);
    // how long until idle again
    const t0 = Date.now();
    const busySeen = new Set<string>();
    for (;;) {
      screen = await agent.capture();
      for (const l of statusLines(name, screen)) busySeen.add(l.replace(/\d+/g, 'N'));
      if (!isBusy(name, screen) || Date.now() - t0 > 300_000) break;
      await sleep(1000);
    }
    facts.idleAgainAfterMs = Date.now() - t0;
    facts.statusSeen = [...busySeen];
    await snap(agent, 'shell-done', 'after the ! command, once no busy marker shows');
    facts.composerAfter = composerText(name, screen);
    record(agent, 'shell', facts);
  });

  it.skipIf(!agentAvailable(name))('busy: markers, typing while busy, cancel', async () => {
    const agent = await freshAgent(name);
    const facts: Record<string, unknown> = {};
    const prompt = 'say hello in five words';
    await typeSlowly(agent, prompt, gap10);
    await sleep(600);
    await keys(agent, 'Enter');
    const r = await judge(agent, prompt, 5000);
    facts.submitted = r.outcome;
    await sleep(2000);
    let screen = await snap(agent, 'busy', `"${prompt}" submitted 2 s ago; the API is unreachable`);
    facts.busyStatus = statusLines(name, screen);
    facts.composerWhileBusy = composerText(name, screen);

    // type while busy
    const extra = 'and also this follow up';
    await typeSlowly(agent, extra, gap10);
    await sleep(800);
    screen = await snap(agent, 'busy-draft', `typed "${extra}" while busy`);
    facts.typedWhileBusy = composerText(name, screen);
    await keys(agent, 'Enter');
    await sleep(1500);
    screen = await snap(agent, 'busy-enter', `"${extra}" + Enter while busy`);
    facts.enterWhileBusy = {
      composer: composerText(name, screen),
      busy: isBusy(name, screen),
      inTranscript: inTranscript(name, screen, extra),
      queuedMarker: screen.match(/.*[Qq]ueued.*/)?.[0]?.trim(),
    };
    if (name === 'codex') {
      const tabbed = 'a third message via tab';
      await typeSlowly(agent, tabbed, gap10);
      await sleep(600);
      await keys(agent, 'Tab');
      await sleep(1500);
      screen = await snap(agent, 'busy-tab', `"${tabbed}" + Tab while busy`);
      facts.tabWhileBusy = {
        composer: composerText(name, screen),
        queuedMarker: screen.match(/.*[Qq]ueued.*/)?.[0]?.trim(),
      };
    }
    // cancel
    await keys(agent, 'Escape');
    await sleep(2500);
    screen = await snap(agent, 'cancelled', 'Escape while busy');
    facts.afterEscape = {
      busy: isBusy(name, screen),
      composer: composerText(name, screen),
      lines: statusLines(name, screen),
    };
    // whatever was queued may now run; watch for 20 s
    const seen = new Set<string>();
    const t0 = Date.now();
    while (Date.now() - t0 < 20_000) {
      screen = await agent.capture();
      for (const l of statusLines(name, screen)) seen.add(l.replace(/\d+/g, 'N'));
      await sleep(1000);
    }
    facts.after20s = {busy: isBusy(name, screen), composer: composerText(name, screen)};
    facts.statusSeenAfterEscape = [...seen];
    await snap(agent, 'after-cancel-20s', 'Escape while busy, 20 s later');
    // Claude: Escape twice on an empty composer once there is history
    if (isBusy(name, screen)) {
      await keys(agent, 'Escape');
      await sleep(2000);
    }
    await reset(agent);
    await keys(agent, 'Escape');
    await sleep(150);
    await keys(agent, 'Escape');
    await sleep(1200);
    screen = await agent.capture();
    facts.escapeTwiceWithHistory = composerText(name, screen) === '' ? 'nothing' : 'changed';
    if (facts.escapeTwiceWithHistory !== 'nothing') {
      await snap(agent, 'escape-twice-history', 'Escape Escape on an empty composer after a turn');
    }
    record(agent, 'busy', facts);
  });
});

describe.each(agentsToExplore())('%s, Escape', (name) => {
  it.skipIf(!agentAvailable(name))('Escape while busy, nothing queued', async () => {
    const facts: Record<string, unknown> = {};
    let agent: RealAgent | undefined;
    for (const waitMs of [300, 2000, 6000]) {
      agent = await freshAgent(name);
      const prompt = `summarise the notes file ${waitMs}`;
      await typeSlowly(agent, prompt, gap10);
      await sleep(400);
      await keys(agent, 'Enter');
      await judge(agent, prompt, 4000);
      await sleep(waitMs);
      await keys(agent, 'Escape');
      await sleep(1500);
      const screen = await agent.capture();
      if (waitMs === 2000) await snap(agent, 'escape-while-busy', 'Escape 2 s into a turn');
      facts[`escape ${waitMs} ms after Enter`] = {
        busy: isBusy(name, screen),
        composer: composerText(name, screen),
      };
    }
    if (agent) record(agent, 'escapeWhileBusy', facts);
  });
});

describe.each(agentsToExplore())('%s, untrusted folder', (name) => {
  it.skipIf(!agentAvailable(name))('trust dialog, and text typed into it', async () => {
    const server = await startTmuxServer();
    const agent = await startAgent(server, name, {trusted: false, wait: false});
    // wait until the screen stops changing for 2 s
    let previous = '';
    let screen = '';
    for (let stable = 0, t0 = Date.now(); stable < 3 && Date.now() - t0 < 40_000; ) {
      await sleep(700);
      screen = await agent.capture();
      stable = screen === previous && screen.trim() !== '' ? stable + 1 : 0;
      previous = screen;
    }
    screen = await snap(agent, 'trust-dialog', 'started in a folder it was not told to trust');
    const facts: Record<string, unknown> = {
      composerVisible: composerText(name, screen) !== undefined,
      dialogLines: screen
        .split('\n')
        .filter((l) => /trust|Trust|folder|Yes|No|proceed|Do you/.test(l))
        .map((l) => l.trim()),
    };
    await typeSlowly(agent, 'hello there', gap10);
    await sleep(1000);
    screen = await snap(agent, 'trust-dialog-typed', 'typed "hello there" into the trust dialog');
    await keys(agent, 'Enter');
    await sleep(3000);
    screen = await snap(agent, 'trust-dialog-enter', '"hello there" + Enter into the trust dialog');
    facts.afterEnter = {
      composer: composerText(name, screen),
      busy: isBusy(name, screen),
      textInTranscript: inTranscript(name, screen, 'hello there'),
    };
    record(agent, 'trustDialog', facts);
  });
});
