import {findOnPath} from '../base/paths.js';
import {thisProcess} from '../base/this-process.js';
import {psShowsWaitChannels} from '../process/ps.js';
import {badProcessView, processView} from '../process/view.js';
import {type Check, ok, warn} from './check.js';

const NAMES: Record<string, string> = {linux: 'Linux', darwin: 'macOS', freebsd: 'FreeBSD'};

/**
 * `doctor`'s platform line: the system, the process view nudge reads there (/proc, or ps with
 * lsof), and each detection that is weaker with it — a warning where one cannot work at all
 * (no lsof for the ps reader), or NUDGE_PROCESS_VIEW names no reader.
 */
export async function checkPlatform(env: Record<string, string | undefined>): Promise<Check[]> {
  const platform = thisProcess.platform;
  const name = `${NAMES[platform] ?? platform} (${platform} ${thisProcess.arch})`;
  const view = processView(env);
  const checks: Check[] = [];
  if (view === 'proc') {
    checks.push(
      ok(
        'platform',
        `${name}; processes are read from /proc: whether a pane's program waits for input, which agent runs as node, and each worker's start time are all known.`,
      ),
    );
  } else {
    const lsof = await findOnPath('lsof', env);
    checks.push(
      ok(
        'platform',
        `${name}; processes are read with ps${lsof ? ' and lsof' : ''}${env.NUDGE_PROCESS_VIEW === 'ps' ? ' (NUDGE_PROCESS_VIEW=ps)' : ' (no /proc)'}. Weaker here: a program waiting in an event loop (a Node REPL) counts as waiting for input when it has the terminal open and no socket (ps cannot see the loop's set); an agent's command line reads with its arguments split at spaces; a worker's start time is known to the second.`,
      ),
    );
    if ((await psShowsWaitChannels()) === false)
      checks.push(
        warn(
          'wait channels',
          "ps shows no wait channel for any process here (macOS's kernel gives none): whether a quiet program in a shell's pane waits for input is told by its screen alone — a REPL's prompt, a pager, an editor, a [y/N] or password question (the shell profile's waits). Any other quiet program is unknown: nudge wait exits 1 saying so, and a job waits on until the shell's prompt is back.",
          'Nothing to install. For a program nudge does not know, add a [[waits]] entry for it to a shell profile file (docs/agents.md).',
        ),
      );
    if (!lsof)
      checks.push(
        warn(
          'lsof',
          'lsof is not on the PATH: whether a program in poll, select or an event loop waits for input cannot be told, so a shell pane running one counts as busy.',
          'Install lsof (macOS has it in /usr/sbin; apt-get install lsof).',
        ),
      );
  }
  const bad = badProcessView(env);
  if (bad !== undefined)
    checks.push(
      warn(
        'NUDGE_PROCESS_VIEW',
        `NUDGE_PROCESS_VIEW=${bad} names no process view; nudge uses ${view}.`,
        'Set it to ps or proc, or unset it.',
      ),
    );
  return checks;
}
