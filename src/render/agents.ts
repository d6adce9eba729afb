import {EXIT_CODES, type ExitCode} from '../base/errors.js';
import type {AgentFileChecked, AgentList, AgentShown, AgentsTrusted} from '../verbs/agents.js';
import type {ExplainResult} from '../verbs/explain.js';
import type {Output} from './render.js';

/** `nudge agents list`: a table, then the folders read and any refused file. */
export function renderAgentList(r: AgentList, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  const width = Math.max(...r.agents.map((a) => a.name.length));
  for (const a of r.agents) out.stdout(`${a.name.padEnd(width)}  ${a.kind.padEnd(5)}  ${a.source}`);
  out.stdout(`your files: ${r.dirs.join(', ')}`);
  for (const p of r.problems) out.stderr(`refused: ${p}`);
  return EXIT_CODES.ok;
}

/** `nudge agents show NAME`: the profile's fields, one per line (TOML-like). */
export function renderAgentShown(r: AgentShown, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  out.stdout(`# ${r.name} (${r.kind}): ${r.source}`);
  for (const [key, value] of Object.entries(r.fields))
    out.stdout(`${key} = ${JSON.stringify(value)}`);
  for (const p of r.problems) out.stderr(`refused: ${p}`);
  return EXIT_CODES.ok;
}

/** The keys a file would send, on a line of their own ("" when it sends none). */
function keysLine(keys: readonly string[]): string {
  return keys.length === 0 ? '' : `\n  keys it sends: ${keys.join(' ')}`;
}

/** `nudge agents check FILE`: which profile it mends or adds, and the fields it gives. */
export function renderAgentCheck(r: AgentFileChecked, json: boolean, out: Output): ExitCode {
  out.stdout(
    json
      ? JSON.stringify(r)
      : `ok: ${r.file} ${r.action} ${r.name} (${r.fields.join(', ') || 'no field'})${keysLine(r.keys)}`,
  );
  return EXIT_CODES.ok;
}

/** `nudge agents trust`: each file trusted, with what it changes. */
export function renderAgentsTrusted(r: AgentsTrusted, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  for (const t of r.trusted)
    out.stdout(
      `trusted: ${t.file} (${t.name}: ${t.fields.join(', ') || 'no field'}; sha256 ${t.digest.slice(0, 12)}…)${keysLine(t.keys)}`,
    );
  out.stdout(`recorded in ${r.store}; a file changed later is not read until trusted again.`);
  return EXIT_CODES.ok;
}

/** `nudge agents untrust`: the files no longer read. */
export function renderAgentsUntrusted(
  r: {untrusted: string[]; store: string},
  json: boolean,
  out: Output,
): ExitCode {
  if (json) out.stdout(JSON.stringify(r));
  else if (r.untrusted.length === 0) out.stdout(`none of these files was trusted (${r.store}).`);
  else for (const f of r.untrusted) out.stdout(`untrusted: ${f}`);
  return EXIT_CODES.ok;
}

/** `nudge explain`: the pane, the program and why, the rules, the verdict. */
export function renderExplain(r: ExplainResult, json: boolean, out: Output): ExitCode {
  if (json) {
    out.stdout(JSON.stringify(r));
    return EXIT_CODES.ok;
  }
  out.stdout(
    `pane     ${r.pane} (${r.command}${r.commandLine ? `: ${r.commandLine.join(' ')}` : ''})`,
  );
  for (const c of r.conditions) out.stdout(`state    ${c.state}; submit ${c.submit}`);
  out.stdout(`profile  ${r.profile}: ${r.why}`);
  out.stdout(`data     ${r.source}`);
  if (r.version)
    out.stdout(`version  ${r.version.installed} (${r.version.status}: ${r.version.detail})`);
  const width = Math.max(0, ...r.rules.map((x) => x.rule.length));
  r.rules.forEach((x, i) => {
    const head = i === 0 ? 'rules   ' : '        ';
    const seen = x.matched ? `yes  ${JSON.stringify(x.text)}` : 'no';
    out.stdout(`${head} ${x.rule.padEnd(width)}  ${seen}  (${x.field})`);
  });
  out.stdout(`verdict  ${r.verdict.why}`);
  if (r.background) out.stdout(`work     ${r.background}`);
  if (r.session)
    out.stdout(
      `session  Claude Code pid ${r.session.pid}: ${r.session.status}${r.session.waitingFor ? ` (${r.session.waitingFor})` : ''}`,
    );
  r.doors.forEach((d, i) => {
    out.stdout(
      `${i === 0 ? 'notice  ' : '        '} ${d.door}  ${d.use ? 'yes' : 'no '}  ${d.why}`,
    );
  });
  for (const p of r.problems) out.stderr(`refused: ${p}`);
  return EXIT_CODES.ok;
}
