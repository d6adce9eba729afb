import type {Pattern} from '../base/pattern.js';

/** The programs that run a script named after their options. */
const INTERPRETER = /(?:^|\/)(?:node|nodejs|bun|deno|python3?)$/;

/** Whether a command line (its arguments joined by spaces) runs one of `programs`: the
 * executable, or the script an interpreter runs past its options (`node …/bin/codex`, `node
 * --expose-gc …/qwen-code/cli.js`: Qwen Code and Gemini CLI start themselves again so). */
export function runsProgram(programs: readonly Pattern[] | undefined, command: string): boolean {
  const [program = '', ...rest] = command.split(' ');
  const script = INTERPRETER.test(program) ? rest.find((w) => !w.startsWith('-')) : undefined;
  const words = script === undefined ? [program] : [program, script];
  return programs?.some((re) => words.some((w) => re.test(w))) ?? false;
}
