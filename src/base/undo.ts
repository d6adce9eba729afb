/**
 * Steps that each leave something behind (a worktree, a pane, a job record, a worker), with
 * what takes each back: when a later step fails, the earlier ones are undone in reverse, and
 * the failure is thrown on. Used wherever nudge makes several things for one command
 * (`nudge run`'s provisioning, every worker's launch).
 */
export class Undo {
  readonly #steps: (() => Promise<unknown> | unknown)[] = [];

  /** What takes back the step just done. */
  add(step: () => Promise<unknown> | unknown): void {
    this.#steps.push(step);
  }

  /** Take every step back, the last first; an undo that fails does not stop the others. */
  async run(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // what could not be taken back stays; the first failure is what the caller hears of
      }
    }
  }
}

/** Run `body` with an Undo: if it throws, what it added is undone (in reverse), and the error
 * goes on. */
export async function withUndo<T>(body: (undo: Undo) => Promise<T>): Promise<T> {
  const undo = new Undo();
  try {
    return await body(undo);
  } catch (error) {
    await undo.run();
    throw error;
  }
}
