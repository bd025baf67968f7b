import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/**
 * A time-ordered id (UUIDv7 layout: 48-bit milliseconds, a 12-bit counter, 62 random bits),
 * so ties on a creation date still sort in creation order and B-tree inserts stay appends.
 */
export function newId(now: number = Date.now()): string {
  if (now <= lastMs) {
    seq += 1;
    if (seq > 0xfff) {
      lastMs += 1;
      seq = 0;
    }
  } else {
    lastMs = now;
    seq = 0;
  }
  const ms = lastMs.toString(16).padStart(12, '0');
  const rand = randomBytes(8);
  rand[0] = (rand[0]! & 0x3f) | 0x80;
  const r = rand.toString('hex');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${seq.toString(16).padStart(3, '0')}-${r.slice(0, 4)}-${r.slice(4)}`;
}

/** An unguessable capability (public chat links, visitor keys): 256 random bits. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
