/**
 * Where `bytes` stop being UTF-8: the offset of the first byte that does not start or continue
 * a well-formed sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF),
 * or undefined when all of it is. Node's own decoding would turn such bytes into U+FFFD and
 * nudge would type that instead of what the person has.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return undefined;
}

/**
 * The first of a process's last `count` arguments that is not UTF-8, read from the bytes the
 * kernel keeps (`/proc/self/cmdline`: each argument ends with a NUL): Node hands such an
 * argument to nudge with U+FFFD in place of the bytes, and nudge would type that. `index`
 * counts from the first of those `count`. Undefined when every one is UTF-8.
 */
export function invalidArgument(
  cmdline: Uint8Array,
  count: number,
): {index: number; offset: number; byte: number} | undefined {
  const args: Uint8Array[] = [];
  let start = 0;
  while (start < cmdline.length) {
    let end = cmdline.indexOf(0, start);
    if (end < 0) end = cmdline.length;
    args.push(cmdline.subarray(start, end));
    start = end + 1;
  }
  const last = args.slice(Math.max(0, args.length - count));
  for (const [index, arg] of last.entries()) {
    const offset = firstInvalidUtf8(arg);
    if (offset !== undefined) return {index, offset, byte: arg[offset] ?? 0};
  }
  return undefined;
}
