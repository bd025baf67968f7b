import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let seq = 0;

// Random bytes are drawn from the system generator 4 KiB at a time and handed out once each
// (as Node's randomUUID does): one randomBytes call per id was a measurable part of ingesting
// a message (~3 ids per webhook; docs/bench.md, B2).
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomSlice(size: number): Buffer {
  if (offset + size > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const slice = pool.subarray(offset, offset + size);
  offset += size;
  return slice;
}

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
  const rand = randomSlice(8);
  rand[0] = (rand[0]! & 0x3f) | 0x80;
  const r = rand.toString('hex');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${seq.toString(16).padStart(3, '0')}-${r.slice(0, 4)}-${r.slice(4)}`;
}

/** An unguessable capability (public chat links, visitor keys): 256 random bits. */
export function newSecret(): string {
  return randomSlice(32).toString('base64url');
}
