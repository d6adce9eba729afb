/**
 * Reading what a tmux control-mode client prints (tmux(1), CONTROL MODE): reply blocks
 * (`%begin <time> <number> <flags>` ... `%end|%error <same three>`) and notifications
 * (`%output`, `%exit`, `%session-changed`, ...). Pure: lines in, calls on a handler out.
 */

/** One command's reply. */
export interface ControlBlock {
  /** The command number tmux gave it (global to the server, so not predictable). */
  number: string;
  /** True for commands this client sent (flags 1); false for the implicit attach and for
   * commands tmux ran on the client's behalf (flags 0). */
  fromClient: boolean;
  /** `%end` (true) or `%error` (false). */
  ok: boolean;
  /** The lines between %begin and %end, verbatim: command output is not escaped. */
  lines: string[];
}

/** Receives what the parser recognises. Called synchronously from push(). */
export interface ControlHandler {
  /** A complete reply block. */
  block(block: ControlBlock): void;
  /** `%output %N ...` or `%extended-output %N ...`: pane `%N` printed something. */
  output(paneId: string): void;
  /** `%pause %N`: tmux stopped sending pane `%N`'s output (pause-after) and drops it. */
  pause(paneId: string): void;
  /** `%exit [reason]`: the client is about to exit. */
  exit(reason: string): void;
  /** `%subscription-changed NAME $S @W I %P : VALUE` (a pane's subscription, tmux ≥ 3.2): the
   * format `NAME` watches changed to VALUE (or was read for the first time). Other
   * subscriptions (of a session or a window) are notifications. */
  subscription(name: string, paneId: string, value: string): void;
  /** Any other line outside a block (`%session-changed`, `%window-add`, ...). */
  notification(line: string): void;
}

const BEGIN = /^%begin (\d+) (\d+) (\d+)$/;
/** A pane subscription's change: its name, then session, window, index and pane, then the
 * value after ` : ` (the value is anything, spaces and colons too). */
const SUBSCRIPTION = /^%subscription-changed (\S+) \$\d+ @\d+ \d+ (%\d+) : /;
const OUTPUT = '%output ';
const EXTENDED_OUTPUT = '%extended-output ';

/** The block being read: its end lines, precomputed so each content line is one compare. */
interface OpenBlock {
  endLine: string;
  errorLine: string;
  block: ControlBlock;
}

/**
 * Splits the client's stdout into lines and recognises them. Inside a block every line is
 * content until `%end`/`%error` with the same time, number and flags as the `%begin`: a
 * captured pane line reading `%end 1 2 1` or `%output %9 x` is content, not protocol.
 *
 * Cheap on busy panes: a `%output` line is recognised in place and only its pane id is
 * copied; its data is never decoded.
 */
export class ControlParser {
  #rest = '';
  #open: OpenBlock | undefined;

  constructor(private readonly handler: ControlHandler) {}

  /** Whether the parser is inside a reply block. */
  get inBlock(): boolean {
    return this.#open !== undefined;
  }

  /** Feed decoded stdout; complete lines are handled at once, a partial line is kept. */
  push(chunk: string): void {
    const data = this.#rest === '' ? chunk : this.#rest + chunk;
    let start = 0;
    for (let newline = data.indexOf('\n'); newline >= 0; newline = data.indexOf('\n', start)) {
      this.#line(data, start, newline);
      start = newline + 1;
    }
    this.#rest = start === 0 ? data : data.slice(start);
  }

  #line(data: string, start: number, end: number): void {
    const open = this.#open;
    if (open) {
      const line = data.slice(start, end);
      if (line === open.endLine || line === open.errorLine) {
        this.#open = undefined;
        open.block.ok = line === open.endLine;
        this.handler.block(open.block);
      } else {
        open.block.lines.push(line);
      }
      return;
    }
    if (data.startsWith(OUTPUT, start)) {
      this.#output(data, start + OUTPUT.length, end);
      return;
    }
    if (data.startsWith(EXTENDED_OUTPUT, start)) {
      this.#output(data, start + EXTENDED_OUTPUT.length, end);
      return;
    }
    const line = data.slice(start, end);
    const begin = BEGIN.exec(line);
    if (begin) {
      const tail = ` ${begin[1]} ${begin[2]} ${begin[3]}`;
      this.#open = {
        endLine: `%end${tail}`,
        errorLine: `%error${tail}`,
        block: {number: begin[2] ?? '', fromClient: begin[3] === '1', ok: false, lines: []},
      };
    } else if (line === '%exit' || line.startsWith('%exit ')) {
      this.handler.exit(line.slice('%exit '.length));
    } else if (line.startsWith('%pause ')) {
      this.handler.pause(line.slice('%pause '.length));
    } else if (line.startsWith('%subscription-changed ')) {
      const m = SUBSCRIPTION.exec(line);
      if (m?.[1] && m[2]) this.handler.subscription(m[1], m[2], line.slice(m[0].length));
      else this.handler.notification(line);
    } else {
      this.handler.notification(line);
    }
  }

  #output(data: string, idStart: number, end: number): void {
    const space = data.indexOf(' ', idStart);
    this.handler.output(data.slice(idStart, space < 0 || space > end ? end : space));
  }
}
