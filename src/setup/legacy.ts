import {join} from 'node:path';
import type {InstallAgent} from './agents.js';
import {type InstallPlace, type Piece, type SelfCommand, selfLine} from './place.js';

/**
 * The broad rules older versions of `nudge install` wrote, each of which let the agent's model
 * run every nudge command (run, schedule, install …) without asking: `nudge doctor` names any
 * still in force, and `nudge install AGENT` run again takes them out (the install record
 * knows them). Kept as pieces so the planner can find them.
 */
export function broadRules(agent: InstallAgent, p: InstallPlace, self: SelfCommand): Piece[] {
  const nudge = selfLine(self);
  switch (agent) {
    case 'gemini': {
      const dir = p.scope === 'project' ? join(p.root, '.gemini') : join(p.home, '.gemini');
      return [
        {
          id: 'allow',
          what: `run_shell_command(${nudge}) (every nudge command)`,
          file: join(dir, 'settings.json'),
          kind: 'item',
          path: ['tools', 'allowed'],
          value: `run_shell_command(${nudge})`,
        },
      ];
    }
    case 'qwen': {
      const dir = p.scope === 'project' ? join(p.root, '.qwen') : join(p.home, '.qwen');
      return [
        {
          id: 'allow',
          what: `Bash(${nudge} *) (every nudge command)`,
          file: join(dir, 'settings.json'),
          kind: 'item',
          path: ['permissions', 'allow'],
          value: `Bash(${nudge} *)`,
        },
      ];
    }
    case 'codex': {
      const home = p.env.CODEX_HOME || join(p.home, '.codex');
      const dir = p.scope === 'project' ? join(p.root, '.codex') : home;
      return [
        {
          id: 'rule',
          what: 'a prefix rule allowing every nudge command outside the sandbox',
          file: join(dir, 'rules', 'nudge.rules'),
          kind: 'file',
          content: `prefix_rule(pattern = ${JSON.stringify([self.node, self.cli])}, decision = "allow")\n`,
        },
      ];
    }
    default:
      return [];
  }
}
