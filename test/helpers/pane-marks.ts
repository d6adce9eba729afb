import type {PaneStateRow} from '../../src/tmux/pane-options.js';

/**
 * The options of a server with one pane (%1, `main:0.0`) as the worker's pane-status code sets
 * and reads them: the pane's `@nudge-*` options in `marks` (option → value), and the server's
 * `@nudge-status` in `server`, for unit tests of who shows what.
 */
export function onePaneMarks(initial: Record<string, string> = {}) {
  const marks = new Map(Object.entries(initial));
  const server = new Map<string, string>();
  const tmux = {
    markPane: async (_pane: string, option: string, value: string | undefined) => {
      if (value === undefined) marks.delete(option);
      else marks.set(option, value);
    },
    paneMark: async (_pane: string, option: string) => marks.get(option),
    markServer: async (option: string, value: string | undefined) => {
      if (value === undefined) server.delete(option);
      else server.set(option, value);
    },
    paneStates: async (): Promise<PaneStateRow[]> => [
      {
        paneId: '%1',
        target: 'main:0.0',
        command: 'bash',
        state: marks.get('@nudge-state') ?? '',
        job: marks.get('@nudge-job') ?? '',
        queue: marks.get('@nudge-queue') ?? '',
        needs: marks.get('@nudge-needs') ?? '',
        panePid: 1,
        sessionId: '$0',
        tty: '',
        title: '',
      },
    ],
  };
  return {marks, server, tmux, status: () => server.get('@nudge-status')};
}
