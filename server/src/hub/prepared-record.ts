import type { LiveRecord } from '../services/changes/live-collection';

/**
 * A record serialised once per batch (or snapshot): every subscription that sends it shares
 * the same JSON text, and compares the content hash to skip sending what did not change.
 */
export interface PreparedRecord {
  id: string;
  data: LiveRecord;
  json: string;
  hash: number;
  /** Soft-deleted (lifeControl.deletedAt set): leaves every window unless the query includes deleted. */
  deleted: boolean;
  /** The JSON without some top-level fields, built once per distinct cut. */
  jsonWithout(omit: readonly string[] | undefined): string;
}

/** cyrb53: a fast 53-bit string hash; collisions are about 1 in 2^53 (enough to skip resends). */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // Never 0: 0 means "unknown content" in a subscription's window.
  return 4294967296 * (2097151 & h2) + (h1 >>> 0) || 1;
}

export function prepareRecord(data: LiveRecord): PreparedRecord {
  const json = JSON.stringify(data);
  const life = data.lifeControl as { deletedAt?: unknown } | undefined;
  const cuts = new Map<string, string>();
  return {
    id: String(data.id),
    data,
    json,
    hash: hash53(json),
    deleted: Boolean(life?.deletedAt),
    jsonWithout(omit) {
      if (!omit?.length || !omit.some((f) => f in data)) return json;
      const key = omit.join('\u0000');
      let text = cuts.get(key);
      if (text === undefined) {
        const copy: Record<string, unknown> = { ...data };
        for (const field of omit) delete copy[field];
        cuts.set(key, (text = JSON.stringify(copy)));
      }
      return text;
    },
  };
}
