import type {ControlBlock} from './control-parser.js';
import {errorOf, stdoutOf} from './control-parts.js';
import type {TmuxCommandError} from './runner.js';

/** A call waiting for its reply blocks. */
interface PendingCall {
  /** How many blocks a fully successful reply has (one per command in the line). */
  commands: number;
  blocks: ControlBlock[];
  /** args[0], for messages in the spawn runner's wording. */
  label: string;
  resolve(stdout: string): void;
  reject(error: TmuxCommandError): void;
}

/**
 * The calls a control client has sent and not yet had answered, oldest first: tmux answers
 * the lines it reads in order, one block per command, so each reply block belongs to the
 * oldest call. Part of control-runner.ts, holding only this matching.
 */
export class PendingReplies {
  readonly #calls: PendingCall[] = [];

  get size(): number {
    return this.#calls.length;
  }

  /** A call of `commands` commands: resolves to its output as the spawn runner prints it, or
   * rejects with the failure it would report. */
  add(commands: number, label: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.#calls.push({commands, blocks: [], label, resolve, reject});
    });
  }

  /** A reply block (one the client asked for): it completes the oldest call when it is its
   * last, or fails it when a command failed. */
  take(block: ControlBlock): void {
    const call = this.#calls[0];
    if (!call) return; // not ours to match; toControlLine refuses the commands that do this
    call.blocks.push(block);
    if (!block.ok || call.blocks.length === call.commands) {
      this.#calls.shift();
      if (block.ok) call.resolve(stdoutOf(call.blocks));
      else call.reject(errorOf(call.label, block));
    }
  }

  /** Fail every call left (the client is over). */
  failAll(errorFor: (label: string) => TmuxCommandError): void {
    for (const call of this.#calls.splice(0)) call.reject(errorFor(call.label));
  }
}
