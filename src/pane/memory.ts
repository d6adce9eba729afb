import {mkdir, readFile} from 'node:fs/promises';
import {join} from 'node:path';
import type {ProfileName} from '../agents/profile.js';
import {writeFileAtomic} from '../base/fs.js';
import {DIR_MODE} from '../base/paths.js';
import {paneKey} from '../locks/key.js';
import type {ServerRef} from '../tmux/server.js';

/**
 * Which agent a pane was last recognised as, so that a screen that momentarily shows none of
 * the agent's markers (a Codex composer holding a draft, once its banner scrolled away) keeps
 * the profile where the system cannot name the program (no /proc: macOS). Kept per pane under
 * the state dir, tied to the pane's process: a new program in the pane forgets it.
 */
export interface PaneMemory {
  /** The agent `pane` was recognised as while `panePid` ran in it, if any. */
  recall(pane: string, panePid: number): Promise<ProfileName | undefined>;
  /** Note that `pane`, running `panePid`, is `profile`. */
  remember(pane: string, panePid: number, profile: ProfileName): Promise<void>;
}

interface Remembered {
  profile: ProfileName;
  panePid: number;
}

/** The memory of the panes of one tmux server, under `stateDir`. */
export function paneMemory(stateDir: string, server: ServerRef): PaneMemory {
  const dir = join(stateDir, 'panes');
  const file = (pane: string) => join(dir, `${paneKey({...server, pane})}.json`);
  return {
    async recall(pane, panePid) {
      try {
        const r = JSON.parse(await readFile(file(pane), 'utf8')) as Remembered;
        return r.panePid === panePid ? r.profile : undefined;
      } catch {
        return undefined;
      }
    },
    async remember(pane, panePid, profile) {
      try {
        await mkdir(dir, {recursive: true, mode: DIR_MODE});
        await writeFileAtomic(file(pane), JSON.stringify({profile, panePid} satisfies Remembered));
      } catch {
        // a hint only: a job never fails for it
      }
    },
  };
}
