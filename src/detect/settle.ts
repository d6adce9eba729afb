import type {HookMark} from '../agents/hook-marks.js';
import {turnIdle, workingOnScreen} from '../agents/idle-screen.js';
import type {Profile} from '../agents/profile.js';
import {runsProgram} from '../agents/programs.js';
import {
  describeServices,
  describeWork,
  heldBy,
  listeningOn,
  servicesByPattern,
  type WorkItem,
} from '../agents/work.js';
import type {Link, Served, ServedInPane} from '../process/served.js';
import type {PaneView} from '../tmux/view.js';

/** Which source said the agent's turn ended with nothing it started still running. */
export type SettledBy = 'hook' | 'door' | 'screen';

/** Whether an agent whose composer is idle has settled: its turn ended and nothing it started
 * still runs, or only services do. */
export type Settlement =
  | {settled: true; by: SettledBy; services: WorkItem[]}
  | {settled: false; why: string};

/** After the footer stopped showing background work, how long the agent is given to start the
 * turn it takes on its own when that work ends (Claude Code's task notification, measured
 * well under a second after the footer clears): an idle composer before then is not done. */
export const AFTER_WORK_MS = 2_500;

/** What a Settling reads besides the screen. */
export interface SettleDeps {
  profile: Profile;
  /** The newest turn-end hook mark since the wait began (undefined: none came, or no hook). */
  latestMark: () => HookMark | undefined;
  /** The pane's processes that listen on a port (read only while background work shows). */
  served: () => Promise<ServedInPane>;
  now: () => number;
  /** The wall clock, which hook marks are written on (`atMs`). */
  wall: () => number;
  /** Told each time what keeps the agent from being settled changes (undefined: settled). */
  onWorking: (what: string | undefined) => void;
  /** `--until turn`: the turn's end is enough, whatever the agent left running. */
  turnOnly: boolean;
}

/** A background command's root: the process just below the agent's own in its ancestry (a
 * shell Claude Code ran it in; the command itself, which Copilot CLI runs in a terminal of
 * its own). The agent's deepest process: Qwen Code and Gemini CLI start themselves again
 * (`node …/bin/qwen` above `node --expose-gc …/cli.js`), and the work hangs below the last. */
function rootBelowAgent(profile: Profile, s: Served): Link {
  const chain: Link[] = [...s.ancestors, s];
  const agentAt = chain.findLastIndex((p) => runsProgram(profile.programs, p.command));
  // The agent not found in it: its first process, and only a shell there counts.
  if (agentAt < 0) return {...(chain[0] ?? s), leader: false};
  return chain[agentAt + 1] ?? s;
}

const SHELL_ROOT = /^(?:\S*\/)?(?:ba|z|da|k|fi)?sh$/;

/** The number a footer's words count (`2 shells · 1 agent` → 3), at least 1. */
function countOf(footer: string): number {
  const n = [...footer.matchAll(/(\d+)\s+\S/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return Math.max(1, n);
}

/**
 * "Done" means settled, read from the best source the agent has: its turn-end hook's own list
 * of what still runs (Claude Code's Stop `background_tasks` and `session_crons`), and its
 * screen (the profile's `working` footer rows), which must agree where the hook's list is
 * silent. A service (a profile's `services` command, or a process listening on a port) never
 * holds it, and is named. Fed every look of a wait
 * (`prepare`); judged only when the composer is idle (`judge`).
 */
export class Settling {
  #served: Served[] = [];
  /** When the footer last showed work (the screen's path), on the wait's clock. */
  #workSeenAt: number | undefined;
  /** When a look first found the footer cleared after work, on the wall clock (hook marks'). */
  #clearedWall: number | undefined;
  #told: string | undefined;
  #last: Settlement | undefined;
  constructor(private readonly deps: SettleDeps) {}

  /** The verdict of the last look judged, if any. */
  get last(): Settlement | undefined {
    return this.#last;
  }

  /** Whether the agent's turn-end hook reported since the wait began. */
  hookEnded(): boolean {
    return this.deps.latestMark() !== undefined;
  }

  /** The turn-end hook reported since the wait began, the composer is idle and nothing still
   * runs: evidence enough alone, before a still screen's window ends. */
  settledByHook(view: PaneView): boolean {
    return this.hookEnded() && turnIdle(this.deps.profile, view) && this.judge(view).settled;
  }

  /** The newest mark's work, services marked, when its payload said. */
  #hookWork(): WorkItem[] | undefined {
    const work = this.deps.latestMark()?.work;
    if (!work) return undefined;
    const patterns = this.deps.profile.services ?? [];
    return servicesByListening(servicesByPattern(patterns, work), this.#served);
  }

  /** Note when the footer shows work and when it first cleared, on every look (the turn the
   * agent goes on with may hide its composer's idleness meanwhile); read the pane's listeners
   * when a look shows background work that may be a service. */
  async prepare(view: PaneView): Promise<void> {
    this.#last = undefined;
    if (this.deps.turnOnly) return;
    const footer = workingOnScreen(this.deps.profile, view) !== undefined;
    if (footer) {
      this.#workSeenAt = this.deps.now();
      this.#clearedWall = undefined;
    } else if (this.#workSeenAt !== undefined) this.#clearedWall ??= this.deps.wall();
    const work = this.#hookWork();
    const shells = work?.some((i) => i.service === undefined && i.kind === 'shell') || footer;
    if (!shells) return;
    const r = await this.deps.served().catch(() => ({why: 'unreadable'}));
    this.#served = 'served' in r ? r.served : [];
  }

  /** The verdict for a view whose composer is idle. */
  judge(view: PaneView): Settlement {
    const verdict = this.#judge(view);
    this.#last = verdict;
    const what = verdict.settled ? undefined : verdict.why;
    if (what !== this.#told) {
      this.#told = what;
      this.deps.onWorking(what);
    }
    return verdict;
  }

  #judge(view: PaneView): Settlement {
    if (this.deps.turnOnly)
      return {settled: true, by: this.hookEnded() ? 'hook' : 'screen', services: []};
    const work = this.#hookWork();
    if (work) {
      const held = heldBy(work);
      if (held.length > 0) return {settled: false, why: `working: ${describeWork(held)}`};
    }
    // The hook's list may leave work out (Qwen Code's lists its agent tasks, not its background
    // shells): the footer must agree, unless the services the hook names account for it.
    const by: SettledBy = work ? 'hook' : 'screen';
    const said = (work ?? []).filter((i) => i.service !== undefined);
    const now = this.deps.now();
    const footer = workingOnScreen(this.deps.profile, view);
    if (footer !== undefined) {
      const count = countOf(footer);
      if (said.length >= count) return {settled: true, by, services: said};
      const services = this.#screenServices();
      if (services.length >= count) return {settled: true, by: 'screen', services};
      return {settled: false, why: `working: ${footer} (the agent's footer)`};
    }
    if (this.#clearedWall !== undefined) {
      // The hook reported a turn's end after the work ended: the turn the agent went on with
      // (Copilot CLI's, whose agentStop lists nothing) has ended — no need to wait out the rest.
      const mark = this.deps.latestMark();
      if (mark !== undefined && mark.atMs > this.#clearedWall)
        return {settled: true, by: 'hook', services: said};
    }
    if (this.#workSeenAt !== undefined && now - this.#workSeenAt < AFTER_WORK_MS) {
      return {
        settled: false,
        why: 'working: its background work just ended; waiting for the turn the agent starts',
      };
    }
    return {settled: true, by, services: said};
  }

  /** The background shells of the pane that listen on a port, as services. */
  #screenServices(): WorkItem[] {
    const byRoot = new Map<number, {command: string; ports: number[]}>();
    for (const s of this.#served) {
      const root = rootBelowAgent(this.deps.profile, s);
      // A shell, or a command the agent ran in a terminal of its own (it leads its process
      // group): not one of the agent's own helpers (an MCP or language server), which share
      // the agent's group.
      if (!SHELL_ROOT.test(root.command.split(' ')[0] ?? '') && !root.leader) continue;
      const seen = byRoot.get(root.pid);
      byRoot.set(root.pid, {command: s.command, ports: [...(seen?.ports ?? []), ...s.ports]});
    }
    return [...byRoot.values()].map((r) => ({
      kind: 'shell',
      what: r.command,
      service: listeningOn(r.ports),
    }));
  }
}

/** Mark the shells whose process listens on a port (found among the pane's listeners by its
 * command) as services, naming the ports. */
export function servicesByListening(items: WorkItem[], served: readonly Served[]): WorkItem[] {
  return items.map((item) => {
    if (item.service !== undefined || item.kind !== 'shell') return item;
    const ports = served
      .filter((s) => [s, ...s.ancestors].some((p) => p.command.includes(item.what)))
      .flatMap((s) => s.ports);
    return ports.length > 0 ? {...item, service: listeningOn(ports)} : item;
  });
}

/** A settled verdict in words, for the job's record: `; 1 background service left running:
 * npm run dev, listening on :5173` (empty when nothing was left). */
export function servicesLeft(s: {services: readonly WorkItem[]} | undefined): string {
  if (!s) return '';
  const words = describeServices(s.services);
  return words ? `; ${words}` : '';
}
