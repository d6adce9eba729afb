/** Compile-time exhaustiveness check for switches over unions. */
export function unreachable(value: never): never {
  throw new Error(`Internal error: unexpected value ${JSON.stringify(value)}`);
}
