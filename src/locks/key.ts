import {Buffer} from 'node:buffer';
import type {PaneRef} from '../tmux/server.js';

/**
 * The key of one pane of one tmux server, naming its files under the state dir (its lock and
 * queue, its hook marks, what nudge remembers of it). Pane ids restart at %0 when a server
 * restarts, so the key holds the server's socket and pid as well as the pane id. The server's
 * own files (the control mutex) use the pane name `control`.
 */
export function paneKey(ref: PaneRef): string {
  const socket = fnv1a64(ref.socketPath).slice(0, 12);
  return `${socket}-${ref.serverPid}-${ref.pane.replace(/^%/, 'p')}`;
}

/** The 64-bit FNV-1a hash of a string's UTF-8 bytes, as 16 hex digits. Not cryptographic: it
 * only names files, and loading node:crypto would cost every `nudge submit` ~8 ms. */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}
